//! One outcome, one answer: each kind of outcome of a call (a success with
//! and without `structuredContent`, a success whose `structuredContent`
//! its budget withheld, an error, an unknown tool, a cancelled call) is
//! written with the same bytes on every MCP path: `Mcp::render`,
//! `Mcp::reply`, rmcp's `IntoCallToolResult`, and the server's answer to
//! `tools/call` over an in-memory pipe, read by rmcp's client and as the
//! bytes the server wrote. The expected bytes are written out here, by
//! hand. rmcp's `CallToolResult` adds the 2026-07-28 revision's
//! `"resultType":"complete"`, which rmcp's server keeps for a 2026-07-28
//! request and strips for a peer of an older revision.

use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, JsonObject, ResultType,
};
use rmcp::service::{RoleClient, RunningService};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tokio::sync::Notify;
use toolresult::budget::{Artifact, ArtifactError, ArtifactId, ArtifactStore, Budget};
use toolresult::mcp::McpServer;
use toolresult::provider::{Call, CallRef, Mcp, PartPolicy, Provider};
use toolresult::tool::{self, Arguments, CallContext};
use toolresult::toolbox::{CallOutcome, Toolbox, Turn};
use toolresult::{Failure, ToolError, ToolResult};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Weather {
    celsius: f64,
}

/// A page whose schema wants at least 400 lines: a budget of 512 bytes can
/// only cut it past its schema.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Page {
    #[schemars(length(min = 400))]
    lines: Vec<u32>,
}

/// Keeps nothing, under one id: the budget's notice is the same each run.
#[derive(Debug)]
struct OneId;

impl ArtifactStore for OneId {
    fn put(&self, _: Artifact) -> Result<ArtifactId, ArtifactError> {
        ArtifactId::from_url_or_id("art_1")
    }

    fn get(&self, _: &ArtifactId) -> Result<Option<Artifact>, ArtifactError> {
        Ok(None)
    }
}

/// The tools of every outcome; `hang` waits until its call is cancelled,
/// saying when it started.
fn toolbox(started: Arc<Notify>) -> Toolbox {
    let mut toolbox = Toolbox::new().artifacts(OneId);
    toolbox
        .register(tool::function("sunny", "A text success", |_: NoArgs| "sunny").unwrap())
        .unwrap();
    toolbox
        .register(
            tool::function("weather", "A structured success", |_: NoArgs| {
                ToolResult::<Weather>::ok(Weather { celsius: -3.5 })
            })
            .unwrap(),
        )
        .unwrap();
    toolbox
        .register(
            tool::function("page", "A success cut past its schema", |_: NoArgs| {
                ToolResult::<Page>::ok(Page {
                    lines: (0..400).collect(),
                })
            })
            .unwrap(),
        )
        .unwrap()
        .budget(Budget::new().output_bytes(512));
    toolbox
        .register(
            tool::function("fail", "An error", |_: NoArgs| {
                ToolResult::<()>::fail(Failure::new(ToolError::new("no such city")).permanent())
            })
            .unwrap(),
        )
        .unwrap();
    toolbox
        .register(
            tool::function(
                "hang",
                "Runs until cancelled",
                move |_: NoArgs, cx: CallContext<'static>| {
                    let started = Arc::clone(&started);
                    async move {
                        started.notify_one();
                        cx.cancelled().await;
                        "never"
                    }
                },
            )
            .unwrap(),
        )
        .unwrap();
    toolbox
}

const SUNNY: &str = r#"{"content":[{"type":"text","text":"sunny"}],"isError":false}"#;
const WEATHER: &str = r#"{"content":[{"type":"text","text":"{\"celsius\":-3.5}"}],"structuredContent":{"celsius":-3.5},"isError":false}"#;
const PAGE: &str = r#"{"content":[{"type":"text","text":"{\"lines\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,128,129,130,131,132,133,134,135,136,137,138,139,140,141,142,143,144,145,146,147,148,149,150,151]}"},{"type":"resource_link","uri":"artifact://art_1","name":"output.json","mimeType":"application/json"},{"type":"text","text":"[… output elided to fit the budget: 248 array items left out; read the whole with read_artifact {\"artifact\":\"art_1\",\"offset\":0}] structuredContent is withheld: the value cut to fit no longer matches the output schema."}],"isError":true}"#;
const FAIL: &str = r#"{"content":[{"type":"text","text":"{\"error\":{\"message\":\"no such city\"}}"}],"isError":true}"#;
const UNKNOWN: &str = r#"{"content":[{"type":"text","text":"{\"error\":{\"message\":\"there is no tool named `nope`\",\"suggestion\":\"call one of: `sunny`, `weather`, `page`, `fail`, `hang`\"}}"}],"isError":true}"#;
const CANCELLED: &str = r#"{"content":[{"type":"text","text":"{\"error\":{\"message\":\"the call was cancelled before it finished\"}}"}],"isError":true}"#;

