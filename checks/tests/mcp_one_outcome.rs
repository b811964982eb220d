//! One outcome, one answer: each kind of outcome of a call (a success with
//! and without `structuredContent`, a success whose `structuredContent`
//! its budget withheld, an error, an unknown tool, a cancelled call) is
//! written with the same bytes on every MCP path: `Mcp::render`,
//! `Mcp::reply`, rmcp's `IntoCallToolResult`, and the server's answer to
//! `tools/call` read by rmcp's client over an in-memory pipe. The expected
//! bytes are written out here, by hand.

use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResponse, CallToolResult,
    CancelledNotificationParam, ClientRequest, ServerResult,
};
use rmcp::service::{PeerRequestOptions, RoleClient, RunningService};
use rmcp::{ServiceExt, model::JsonObject};
use serde_json::{Value, json};
use tokio::sync::Notify;
use toolresult::budget::{Artifact, ArtifactError, ArtifactId, ArtifactStore, Budget};
use toolresult::mcp::McpServer;
use toolresult::provider::{Call, Mcp, PartPolicy, Provider, ToolCall};
use toolresult::tool::{self, Arguments, CallContext};
use toolresult::toolbox::{CallOutcome, Toolbox, Turn};
use toolresult::{Failure, ToolError, ToolResult};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Weather {
    celsius: f64,
}

/// A page whose schema wants at least 40 lines: a budget of 64 bytes can
/// only cut it past its schema.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Page {
    #[schemars(length(min = 40))]
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
                    lines: (0..40).collect(),
                })
            })
            .unwrap(),
        )
        .unwrap()
        .budget(Budget::new().output_bytes(64));
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
            tool::async_function(
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
const PAGE: &str = r#"{"content":[{"type":"text","text":"{\"lines\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19]}"},{"type":"text","text":"[… output elided to fit the budget: 20 array items left out; read the whole with read_artifact {\"artifact\":\"art_1\",\"offset\":0}] structuredContent is withheld: the value cut to fit no longer matches the output schema."},{"type":"resource_link","uri":"artifact://art_1","name":"output.json","mimeType":"application/json"}],"isError":true}"#;
const FAIL: &str = r#"{"content":[{"type":"text","text":"{\"error\":{\"message\":\"no such city\"}}"}],"isError":true}"#;
const UNKNOWN: &str = r#"{"content":[{"type":"text","text":"{\"error\":{\"message\":\"there is no tool named `nope`\",\"suggestion\":\"call one of: `fail`, `hang`, `page`, `sunny`, `weather`\"}}"}],"isError":true}"#;
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

/// rmcp's result as JSON text, without the newer protocol's
/// `resultType` (absent means `complete`, as the 2025 revisions write it).
fn rmcp_json(mut answer: CallToolResult) -> String {
    if let Some(kind) = answer.result_type.take() {
        assert_eq!(serde_json::to_value(kind).unwrap(), json!("complete"));
    }
    serde_json::to_string(&answer).unwrap()
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
        let answer = (ToolCall::new(&outcome.call.id, name), &outcome.lowered);
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
async fn the_served_answers_are_the_expected_bytes() {
    let started = Arc::new(Notify::new());
    let server = McpServer::new(toolbox(Arc::clone(&started))).unwrap();
    let client = serve(server).await;
    let answered = async {
        for (name, expected) in EXPECTED {
            let params =
                CallToolRequestParams::new(name.to_owned()).with_arguments(JsonObject::new());
            let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
            let handle = client
                .send_cancellable_request(request, PeerRequestOptions::no_options())
                .await
                .unwrap();
            if name == "hang" {
                started.notified().await;
                client
                    .notify_cancelled(CancelledNotificationParam::new(
                        Some(handle.id.clone()),
                        None,
                    ))
                    .await
                    .unwrap();
            }
            let ServerResult::CallToolResult(answer) = handle.await_response().await.unwrap()
            else {
                panic!("{name}: not a tool result");
            };
            assert_eq!(rmcp_json(answer), expected, "served: {name}");
        }
    };
    tokio::time::timeout(Duration::from_secs(20), answered)
        .await
        .expect("every call answered in time");
    let _ = client.cancel().await;
}

#[test]
fn the_expected_bytes_are_json() {
    for (name, expected) in EXPECTED {
        assert!(serde_json::from_str::<Value>(expected).is_ok(), "{name}");
    }
}
