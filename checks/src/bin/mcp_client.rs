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
//! person accepting the form would.

use std::time::Duration;

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
        tokio::time::timeout(Duration::from_secs(25), run(&url, &context))
            .await
            .map_err(|_| "the scenario did not finish within 25s")?
    })
}

async fn run(url: &str, context: &Value) -> Result<(), Box<dyn std::error::Error>> {
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url.to_owned());
    let client = McpClient::connect(transport).await?;
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
            let turn = Turn::default().resume(parked, accepting(&request))?;
            outcome = toolbox.run(turn).await;
        }
    }
    Ok(())
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
