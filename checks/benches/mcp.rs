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
//!
//! - `mcp_task/duplex`: the same call run as a task (MCP's tasks
//!   extension, the server's in-memory store) — `tools/call` answered
//!   with the task, then `tasks/get` until it is completed — against the
//!   plain call of the same server and client.

mod common;

use std::future::Future;

use criterion::{Criterion, criterion_group};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, GetTaskParams,
    ServerCapabilities, ServerConfig, TaskPayload,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde_json::json;
use toolresult::mcp::McpServer;
use toolresult::tool::{self as tools, TaskSupport, ToolSafety};
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

/// A server of `add` (answered in its request) and `add_task` (the same,
/// run as a task for a client that takes tasks).
fn task_server() -> McpServer {
    let mut toolbox = Toolbox::new();
    for (name, task) in [
        ("add", TaskSupport::Forbidden),
        ("add_task", TaskSupport::Optional),
    ] {
        toolbox
            .register(
                tools::function(name, "Add two integers", |x: Add| (x.a + x.b).to_string())
                    .expect("a tool")
                    .with_safety(ToolSafety::ReadOnly)
                    .with_task_support(task),
            )
            .expect("registered");
    }
    McpServer::new(toolbox).expect("a server")
}

/// A client that takes tasks.
#[derive(Clone)]
struct TasksClient;

impl rmcp::ClientHandler for TasksClient {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.capabilities = ClientCapabilities::builder().enable_tasks().build();
        info
    }
}

type TaskClient = RunningService<RoleClient, TasksClient>;

async fn task_client() -> TaskClient {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = task_server().session().serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    TasksClient.serve(client_end).await.expect("connected")
}

/// `add` of 2 and 40 as a task: started, then read until completed.
async fn one_task(client: &TaskClient) {
    let mut call = add_call();
    call.name = "add_task".into();
    let Ok(CallToolResponse::Task(created)) = client.call_tool_once(call).await else {
        panic!("not a task")
    };
    loop {
        // As a client waits its poll interval between reads (here a
        // millisecond, not the task's second).
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        let got = client
            .get_task(GetTaskParams::new(created.task.task_id.clone()))
            .await
            .expect("read");
        if let TaskPayload::Completed { result } = &got.task.payload {
            assert_eq!(result["content"][0]["text"], "42");
            return;
        }
    }
}

/// The plain `add` of the same server and client.
async fn one_plain(client: &TaskClient) {
    let answer = client.call_tool(add_call()).await.expect("answered");
    assert_eq!(
        answer.content[0].as_text().map(|t| t.text.as_str()),
        Some("42")
    );
}

fn task(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let client = runtime.block_on(task_client());
    let mut group = c.benchmark_group("mcp_task/duplex");
    group.bench_function("task", |b| {
        b.iter(|| runtime.block_on(one_task(&client)));
    });
    group.bench_function("plain", |b| {
        b.iter(|| runtime.block_on(one_plain(&client)));
    });
    group.finish();
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

criterion_group!(benches, duplex, http, task);

/// `MCP_BENCH_COUNT=<calls>:<toolbox|rmcp|task|plain>:<duplex|http>` makes that many
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
        // A task and the plain call of the same task server, over a duplex.
        if let "task" | "plain" = server {
            let client = task_client().await;
            for _ in 0..calls {
                if server == "task" {
                    one_task(&client).await;
                } else {
                    one_plain(&client).await;
                }
            }
            return;
        }
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
