//! One trivial `tools/call`, served by a toolbox (`McpServer`) and by
//! rmcp's own `#[tool_router]` server, the same rmcp client driving both:
//!
//! - `duplex`: over an in-memory byte stream, as stdio carries it (one
//!   JSON-RPC message a line);
//! - `http`: over streamable HTTP on 127.0.0.1 (hyper), a session each.
//!
//! The tool adds two integers and answers with the sum as text. The
//! client's `call_tool` is timed from the request to its answer, the
//! session set up once outside the loop.

mod common;

use std::future::Future;

use criterion::{Criterion, criterion_group};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, ServerCapabilities, ServerConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde_json::json;
use toolresult::mcp::McpServer;
use toolresult::tool::{self as tools, ToolSafety};
use toolresult::toolbox::Toolbox;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

/// The peer: the same tool, on rmcp's macros.
#[derive(Clone)]
struct RmcpServer {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl RmcpServer {
    fn new() -> Self {
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

fn toolbox_server() -> McpServer {
    let mut toolbox = Toolbox::new();
    toolbox
        .register(
            tools::function("add", "Add two integers", |x: Add| (x.a + x.b).to_string())
                .expect("a tool")
                .with_safety(ToolSafety::ReadOnly),
        )
        .expect("registered");
    McpServer::new(toolbox).expect("a server")
}

type Client = RunningService<RoleClient, ()>;

/// A client of `handler` over an in-memory duplex.
async fn over_duplex<H: ServerHandler>(handler: H) -> Client {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_end).await.expect("connected")
}

/// A client of the streamable HTTP service `service` served on 127.0.0.1.
async fn over_http<H, M>(service: StreamableHttpService<H, M>) -> Client
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
    ().serve(StreamableHttpClientTransport::from_uri(format!(
        "http://{address}/mcp"
    )))
    .await
    .expect("connected")
}

fn http_config() -> StreamableHttpServerConfig {
    StreamableHttpServerConfig::default().with_sse_keep_alive(None)
}

fn add_call() -> CallToolRequestParams {
    let serde_json::Value::Object(arguments) = json!({"a": 2, "b": 40}) else {
        unreachable!("an object")
    };
    CallToolRequestParams::new("add").with_arguments(arguments)
}

async fn one_call(client: &Client) {
    let answer = client.call_tool(add_call()).await.expect("answered");
    assert_eq!(
        answer.content[0].as_text().map(|t| t.text.as_str()),
        Some("42")
    );
}

fn bench_pair<F, G>(c: &mut Criterion, group: &str, ours: F, rmcp: G)
where
    F: Future<Output = Client>,
    G: Future<Output = Client>,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let ours = runtime.block_on(ours);
    let theirs = runtime.block_on(rmcp);
    let mut group = c.benchmark_group(group);
    group.bench_function("toolbox", |b| {
        b.iter(|| runtime.block_on(one_call(&ours)));
    });
    group.bench_function("rmcp_tool_router", |b| {
        b.iter(|| runtime.block_on(one_call(&theirs)));
    });
    group.finish();
}

fn duplex(c: &mut Criterion) {
    bench_pair(
        c,
        "mcp_call/duplex",
        over_duplex(toolbox_server().session()),
        over_duplex(RmcpServer::new()),
    );
}

fn http(c: &mut Criterion) {
    let ours = toolbox_server().streamable_http(http_config());
    let theirs: StreamableHttpService<RmcpServer, LocalSessionManager> =
        StreamableHttpService::new(|| Ok(RmcpServer::new()), Default::default(), http_config());
    bench_pair(c, "mcp_call/http", over_http(ours), over_http(theirs));
}

criterion_group!(benches, duplex, http);

/// `MCP_BENCH_COUNT=<calls>:<toolbox|rmcp>:<duplex|http>` makes that many
/// calls of one server and exits, for counting instructions with
/// `valgrind --tool=callgrind` (two counts apart, the set-up cancels out).
fn count(spec: &str) {
    let mut parts = spec.split(':');
    let calls: usize = parts.next().and_then(|n| n.parse().ok()).expect("a count");
    let server = parts.next().unwrap_or("toolbox");
    let wire = parts.next().unwrap_or("duplex");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let client = match (server, wire) {
            ("toolbox", "duplex") => over_duplex(toolbox_server().session()).await,
            ("rmcp", "duplex") => over_duplex(RmcpServer::new()).await,
            ("toolbox", _) => over_http(toolbox_server().streamable_http(http_config())).await,
            _ => {
                let theirs: StreamableHttpService<RmcpServer, LocalSessionManager> =
                    StreamableHttpService::new(
                        || Ok(RmcpServer::new()),
                        Default::default(),
                        http_config(),
                    );
                over_http(theirs).await
            }
        };
        for _ in 0..calls {
            one_call(&client).await;
        }
    });
}

fn main() {
    common::main_or_count("MCP_BENCH_COUNT", count, benches);
}
