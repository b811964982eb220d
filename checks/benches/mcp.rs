//! One trivial `tools/call`, served by a toolbox (`McpServer`) and by
//! rmcp's own `#[tool_router]` server, the same rmcp client driving both:
//!
//! - `duplex`: over an in-memory byte stream, as stdio carries it (one
//!   JSON-RPC message a line);
//! - `http`: over streamable HTTP on 127.0.0.1 (hyper), a session each;
//! - `http_stateless`: over streamable HTTP at MCP 2026-07-28, each
//!   request alone (rmcp's stateless mode on both servers: no sessions,
//!   JSON replies);
//! - `input_required`: the toolbox alone, stateless: one plain call
//!   against a call that parks (an input-required result with its sealed
//!   state) and is sent again with the client's input response and the
//!   state, then answered;
//! - `mcp_task/duplex`: the same call run as a task (MCP's tasks
//!   extension, the server's in-memory store): `tools/call` answered
//!   with the task, then `tasks/get` until it is completed, against the
//!   plain call of the same server and client.
//!
//! The tool adds two integers and answers with the sum as text. The
//! client's call is timed from the request to its answer, the client set
//! up once outside the loop.

mod common;
#[path = "common/mcp_servers.rs"]
mod mcp_servers;

use std::future::Future;

use criterion::{Criterion, criterion_group};
use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, GetTaskParams,
    InputResponses, TaskPayload,
};
use rmcp::service::{RoleClient, RunningService};
use serde_json::json;
use toolresult::mcp::McpServer;
use toolresult::tool::{self as tools, TaskSupport, ToolSafety};
use toolresult::toolbox::Toolbox;

use mcp_servers::{
    Add, CONFIRM, Client, Mode, RmcpServer, add_call, connect, http_config, input_required_server,
    object, one_call, over_duplex, rmcp_http, serve_http, toolbox_server,
};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

fn bench_pair<F, G>(c: &mut Criterion, group: &str, ours: F, rmcp: G)
where
    F: Future<Output = Client>,
    G: Future<Output = Client>,
{
    let runtime = runtime();
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

/// A client of `mode` of the toolbox's server, or of rmcp's.
async fn over_http(toolbox: bool, mode: Mode) -> Client {
    let address = if toolbox {
        serve_http(toolbox_server().streamable_http(http_config(mode))).await
    } else {
        serve_http(rmcp_http(mode)).await
    };
    connect(address, mode).await
}

fn http(c: &mut Criterion) {
    bench_pair(
        c,
        "mcp_call/http",
        over_http(true, Mode::Sessions),
        over_http(false, Mode::Sessions),
    );
}

fn http_stateless(c: &mut Criterion) {
    bench_pair(
        c,
        "mcp_call/http_stateless",
        over_http(true, Mode::Stateless),
        over_http(false, Mode::Stateless),
    );
}

/// A stateless client of the server with input-required results.
async fn input_required_client() -> Client {
    let server = input_required_server();
    let address = serve_http(server.streamable_http(http_config(Mode::Stateless))).await;
    connect(address, Mode::Stateless).await
}

fn confirm_call() -> CallToolRequestParams {
    CallToolRequestParams::new("confirm").with_arguments(object(json!({"a": 2, "b": 40})))
}

/// A call of `confirm`: parked with an input-required result, sent again
/// with the answer and the sealed state, answered.
async fn round_trip(client: &Client) {
    let CallToolResponse::InputRequired(parked) = client
        .call_tool_once(confirm_call())
        .await
        .expect("answered")
    else {
        panic!("confirm did not ask");
    };
    let mut again = confirm_call();
    again.input_responses = Some(InputResponses::from_iter([(
        CONFIRM.to_owned(),
        json!({"action": "accept", "content": {"ok": true}}),
    )]));
    again.request_state = parked.request_state;
    let CallToolResponse::Complete(answer) = client.call_tool_once(again).await.expect("answered")
    else {
        panic!("confirm asked again");
    };
    assert_eq!(
        answer.content[0].as_text().map(|t| t.text.as_str()),
        Some("42")
    );
}

fn input_required(c: &mut Criterion) {
    let runtime = runtime();
    let client = runtime.block_on(input_required_client());
    let mut group = c.benchmark_group("mcp_call/input_required");
    group.bench_function("plain_call", |b| {
        b.iter(|| runtime.block_on(one_call(&client)));
    });
    group.bench_function("round_trip", |b| {
        b.iter(|| runtime.block_on(round_trip(&client)));
    });
    group.finish();
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
    let runtime = runtime();
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

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = duplex, http, http_stateless, input_required, task
}

/// `MCP_BENCH_COUNT=<calls>:<toolbox|rmcp|task|plain>:<duplex|http|stateless|input_required>`
/// makes that many calls of one server and exits, for counting
/// instructions with `valgrind --tool=callgrind` (two counts apart, the
/// set-up cancels out). `input_required` is the toolbox's server with
/// input-required results: `toolbox:input_required` makes round trips,
/// `rmcp:input_required` plain calls of the same server; `task` and `plain`
/// are a task and the plain call of the task server, over a duplex.
fn count(spec: &str) {
    let mut parts = spec.split(':');
    let calls: usize = parts.next().and_then(|n| n.parse().ok()).expect("a count");
    let server = parts.next().unwrap_or("toolbox");
    let toolbox = server == "toolbox";
    let wire = parts.next().unwrap_or("duplex");
    runtime().block_on(async {
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
        let client = match wire {
            "duplex" if toolbox => over_duplex(toolbox_server().session()).await,
            "duplex" => over_duplex(RmcpServer::new()).await,
            "http" => over_http(toolbox, Mode::Sessions).await,
            "stateless" => over_http(toolbox, Mode::Stateless).await,
            _ => input_required_client().await,
        };
        for _ in 0..calls {
            if wire == "input_required" && toolbox {
                round_trip(&client).await;
            } else {
                one_call(&client).await;
            }
        }
    });
}

fn main() {
    common::main_or_count("MCP_BENCH_COUNT", count, benches);
}
