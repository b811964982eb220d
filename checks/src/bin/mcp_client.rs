//! The MCP client the conformance suite drives (`conformance client
//! --command <this> --scenario <name>`): `toolresult::mcp::McpClient` and a
//! `Toolbox` of the server's tools, as an application would use them.
//!
//! The suite passes the server's URL as the last argument, the scenario in
//! `MCP_CONFORMANCE_SCENARIO`, and what the scenario wants done in
//! `MCP_CONFORMANCE_CONTEXT` (JSON: `toolCalls`, each a `name` and its
//! `arguments`). The client connects in the protocol the server speaks,
//! lists the tools and calls the ones asked for (else every one, with
//! arguments made from its schema). A call parked on the server's question
//! is answered through `Turn::resume` with what the form's schema offers
//! (its defaults, else a value of each required field's type), as a
//! person accepting the form would. A server that answers 401, or 403
//! `insufficient_scope`, is authorized with rmcp's OAuth 2.1 client
//! (discovery seeded from its challenge, PKCE, the union of the scopes
//! asked so far, at most three authorizations) and the scenario run again.

use std::time::Duration;

use rmcp::transport::auth::{AuthorizationCallback, OAuthState};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{AuthClient, AuthorizationRequest, StreamableHttpClientTransport};
use serde_json::{Map, Value, json};
use toolresult::canonical::{Answer, Request};
use toolresult::mcp::McpClient;
use toolresult::provider::Call;
use toolresult::tool::{Arguments, Tool as _};
use toolresult::toolbox::{Toolbox, Turn};

/// How many questions one call may ask before the client gives up on it.
const MOST_QUESTIONS: usize = 8;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .skip(1)
        .last()
        .ok_or("usage: mcp_client <server url>")?;
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    // Before the suite's own limit: a server that never answers ends the
    // run with an error, not a kill.
    runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(25), stepping_up(&url, &context))
            .await
            .map_err(|_| "the scenario did not finish within 25s")?
    })
}

/// How many times the client authorizes: three in all, the most MCP's
/// retry limit allows.
const MOST_AUTHORIZATIONS: usize = 3;

/// Runs the scenario as a user's application would: unauthorized first;
/// a server that answers 401 (or 403 `insufficient_scope`) gets an
/// authorization for what its challenge asks, and the scenario again.
async fn stepping_up(url: &str, context: &Value) -> Result<(), Box<dyn std::error::Error>> {
    let mut authorization: Option<(Vec<String>, String)> = None;
    let mut authorizations = 0;
    loop {
        let failed = match run(url, context, authorization.as_ref()).await {
            Ok(()) => return Ok(()),
            Err(failed) => failed,
        };
        // What rmcp's transport read from the server's challenge (its
        // error names no token).
        let challenge = match failed.downcast_ref::<Challenge>() {
            Some(challenge) => Some((challenge.header.clone(), challenge.scope.clone())),
            None => {
                let said = format!("{failed:?}");
                quoted_after(&said, "www_authenticate_header: ")
                    .map(|header| (header, quoted_after(&said, "required_scope: Some(")))
            }
        };
        let Some((header, required)) = challenge else {
            return Err(failed);
        };
        if authorizations == MOST_AUTHORIZATIONS {
            return Err(failed);
        }
        authorizations += 1;
        let mut scopes = authorization.map(|(scopes, _)| scopes).unwrap_or_default();
        // What was asked before and what is asked now (SEP-2350's union).
        for asked in [required, quoted_after(&header, "scope=")]
            .into_iter()
            .flatten()
        {
            for scope in asked.split_whitespace() {
                if !scopes.iter().any(|known| known == scope) {
                    scopes.push(scope.to_owned());
                }
            }
        }
        authorization = Some((scopes, header));
    }
}

/// A server's refusal for want of scope: its `WWW-Authenticate` and the
/// scope it names.
#[derive(Debug)]
struct Challenge {
    header: String,
    scope: Option<String>,
}

impl std::fmt::Display for Challenge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the server wants more scope: {}", self.header)
    }
}

impl std::error::Error for Challenge {}

/// The string `Debug` wrote after `label`, unescaped (one level, or two
/// when the error was itself read as text).
fn quoted_after(said: &str, label: &str) -> Option<String> {
    let unnested = said.replace("\\\"", "\"").replace("\\\\", "\\");
    for text in [said, unnested.as_str()] {
        let Some(rest) = text.split(label).nth(1) else {
            continue;
        };
        let Some(rest) = rest.strip_prefix('"') else {
            continue;
        };
        let mut value = String::new();
        let mut chars = rest.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => value.extend(chars.next()),
                '"' => return Some(value),
                c => value.push(c),
            }
        }
    }
    None
}