/// Every outcome's call, and the bytes MCP answers it with.
const EXPECTED: [(&str, &str); 6] = [
    ("sunny", SUNNY),
    ("weather", WEATHER),
    ("page", PAGE),
    ("fail", FAIL),
    ("nope", UNKNOWN),
    ("hang", CANCELLED),
];

fn call(name: &str) -> Call {
    Call::new(format!("id-{name}"), name, Arguments::Json(json!({})))
}

/// The outcome of each call, run in process; `hang` cancelled once it
/// started.
async fn outcomes() -> Vec<CallOutcome> {
    let started = Arc::new(Notify::new());
    let toolbox = toolbox(Arc::clone(&started));
    let mut outcomes = Vec::new();
    for (name, _) in EXPECTED {
        let cancellation = tokio_util::sync::CancellationToken::new();
        let turn = Turn::new([call(name)]).with_cancellation(cancellation.clone());
        let running = toolbox.run(turn);
        let cancel = async {
            if name == "hang" {
                started.notified().await;
                cancellation.cancel();
            }
        };
        let (mut done, ()) = tokio::join!(running, cancel);
        outcomes.push(done.remove(0));
    }
    outcomes
}

/// The result a crate's conversion to rmcp built, as JSON text without
/// its `resultType`, which must be `complete`.
fn rmcp_json(mut answer: CallToolResult) -> String {
    assert_eq!(answer.result_type.take(), Some(ResultType::COMPLETE));
    serde_json::to_string(&answer).unwrap()
}

