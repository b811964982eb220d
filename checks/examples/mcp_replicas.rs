//! A toolbox's tools over streamable HTTP, MCP 2026-07-28: stateless, so
//! any number of replicas answer behind one address, and a call that needs
//! a person's input parks without holding anything in memory: its state
//! goes to the client sealed, and whichever replica gets the call again
//! resumes it.
//!
//! ```sh
//! # one replica, until Ctrl-C (every replica gets the same key):
//! MCP_STATE_KEY=$(openssl rand -hex 32) \
//!     cargo run -p toolresult-checks --example mcp_replicas -- serve 127.0.0.1:8701
//! # no argument: two replicas in this process, a call parked on the first
//! # and answered through the second; exits 0 when all went as it should
//! cargo run -p toolresult-checks --example mcp_replicas
//! ```
//!
//! The README's "Replicas behind one address" walks through it with curl.

use std::convert::Infallible;
use std::time::Duration;

use anyhow::{Context, bail};
use hyper::body::Incoming;
use hyper::{Request as HttpRequest, Response, StatusCode};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use serde_json::{Map, Value, json};
use toolresult::ToolResult;
use toolresult::canonical::Request;
use toolresult::mcp::McpServer;
use toolresult::seal::Keyring;
use toolresult::tool::{self, CallContext, ToolSafety};
use toolresult::toolbox::Toolbox;

/// The environment variable holding the key that seals parked calls'
/// states: 32 bytes or more, the same on every replica.
const KEY_VAR: &str = "MCP_STATE_KEY";
/// How long a parked call's state stays valid: the time a person has to
/// answer.
const STATE_TTL: Duration = Duration::from_secs(15 * 60);

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    city: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Release {
    version: String,
}

