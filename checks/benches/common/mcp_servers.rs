//! The MCP servers and clients the MCP benches share (`mcp.rs`,
//! `mcp_load.rs`): a toolbox served by `McpServer` and rmcp's own
//! `#[tool_router]` server with the same tool, over streamable HTTP on
//! 127.0.0.1, and the rmcp clients that drive both. A bench opts in with
//! `#[path = "common/mcp_servers.rs"] mod mcp_servers;`.

#![allow(dead_code)] // each bench uses what it needs

use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService, Service};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde_json::{Map, Value, json};
use toolresult::ToolResult;
use toolresult::canonical::Request;
use toolresult::mcp::McpServer;
use toolresult::seal::Keyring;
use toolresult::tool::{self as tools, CallContext, ToolSafety};
use toolresult::toolbox::Toolbox;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Add {
    pub a: i64,
    pub b: i64,
}

/// The peer: the same tool, on rmcp's macros.
#[derive(Clone)]
pub struct RmcpServer {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl RmcpServer {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Add two integers")]
    fn add(&self, Parameters(Add { a, b }): Parameters<Add>) -> String {
        (a + b).to_string()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for RmcpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

fn with_add(toolbox: &mut Toolbox) {
    toolbox
        .register(
            tools::function("add", "Add two integers", |x: Add| (x.a + x.b).to_string())
                .expect("a tool")
                .with_safety(ToolSafety::ReadOnly),
        )
        .expect("registered");
}

/// A toolbox of `add`, served.
pub fn toolbox_server() -> McpServer {
    let mut toolbox = Toolbox::new();
    with_add(&mut toolbox);
    McpServer::new(toolbox).expect("a server")
}

/// The key every replica of the input-required server seals with.
const KEY: [u8; 32] = [0x42; 32];

/// The id of the request `confirm` parks on.
pub const CONFIRM: &str = "confirm";

/// `add`, and `confirm`, which parks on a yes/no question until answered:
/// with input-required results (MCP 2026-07-28), its state sealed.
pub fn input_required_server() -> McpServer {
    let mut toolbox = Toolbox::new();
    with_add(&mut toolbox);
    toolbox
        .register(
            tools::function(
                "confirm",
                "Adds once a person says yes",
                |x: Add, cx: &CallContext| {
                    match cx.answer() {
                    Some(answer) if answer.ok => ToolResult::<String>::ok((x.a + x.b).to_string()),
                    Some(_) => ToolResult::ok("declined".to_owned()),
                    None => ToolResult::pending(
                        Request::input("Add them?").with_id(CONFIRM).with_data(Map::from_iter([(
                            McpServer::REQUESTED_SCHEMA.to_owned(),
                            json!({"type": "object", "properties": {"ok": {"type": "boolean"}}}),
                        )])),
                    ),
                }
                },
            )
            .expect("a tool")
            .with_safety(ToolSafety::ReadOnly),
        )
        .expect("registered");
    McpServer::new(toolbox)
        .expect("a server")
        .input_required(Keyring::new(KEY).expect("a key"), Duration::from_secs(600))
}

/// How a server is served over streamable HTTP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A 2025-11-25 session for each client (`initialize`, `Mcp-Session-Id`).
    Sessions,
    /// MCP 2026-07-28: each request alone, no session kept (rmcp's
    /// stateless mode: no legacy sessions, JSON replies).
    Stateless,
}

pub fn http_config(mode: Mode) -> StreamableHttpServerConfig {
    let config = StreamableHttpServerConfig::default().with_sse_keep_alive(None);
    match mode {
        Mode::Sessions => config,
        Mode::Stateless => config
            .with_legacy_session_mode(false)
            .with_json_response(true),
    }
}

/// rmcp's server as its own streamable HTTP service.
pub fn rmcp_http(mode: Mode) -> StreamableHttpService<RmcpServer, LocalSessionManager> {
    StreamableHttpService::new(
        || Ok(RmcpServer::new()),
        Default::default(),
        http_config(mode),
    )
}

/// Serves `service` on a free port of 127.0.0.1 (hyper, `TCP_NODELAY`);
/// its address.
pub async fn serve_http<H, M>(service: StreamableHttpService<H, M>) -> std::net::SocketAddr
where
    H: ServerHandler + Send + 'static,
    M: SessionManager,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = listener.local_addr().expect("an address");
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            // Nagle's algorithm against the client's delayed ACKs would
            // hold each answer of a reused connection (see the README).
            let _ = stream.set_nodelay(true);
            let service = hyper_util::service::TowerToHyperService::new(service.clone());
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service)
                    .await;
            });
        }
    });
    address
}

/// A client: rmcp's, its info declaring form elicitation.
pub type Client = RunningService<RoleClient, ClientConfig>;

fn client_info() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::builder().enable_elicitation().build(),
        Implementation::new("bench", "1.0.0"),
    )
}

/// A client of the server at `address`: a session (`initialize`), or
/// 2026-07-28 requests that each carry their version (`server/discover`).
pub async fn connect(address: std::net::SocketAddr, mode: Mode) -> Client {
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
    let lifecycle = match mode {
        Mode::Sessions => ClientLifecycleMode::Initialize,
        Mode::Stateless => ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    };
    client_info()
        .serve_with_lifecycle(transport, lifecycle)
        .await
        .expect("connected")
}

/// A client of `handler` over an in-memory duplex (a session).
pub async fn over_duplex<H: ServerHandler>(handler: H) -> Client {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    client_info().serve(client_end).await.expect("connected")
}

pub fn object(value: Value) -> Map<String, Value> {
    let Value::Object(object) = value else {
        unreachable!("an object")
    };
    object
}

pub fn add_call() -> CallToolRequestParams {
    CallToolRequestParams::new("add").with_arguments(object(json!({"a": 2, "b": 40})))
}

/// One `add` call, its answer checked.
pub async fn one_call<S: Service<RoleClient>>(client: &RunningService<RoleClient, S>) {
    let answer = client.call_tool(add_call()).await.expect("answered");
    assert_eq!(
        answer.content[0].as_text().map(|t| t.text.as_str()),
        Some("42")
    );
}