/// The bytes of a 2026-07-28 answer: `expected` with `resultType` first,
/// where rmcp writes it.
fn with_result_type(expected: &str) -> String {
    let fields = expected.strip_prefix('{').expect("a JSON object");
    format!(r#"{{"resultType":"complete",{fields}"#)
}

fn complete(response: CallToolResponse) -> CallToolResult {
    match response {
        CallToolResponse::Complete(answer) => answer,
        other => panic!("not a complete answer: {other:?}"),
    }
}

#[tokio::test]
async fn every_in_process_path_writes_the_expected_bytes() {
    let outcomes = outcomes().await;
    let replied: Vec<String> = Mcp::reply(&outcomes, PartPolicy::Strict)
        .unwrap()
        .iter()
        .map(|answer| serde_json::to_string(answer).unwrap())
        .collect();
    for ((name, expected), outcome) in EXPECTED.into_iter().zip(outcomes) {
        let answer = (CallRef::new(&outcome.call.id, name), &outcome.lowered);
        let rendered = Mcp::render(&answer, PartPolicy::Strict).unwrap();
        assert_eq!(
            serde_json::to_string(&rendered).unwrap(),
            expected,
            "render: {name}"
        );
        let index = EXPECTED.iter().position(|(n, _)| *n == name).unwrap();
        assert_eq!(replied[index], expected, "reply: {name}");
        let converted = complete(outcome.lowered.into_call_tool_result().unwrap());
        assert_eq!(rmcp_json(converted), expected, "IntoCallToolResult: {name}");
    }
}

#[tokio::test]
async fn a_typed_result_converts_to_the_same_bytes() {
    let weather = complete(
        ToolResult::<Weather>::ok(Weather { celsius: -3.5 })
            .into_call_tool_result()
            .unwrap(),
    );
    assert_eq!(rmcp_json(weather), WEATHER);
    let failed = complete(
        ToolResult::<()>::fail(Failure::new(ToolError::new("no such city")))
            .into_call_tool_result()
            .unwrap(),
    );
    assert_eq!(rmcp_json(failed), FAIL);
}

/// The result rmcp's client read, as JSON text without its `resultType`,
/// which is `complete` when there is one (absent means `complete`).
fn read_json(mut answer: CallToolResult) -> String {
    if let Some(kind) = answer.result_type.take() {
        assert_eq!(kind, ResultType::COMPLETE);
    }
    serde_json::to_string(&answer).unwrap()
}

/// A client of the server, over an in-memory pipe.
async fn serve(server: McpServer) -> RunningService<RoleClient, ()> {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let session = server.session();
    tokio::spawn(async move {
        if let Ok(running) = session.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_end).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcp_s_client_reads_the_expected_bytes() {
    let server = McpServer::new(toolbox(Arc::new(Notify::new()))).unwrap();
    let client = serve(server).await;
    // A call cancelled by rmcp's client is never awaited by it: the
    // cancelled answer is read off the wire below.
    for (name, expected) in EXPECTED.into_iter().filter(|(name, _)| *name != "hang") {
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(JsonObject::new());
        let answer = tokio::time::timeout(Duration::from_secs(20), client.call_tool(params))
            .await
            .expect("answered in time")
            .unwrap();
        assert_eq!(read_json(answer), expected, "served: {name}");
    }
    let _ = client.cancel().await;
}

/// The lines a server's session writes.
type ServerLines = Lines<BufReader<ReadHalf<DuplexStream>>>;

/// The `result` of the JSON-RPC response `id`, the next response among
/// the server's lines, as the bytes it wrote.
async fn result_of(lines: &mut ServerLines, id: u64) -> String {
    #[derive(serde::Deserialize)]
    struct Response {
        id: Option<Value>,
        result: Option<Box<RawValue>>,
    }
    while let Some(line) = lines.next_line().await.unwrap() {
        let response: Response = serde_json::from_str(&line).unwrap();
        match response.id {
            None => continue,
            Some(answered) => {
                assert_eq!(answered, json!(id), "the next response: {line}");
                return response.result.expect("a result").get().to_owned();
            }
        }
    }
    panic!("no response {id}");
}

/// A session of the server over an in-memory pipe, as the lines it writes
/// and the pipe's end to write requests into.
fn raw_session(server: &McpServer) -> (ServerLines, WriteHalf<DuplexStream>) {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let session = server.session();
    tokio::spawn(async move {
        if let Ok(running) = session.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let (read, write) = tokio::io::split(client_end);
    (BufReader::new(read).lines(), write)
}

/// A 2025-11-25 client, the newest revision without `resultType`: the
/// expected bytes as they are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_writes_the_expected_bytes_to_a_2025_client() {
    let started = Arc::new(Notify::new());
    let server = McpServer::new(toolbox(Arc::clone(&started))).unwrap();
    let (mut lines, mut write) = raw_session(&server);
    let answered = async {
        write
            .write_all(concat!(
                r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "\n"
            ).as_bytes())
            .await
            .unwrap();
        result_of(&mut lines, 0).await;
        for (id, (name, expected)) in (1..).zip(EXPECTED) {
            let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": {}}});
            write
                .write_all(format!("{request}\n").as_bytes())
                .await
                .unwrap();
            if name == "hang" {
                // MCP: a request the client cancelled gets no response
                // (rmcp drops the cancelled answer the session wrote); the
                // next response is the ping's.
                started.notified().await;
                let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}});
                let ping = json!({"jsonrpc": "2.0", "id": 1000, "method": "ping"});
                write
                    .write_all(format!("{cancel}\n{ping}\n").as_bytes())
                    .await
                    .unwrap();
                assert_eq!(result_of(&mut lines, 1000).await, "{}", "{name}");
                assert_eq!(expected, CANCELLED);
                continue;
            }
            let answer = result_of(&mut lines, id).await;
            assert!(!answer.contains("resultType"), "{name}: {answer}");
            assert_eq!(answer, expected, "served: {name}");
        }
    };
    tokio::time::timeout(Duration::from_secs(20), answered)
        .await
        .expect("every call answered in time");
}

/// A 2026-07-28 request (its revision and capabilities in `_meta`, no
/// `initialize`): the expected bytes with `"resultType":"complete"`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_writes_result_type_for_a_2026_request() {
    let server = McpServer::new(toolbox(Arc::new(Notify::new()))).unwrap();
    let (mut lines, mut write) = raw_session(&server);
    let answered = async {
        // The cancelled call's bytes are the in-process paths' to check:
        // a cancelled request gets no response.
        for (id, (name, expected)) in (1..).zip(EXPECTED).filter(|(_, (name, _))| *name != "hang") {
            let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": name,
                "arguments": {},
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": {},
                },
            }});
            write
                .write_all(format!("{request}\n").as_bytes())
                .await
                .unwrap();
            assert_eq!(
                result_of(&mut lines, id).await,
                with_result_type(expected),
                "served: {name}"
            );
        }
    };
    tokio::time::timeout(Duration::from_secs(20), answered)
        .await
        .expect("every call answered in time");
}

#[test]
fn the_expected_bytes_are_json() {
    for (name, expected) in EXPECTED {
        assert!(serde_json::from_str::<Value>(expected).is_ok(), "{name}");
    }
}