/// The tools: `weather` answers at once; `deploy` asks a person first.
fn toolbox() -> anyhow::Result<Toolbox> {
    let mut toolbox = Toolbox::new();
    toolbox.register(
        tool::function("weather", "The weather in a city", |c: City| {
            format!("sunny in {}", c.city)
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;
    toolbox.register(tool::function(
        "deploy",
        "Deploys a release, once a person approves",
        |r: Release, cx: &CallContext| match cx.answer() {
            // The call again, with the person's answer.
            Some(answer) if answer.ok && approved(answer.data.as_ref()) => {
                ToolResult::<String>::ok(format!("deployed {}", r.version))
            }
            Some(_) => ToolResult::ok(format!("{} not deployed: not approved", r.version)),
            // First round: park on a question. Over MCP 2026-07-28 this is
            // an input-required result (a form elicitation).
            None => ToolResult::pending(
                Request::input(format!("Deploy {} to production?", r.version))
                    .with_id(format!("approve-{}", r.version))
                    .with_data(Map::from_iter([(
                        McpServer::REQUESTED_SCHEMA.to_owned(),
                        json!({"type": "object",
                               "properties": {"approve": {"type": "boolean"}},
                               "required": ["approve"]}),
                    )])),
            ),
        },
    )?)?;
    Ok(toolbox)
}

fn approved(data: Option<&Map<String, Value>>) -> bool {
    data.and_then(|data| data.get("approve"))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// One replica's MCP server: its own toolbox, sharing only the key.
fn replica(key: &[u8]) -> anyhow::Result<McpServer> {
    let keyring = Keyring::new(key).context("the state key")?;
    Ok(McpServer::new(toolbox()?)?
        .with_info("replicas", "1.0.0")
        .input_required(keyring, STATE_TTL))
}

/// Serves `server` on `listener`: MCP at `/mcp`, a health check at
/// `/health` (an empty `200`), `404` elsewhere: the routes of an HTTP
/// server of one's own. In axum the same service mounts with
/// `Router::new().route_service("/mcp", service)`.
async fn serve(server: McpServer, listener: tokio::net::TcpListener) -> anyhow::Result<()> {
    let mcp = server.streamable_http(
        StreamableHttpServerConfig::default()
            // No sessions for 2025 clients either: nothing a replica
            // keeps, so a load balancer needs no affinity.
            .with_legacy_session_mode(false)
            // A reply with nothing before it is one JSON body.
            .with_json_response(true),
    );
    loop {
        let (stream, _) = listener.accept().await?;
        // Without it, a client reusing its connection waits on Nagle's
        // algorithm against its own delayed ACKs, some 40 ms a call.
        stream.set_nodelay(true)?;
        let mcp = mcp.clone();
        let route = hyper::service::service_fn(move |request: HttpRequest<Incoming>| {
            let mcp = mcp.clone();
            async move {
                let path = request.uri().path();
                if path == "/mcp" {
                    return Ok::<_, Infallible>(mcp.handle(request).await);
                }
                // rmcp's body type, empty.
                let mut response = Response::new(Default::default());
                if path != "/health" {
                    *response.status_mut() = StatusCode::NOT_FOUND;
                }
                Ok(response)
            }
        });
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, route)
                .await;
        });
    }
}

type Client = RunningService<RoleClient, ClientConfig>;

/// A 2026-07-28 client of the replica at `address` (no session: each
/// request carries its version and capabilities), one that can answer a
/// form.
async fn client(address: std::net::SocketAddr) -> anyhow::Result<Client> {
    let info = ClientConfig::new(
        ClientCapabilities::builder().enable_elicitation().build(),
        Implementation::new("replicas-check", "1.0.0"),
    );
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    Ok(info.serve_with_lifecycle(transport, lifecycle).await?)
}

fn arguments(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn text_of(response: CallToolResponse) -> anyhow::Result<String> {
    let CallToolResponse::Complete(result) = response else {
        bail!("expected a complete result, got {response:?}");
    };
    let text = result.content.first().and_then(|c| c.as_text());
    Ok(text.map(|t| t.text.clone()).unwrap_or_default())
}

/// Two replicas on free ports of 127.0.0.1, sharing only the key; a call
/// parked on the first is answered through the second.
async fn check(key: &[u8]) -> anyhow::Result<()> {
    let mut addresses = Vec::new();
    for _ in 0..2 {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        addresses.push(listener.local_addr()?);
        tokio::spawn(serve(replica(key)?, listener));
    }
    let first = client(addresses[0]).await?;
    let second = client(addresses[1]).await?;

    let weather =
        CallToolRequestParams::new("weather").with_arguments(arguments(json!({"city": "Oslo"})));
    let answered = text_of(first.call_tool_once(weather).await?)?;
    println!("weather, replica 1: {answered}");

    let deploy =
        CallToolRequestParams::new("deploy").with_arguments(arguments(json!({"version": "1.4.2"})));
    let CallToolResponse::InputRequired(parked) = first.call_tool_once(deploy.clone()).await?
    else {
        bail!("deploy did not ask first");
    };
    let asked: Vec<&String> = parked
        .input_requests
        .iter()
        .flatten()
        .map(|(id, _)| id)
        .collect();
    let state = parked.request_state.clone().context("no requestState")?;
    println!(
        "deploy, replica 1: input required, asking {asked:?}, state of {} bytes",
        state.len()
    );
    let [id] = asked.as_slice() else {
        bail!("expected one input request, got {asked:?}");
    };

    // The person approves; the call goes again, to the other replica.
    let mut again = deploy;
    again.input_responses = Some(
        [(
            (*id).clone(),
            json!({"action": "accept", "content": {"approve": true}}),
        )]
        .into_iter()
        .collect(),
    );
    again.request_state = Some(state);
    let answered = text_of(second.call_tool_once(again).await?)?;
    println!("deploy, replica 2: {answered}");
    if answered != "deployed 1.4.2" {
        bail!("replica 2 answered {answered:?}");
    }
    first.cancel().await?;
    second.cancel().await?;
    Ok(())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let key = std::env::var(KEY_VAR).ok();
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("serve") => {
            let key = key.with_context(|| {
                format!("set {KEY_VAR} to a key of 32 bytes or more, the same on every replica")
            })?;
            let address = args.next().unwrap_or_else(|| "127.0.0.1:8701".to_owned());
            let listener = tokio::net::TcpListener::bind(&address).await?;
            println!("serving MCP at http://{address}/mcp");
            tokio::select! {
                served = serve(replica(key.as_bytes())?, listener) => served,
                _ = tokio::signal::ctrl_c() => Ok(()),
            }
        }
        Some(other) => bail!("unknown mode {other:?}: `serve [address]`, or none for the check"),
        // The check: with no key given, one made for this run.
        None => {
            let key = key.unwrap_or_else(|| {
                format!(
                    "{}{}",
                    uuid::Uuid::new_v4().simple(),
                    uuid::Uuid::new_v4().simple()
                )
            });
            tokio::time::timeout(Duration::from_secs(30), check(key.as_bytes()))
                .await
                .context("the check did not finish in 30 s")?
        }
    }
}