async fn run(
    url: &str,
    context: &Value,
    authorization: Option<&(Vec<String>, String)>,
) -> Result<(), Box<dyn std::error::Error>> {
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    let client = if let Some((scopes, challenge)) = authorization {
        let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
        let authorized = authorize(url, context, &scopes, challenge).await?;
        McpClient::connect(StreamableHttpClientTransport::with_client(
            authorized, config,
        ))
        .await?
    } else {
        McpClient::connect(StreamableHttpClientTransport::from_config(config)).await?
    };
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(20));
    let mut calls = Vec::new();
    for tool in client.tools().await? {
        calls.push((
            tool.name().to_owned(),
            arguments_for(tool.input_schema().as_value()),
        ));
        toolbox.register(tool)?;
    }
    if let Some(asked) = context.get("toolCalls").and_then(Value::as_array) {
        calls = asked
            .iter()
            .filter_map(|call| {
                let name = call.get("name")?.as_str()?.to_owned();
                let arguments = call.get("arguments").cloned().unwrap_or_else(|| json!({}));
                Some((name, arguments))
            })
            .collect();
    }
    // The schema round trip of json-schema-2020-12-preservation: a tool's
    // input schema, passed back as the server gave it.
    if let (Some(focal), true) = (
        toolbox.get("json_schema_2020_12_tool"),
        toolbox.get("json_schema_echo").is_some(),
    ) {
        let schema = focal.input_schema().as_value().clone();
        calls = vec![("json_schema_echo".to_owned(), json!({ "schema": schema }))];
    }
    for (at, (name, arguments)) in calls.into_iter().enumerate() {
        let call = Call::new(format!("call-{at}"), name, Arguments::Json(arguments));
        let mut outcome = toolbox.run([call]).await;
        for _ in 0..MOST_QUESTIONS {
            let Some(parked) = outcome.first() else { break };
            let Some(request) = parked.lowered.result.pending_request() else {
                break;
            };
            // A call the server refused for want of scope: the caller
            // authorizes again (the whole scenario, with the scope).
            if request.kind == Request::AUTHORIZATION {
                let said = |key: &str| {
                    let data = request.data.as_ref()?;
                    Some(data.get(key)?.as_str()?.to_owned())
                };
                return Err(Box::new(Challenge {
                    header: said("wwwAuthenticate").unwrap_or_default(),
                    scope: said("scope"),
                }));
            }
            let turn = Turn::default().resume(parked, accepting(&request))?;
            outcome = toolbox.run(turn).await;
        }
    }
    Ok(())
}

/// Where the authorization server sends the user back: the suite's
/// authorization endpoint answers with a redirect to it, never followed.
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// The client's metadata document (SEP-991), for a server that takes one.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// An HTTP client authorized at `url`'s authorization server, as a user
/// who approves at once would have it: discovery from the server's
/// `challenge` (its `WWW-Authenticate`), registration (pre-registered from the suite's context, a
/// metadata document, or dynamic), the authorization code with PKCE, the
/// token.
async fn authorize(
    url: &str,
    context: &Value,
    scopes: &[&str],
    challenge: &str,
) -> Result<AuthClient<reqwest::Client>, Box<dyn std::error::Error>> {
    let mut oauth = OAuthState::new(url, None).await?;
    let mut request = AuthorizationRequest::new(REDIRECT_URI)
        .with_client_name("toolresult-conformance")
        .with_scopes(scopes.iter().copied());
    request.client_metadata_url = Some(CLIENT_METADATA_URL.to_owned());
    request.challenge = Some(challenge.to_owned());
    let text = |key: &str| context.get(key).and_then(Value::as_str).map(str::to_owned);
    if let Some(id) = text("client_id") {
        request = request.with_preregistered_client(id);
        if let Some(secret) = text("client_secret") {
            request = request.with_client_secret(secret);
        }
    }
    oauth.start_authorization(request).await?;
    let at = oauth.get_authorization_url().await?;
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let answer = browser.get(&at).send().await?;
    let back = answer
        .headers()
        .get("location")
        .and_then(|value| value.to_str().ok())
        .ok_or("the authorization endpoint did not redirect back")?;
    let callback = AuthorizationCallback::from_redirect_url(back)?;
    oauth
        .handle_callback_with_issuer(
            &callback.code,
            &callback.csrf_token,
            callback.issuer.as_deref(),
        )
        .await?;
    let manager = oauth
        .into_authorization_manager()
        .ok_or("the authorization did not complete")?;
    Ok(AuthClient::new(reqwest::Client::default(), manager))
}

/// The answer of a person who accepts `request`'s form as it is offered:
/// each field's default, else a value of its type for a required one.
fn accepting(request: &Request) -> Answer {
    let schema = request
        .data
        .as_ref()
        .and_then(|data| data.get("requestedSchema"));
    let content = match schema {
        Some(schema) => filled(schema, true),
        None => Map::new(),
    };
    Answer::granted(request.id.clone(), Some(content))
}

/// The arguments of a call of a tool whose input schema is `schema`: a
/// value of each required property's type.
fn arguments_for(schema: &Value) -> Value {
    Value::Object(filled(schema, false))
}

/// An object for `schema`: its properties' defaults (when `defaults`),
/// and a value of its type for each required property without one.
fn filled(schema: &Value, defaults: bool) -> Map<String, Value> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut object = Map::new();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return object;
    };
    for (name, property) in properties {
        if defaults && let Some(default) = property.get("default") {
            object.insert(name.clone(), default.clone());
        } else if required.contains(&name.as_str()) {
            object.insert(name.clone(), example(property));
        }
    }
    object
}

/// A value of `property`'s type: its first `enum` value or `const`, else a
/// plain one.
fn example(property: &Value) -> Value {
    if let Some(first) = property
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|values| values.first())
    {
        return first.clone();
    }
    if let Some(constant) = property.get("const") {
        return constant.clone();
    }
    match property.get("type").and_then(Value::as_str) {
        Some("number") => json!(1.0),
        Some("integer") => json!(1),
        Some("boolean") => json!(true),
        Some("array") => json!([]),
        Some("object") => json!({}),
        _ => json!("test"),
    }
}
