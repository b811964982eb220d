//! A toolbox served over MCP (`toolresult::mcp::McpServer`), driven by an
//! rmcp client over an in-memory duplex transport and over streamable HTTP
//! on 127.0.0.1: listing, calling, progress, cancellation, logging levels,
//! elicitation, and bad input.
#![allow(deprecated)] // MCP's logging utility (SEP-2577) is still the 2025 revisions'.

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientCapabilities, ClientConfig, ClientRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, ErrorCode, Implementation, LoggingLevel,
    LoggingMessageNotificationParam, PaginatedRequestParams, ProgressNotificationParam,
    ServerResult, SetLevelRequestParams,
};
use rmcp::service::{
    NotificationContext, PeerRequestOptions, RequestContext, RoleClient, RunningService,
    ServiceError,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::{ClientHandler, ErrorData, ServiceExt};
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;
use toolresult::ToolResult;
use toolresult::canonical::{PartLimit, Request};
use toolresult::mcp::McpServer;
use toolresult::provider::Mcp;
use toolresult::tool::{self, CallContext, LogLevel, TaskSupport, ToolSafety};
use toolresult::toolbox::Toolbox;

const LIMIT: Duration = Duration::from_secs(20);

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    city: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Weather {
    celsius: f64,
}

/// What the `wait` tool saw: that it started, and that its call was
/// cancelled.
#[derive(Clone, Default)]
struct Waiting {
    started: Arc<tokio::sync::Notify>,
    cancelled: Arc<AtomicBool>,
    calls: Arc<AtomicU32>,
}

/// Records, when the `wait` tool's call stops, whether it was cancelled.
struct Stopped(CancellationToken, Arc<AtomicBool>);

impl Drop for Stopped {
    fn drop(&mut self) {
        self.1.store(self.0.is_cancelled(), Ordering::SeqCst);
    }
}

fn server(waiting: &Waiting) -> McpServer {
    server_where(waiting, TaskSupport::Forbidden)
}

/// [`server`], its `wait` tool running as a task as `wait_task` says.
fn server_where(waiting: &Waiting, wait_task: TaskSupport) -> McpServer {
    let mut toolbox = Toolbox::new()
        .timeout(Duration::from_secs(10))
        .with_value(waiting.clone());
    toolbox
        .register(
            tool::function("add", "Add two integers", |x: Add| (x.a + x.b).to_string())
                .unwrap()
                .with_safety(ToolSafety::ReadOnly),
        )
        .unwrap();
    toolbox
        .register(
            tool::function("weather", "Weather in a city", |c: City| {
                ToolResult::<Weather>::ok(Weather {
                    celsius: if c.city == "Oslo" { -3.5 } else { 20.0 },
                })
            })
            .unwrap(),
        )
        .unwrap();
    toolbox
        .register(
            tool::function(
                "count",
                "Count to three",
                |_: NoArgs, cx: CallContext<'static>| async move {
                    for (done, message) in
                        [(1.0, "one"), (2.0, "two"), (1.5, "back"), (3.0, "three")]
                    {
                        cx.progress(done, Some(3.0), Some(message));
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                    "counted"
                },
            )
            .unwrap(),
        )
        .unwrap();
    toolbox
        .register(
            tool::function(
                "wait",
                "Wait until cancelled",
                |_: NoArgs, cx: CallContext<'static>| async move {
                    let Some(waiting) = cx.get::<Waiting>().cloned() else {
                        return "no state";
                    };
                    waiting.calls.fetch_add(1, Ordering::SeqCst);
                    // Dropped when the call stops: whether it was cancelled.
                    let _stopped = Stopped(cx.cancellation_token(), Arc::clone(&waiting.cancelled));
                    waiting.started.notify_one();
                    tokio::select! {
                        () = cx.cancelled() => "stopped",
                        () = tokio::time::sleep(Duration::from_secs(30)) => "finished",
                    }
                },
            )
            .unwrap()
            .with_task_support(wait_task),
        )
        .unwrap();
    toolbox
        .register(
            tool::function(
                "chatty",
                "Log at four levels",
                |_: NoArgs, cx: &CallContext| {
                    cx.log(LogLevel::Debug, "a debug line");
                    cx.log(LogLevel::Info, "an info line");
                    cx.log(LogLevel::Warning, "a warning line");
                    cx.log(LogLevel::Error, "an error line");
                    "logged"
                },
            )
            .unwrap(),
        )
        .unwrap();
    toolbox
        .register(
            tool::function(
                "greet",
                "Greet the user by name",
                |_: NoArgs, cx: &CallContext| match cx.answer() {
                    Some(answer) if answer.ok => {
                        let name = answer
                            .data
                            .as_ref()
                            .and_then(|d| d.get("name"))
                            .and_then(Value::as_str);
                        ToolResult::<String>::ok(format!("hello, {}", name.unwrap_or("stranger")))
                    }
                    Some(answer) => ToolResult::ok(format!(
                        "no name: {}",
                        answer.reason.as_deref().unwrap_or("none")
                    )),
                    None => {
                        let schema = json!({
                            "type": "object",
                            "properties": {"name": {"type": "string", "description": "Your name"}},
                            "required": ["name"],
                        });
                        ToolResult::pending(
                            Request::input("What is your name?")
                                .with_id("ask-name")
                                .with_data(Map::from_iter([(
                                    McpServer::REQUESTED_SCHEMA.to_owned(),
                                    schema,
                                )])),
                        )
                    }
                },
            )
            .unwrap(),
        )
        .unwrap();
    McpServer::new(toolbox)
        .unwrap()
        .with_info("test-server", "0.0.1")
}

/// What the client saw, and how it answers an elicitation (`None`: it
/// does not declare the capability).
#[derive(Clone, Default)]
struct Client {
    elicit: Option<ElicitationAction>,
    /// Never answers an elicitation; records when the server withdraws it.
    silent: bool,
    withdrawn: Arc<AtomicBool>,
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
    logs: Arc<Mutex<Vec<LoggingMessageNotificationParam>>>,
    asked: Arc<Mutex<Vec<ElicitRequestParams>>>,
}

impl Client {
    fn answering(action: ElicitationAction) -> Self {
        Self {
            elicit: Some(action),
            ..Self::default()
        }
    }
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.elicit.is_some() {
            capabilities = ClientCapabilities::builder().enable_elicitation().build();
        }
        ClientConfig::new(capabilities, Implementation::new("test-client", "0.0.1"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.lock().unwrap().push(request);
        if self.silent {
            context.ct.cancelled().await;
            self.withdrawn.store(true, Ordering::SeqCst);
            return Err(ErrorData::internal_error("withdrawn", None));
        }
        Ok(match self.elicit.clone() {
            Some(ElicitationAction::Accept) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"}))
            }
            Some(action) => ElicitResult::new(action),
            None => ElicitResult::new(ElicitationAction::Cancel),
        })
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.logs.lock().unwrap().push(params);
    }
}

#[derive(Debug, Clone, Copy)]
enum Wire {
    Memory,
    Http,
}

const WIRES: [Wire; 2] = [Wire::Memory, Wire::Http];

type Connected = RunningService<RoleClient, Client>;

/// A client connected to a session of `server` over `wire`.
async fn connect(server: &McpServer, client: Client, wire: Wire) -> Connected {
    match wire {
        Wire::Memory => {
            let (server_end, client_end) = tokio::io::duplex(64 * 1024);
            let session = server.session();
            tokio::spawn(async move {
                if let Ok(running) = session.serve(server_end).await {
                    let _ = running.waiting().await;
                }
            });
            client.serve(client_end).await.unwrap()
        }
        Wire::Http => {
            let url = serve_http(server).await;
            client
                .serve(StreamableHttpClientTransport::from_uri(url))
                .await
                .unwrap()
        }
    }
}

/// Serves `server` over streamable HTTP on a free port of 127.0.0.1; its
/// URL.
async fn serve_http(server: &McpServer) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let service =
        server.streamable_http(StreamableHttpServerConfig::default().with_sse_keep_alive(None));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let service = hyper_util::service::TowerToHyperService::new(service.clone());
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service)
                    .await;
            });
        }
    });
    format!("http://{address}/mcp")
}

/// Runs `test` under the time limit: a hang fails it, never blocks.
async fn bounded<F: Future<Output = ()>>(test: F) {
    tokio::time::timeout(LIMIT, test)
        .await
        .expect("the test did not finish in time");
}

fn call(
    name: impl Into<std::borrow::Cow<'static, str>>,
    arguments: Value,
) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object");
    };
    CallToolRequestParams::new(name).with_arguments(arguments)
}

fn text(result: &rmcp::model::CallToolResult) -> String {
    result.content[0].as_text().unwrap().text.clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_declares_every_tool_with_its_schemas_and_annotations() {
    bounded(async {
        for wire in WIRES {
            let server = server(&Waiting::default());
            let client = connect(&server, Client::default(), wire).await;
            let listed = client.list_all_tools().await.unwrap();
            let names: Vec<&str> = listed.iter().map(|tool| &*tool.name).collect();
            assert_eq!(names, ["add", "weather", "count", "wait", "chatty", "greet"], "{wire:?}");
            // rmcp's client reads the schemas into maps of its own key
            // order: compared as JSON values.
            assert_eq!(
                serde_json::to_value(&listed[0]).unwrap(),
                json!({"name":"add","description":"Add two integers","inputSchema":{"type":"object","properties":{"a":{"type":"integer","format":"int64"},"b":{"type":"integer","format":"int64"}},"required":["a","b"]},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true}}),
                "{wire:?}"
            );
            assert_eq!(
                serde_json::to_value(&listed[1]).unwrap()["outputSchema"],
                json!({"type":"object","properties":{"celsius":{"type":"number","format":"double"}},"required":["celsius"]}),
                "{wire:?}"
            );
            client.cancel().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_pages_follow_the_cursor() {
    bounded(async {
        for wire in WIRES {
            let server = server(&Waiting::default()).page_size(4);
            let client = connect(&server, Client::default(), wire).await;
            let first = client.list_tools(None).await.unwrap();
            assert_eq!(first.tools.len(), 4, "{wire:?}");
            assert_eq!(first.next_cursor.as_deref(), Some("4"), "{wire:?}");
            let second = client
                .list_tools(Some(
                    PaginatedRequestParams::default().with_cursor(Some("4".into())),
                ))
                .await
                .unwrap();
            let names: Vec<&str> = second.tools.iter().map(|tool| &*tool.name).collect();
            assert_eq!(
                (names, second.next_cursor),
                (vec!["chatty", "greet"], None),
                "{wire:?}"
            );
            let bad = client
                .list_tools(Some(
                    PaginatedRequestParams::default().with_cursor(Some("99".into())),
                ))
                .await
                .unwrap_err();
            assert_eq!(
                error_code(&bad),
                Some(ErrorCode::INVALID_PARAMS),
                "{wire:?}"
            );
            client.cancel().await.unwrap();
        }
    })
    .await;
}

fn error_code(err: &ServiceError) -> Option<ErrorCode> {
    match err {
        ServiceError::McpError(data) => Some(data.code),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_is_answered_by_the_toolbox_with_structured_content_when_the_success_is_an_object() {
    bounded(async {
        for wire in WIRES {
            let server = server(&Waiting::default());
            let client = connect(&server, Client::default(), wire).await;
            let sum = client.call_tool(call("add", json!({"a": 2, "b": 40}))).await.unwrap();
            assert_eq!(
                serde_json::to_string(&sum).unwrap(),
                r#"{"content":[{"type":"text","text":"42"}],"isError":false}"#,
                "{wire:?}"
            );
            let weather = client.call_tool(call("weather", json!({"city": "Oslo"}))).await.unwrap();
            assert_eq!(
                serde_json::to_string(&weather).unwrap(),
                r#"{"content":[{"type":"text","text":"{\"celsius\":-3.5}"}],"structuredContent":{"celsius":-3.5},"isError":false}"#,
                "{wire:?}"
            );
            client.cancel().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_reaches_the_client_without_the_report_going_back() {
    bounded(async {
        for wire in WIRES {
            let server = server(&Waiting::default());
            let seen = Client::default();
            let client = connect(&server, seen.clone(), wire).await;
            let counted = client.call_tool(call("count", json!({}))).await.unwrap();
            assert_eq!(text(&counted), "counted", "{wire:?}");
            // rmcp's client hands each notification to a task of its own,
            // so its handler may see them in any order, and after the
            // answer: the order on the wire is checked byte for byte in
            // `malformed_json_rpc_gets_an_error_and_the_session_goes_on`.
            eventually(|| seen.progress.lock().unwrap().len() >= 3).await;
            settle().await;
            let mut progress: Vec<(f64, Option<f64>, Option<String>)> = seen
                .progress
                .lock()
                .unwrap()
                .iter()
                .map(|p| (p.progress, p.total, p.message.clone()))
                .collect();
            progress.sort_by(|a, b| a.0.total_cmp(&b.0));
            // The report going back (1.5 after 2) is not sent.
            assert_eq!(
                progress,
                [
                    (1.0, Some(3.0), Some("one".to_owned())),
                    (2.0, Some(3.0), Some("two".to_owned())),
                    (3.0, Some(3.0), Some("three".to_owned())),
                ],
                "{wire:?}"
            );
            client.cancel().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_request_cancels_the_tool_which_stops_and_runs_once() {
    bounded(async {
        for wire in WIRES {
            let waiting = Waiting::default();
            let server = server(&waiting);
            let client = connect(&server, Client::default(), wire).await;
            let request =
                ClientRequest::CallToolRequest(CallToolRequest::new(call("wait", json!({}))));
            let handle = client
                .send_cancellable_request(request, PeerRequestOptions::no_options())
                .await
                .unwrap();
            waiting.started.notified().await;
            handle.cancel(Some("changed my mind".into())).await.unwrap();
            for _ in 0..200 {
                if waiting.cancelled.load(Ordering::SeqCst) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            assert!(
                waiting.cancelled.load(Ordering::SeqCst),
                "{wire:?}: the tool saw the cancellation"
            );
            assert_eq!(
                waiting.calls.load(Ordering::SeqCst),
                1,
                "{wire:?}: no retry after a cancellation"
            );
            // The session goes on serving.
            let sum = client
                .call_tool(call("add", json!({"a": 1, "b": 1})))
                .await
                .unwrap();
            assert_eq!(text(&sum), "2", "{wire:?}");
            client.cancel().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_messages_honour_the_level_the_client_sets() {
    bounded(async {
        for wire in WIRES {
            let server = server(&Waiting::default());
            let seen = Client::default();
            let client = connect(&server, seen.clone(), wire).await;
            // rmcp's client hands each notification to a task of its own:
            // its handler may see them in any order.
            let levels = |seen: &Client| -> Vec<(String, String)> {
                let mut logs = seen.logs.lock().unwrap();
                let mut drained: Vec<(String, String)> = logs
                    .iter()
                    .map(|log| {
                        (
                            serde_json::to_value(log.level)
                                .unwrap()
                                .as_str()
                                .unwrap()
                                .to_owned(),
                            log.data.as_str().unwrap().to_owned(),
                        )
                    })
                    .collect();
                logs.clear();
                drained.sort();
                drained
            };
            // Until the client sets a level: info and up.
            client.call_tool(call("chatty", json!({}))).await.unwrap();
            settle().await;
            assert_eq!(
                levels(&seen),
                [
                    ("error".into(), "an error line".into()),
                    ("info".into(), "an info line".into()),
                    ("warning".into(), "a warning line".into())
                ],
                "{wire:?}"
            );
            client
                .set_level(SetLevelRequestParams::new(LoggingLevel::Debug))
                .await
                .unwrap();
            client.call_tool(call("chatty", json!({}))).await.unwrap();
            settle().await;
            assert_eq!(levels(&seen).len(), 4, "{wire:?}");
            client
                .set_level(SetLevelRequestParams::new(LoggingLevel::Error))
                .await
                .unwrap();
            client.call_tool(call("chatty", json!({}))).await.unwrap();
            settle().await;
            assert_eq!(
                levels(&seen),
                [("error".into(), "an error line".into())],
                "{wire:?}"
            );
            let logger = {
                client.call_tool(call("chatty", json!({}))).await.unwrap();
                settle().await;
                seen.logs.lock().unwrap()[0].logger.clone()
            };
            assert_eq!(logger.as_deref(), Some("chatty"), "{wire:?}");
            client.cancel().await.unwrap();
        }
    })
    .await;
}

/// Waits until `done`, for at most 3 s.
async fn eventually(done: impl Fn() -> bool) {
    for _ in 0..300 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("did not happen in 3 s");
}

/// Log messages over HTTP may ride the session's standalone stream, which
/// is not ordered with the call's answer: give them a moment.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(100)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parked_call_asks_the_client_and_runs_again_with_its_answer() {
    bounded(async {
        for wire in WIRES {
            for (action, expected) in [
                (ElicitationAction::Accept, "hello, Ada"),
                (ElicitationAction::Decline, "no name: decline"),
                (ElicitationAction::Cancel, "no name: cancel"),
            ] {
                let server = server(&Waiting::default());
                let seen = Client::answering(action.clone());
                let client = connect(&server, seen.clone(), wire).await;
                let greeted = client.call_tool(call("greet", json!({}))).await.unwrap();
                assert_eq!(text(&greeted), expected, "{wire:?} {action:?}");
                assert_eq!(greeted.is_error, Some(false), "{wire:?} {action:?}");
                let asked = seen.asked.lock().unwrap().clone();
                assert_eq!(
                    serde_json::to_string(&asked).unwrap(),
                    r#"[{"mode":"form","message":"What is your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","description":"Your name"}},"required":["name"]}}]"#,
                    "{wire:?} {action:?}"
                );
                client.cancel().await.unwrap();
            }
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_answers_gets_the_pending_result_after_the_timeout() {
    bounded(async {
        for wire in WIRES {
            let server =
                server(&Waiting::default()).elicitation_timeout(Duration::from_millis(300));
            let seen = Client {
                silent: true,
                ..Client::answering(ElicitationAction::Accept)
            };
            let client = connect(&server, seen.clone(), wire).await;
            let parked = client.call_tool(call("greet", json!({}))).await.unwrap();
            assert_eq!(seen.asked.lock().unwrap().len(), 1, "{wire:?}");
            let read = Mcp::read_result(serde_json::to_vec(&parked).unwrap(), PartLimit::default())
                .unwrap();
            assert_eq!(read.output, "What is your name?", "{wire:?}");
            // The client was told the question is withdrawn.
            while !seen.withdrawn.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            client.cancel().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_elicitation_gets_the_pending_result() {
    bounded(async {
        for wire in WIRES {
            let server = server(&Waiting::default());
            let seen = Client::default();
            let client = connect(&server, seen.clone(), wire).await;
            let parked = client.call_tool(call("greet", json!({}))).await.unwrap();
            assert!(seen.asked.lock().unwrap().is_empty(), "{wire:?}");
            let read = Mcp::read_result(serde_json::to_vec(&parked).unwrap(), PartLimit::default())
                .unwrap();
            assert_eq!(read.output, "What is your name?", "{wire:?}");
            client.cancel().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_with_an_output_schema_never_succeeds_without_structured_content() {
    // MCP: "If an output schema is provided: Servers MUST provide
    // structured results that conform to this schema."
    #[derive(serde::Serialize, schemars::JsonSchema)]
    struct Inventory {
        counts: std::collections::BTreeMap<String, u32>,
    }
    #[derive(serde::Serialize, schemars::JsonSchema)]
    struct Page {
        #[schemars(length(min = 30))]
        rows: Vec<u64>,
    }
    bounded(async {
        for wire in WIRES {
            let mut toolbox =
                Toolbox::new().budget(toolresult::budget::Budget::new().output_bytes(512));
            toolbox
                .register(
                    tool::function("inventory", "Counts by item", |_: NoArgs| {
                        ToolResult::<Inventory>::ok(Inventory {
                            counts: (0..500).map(|i| (format!("item-{i:04}"), i)).collect(),
                        })
                    })
                    .unwrap(),
                )
                .unwrap();
            toolbox
                .register(
                    tool::function("page", "Thirty wide rows at least", |_: NoArgs| {
                        ToolResult::<Page>::ok(Page {
                            rows: (10_000_000_000_000_000_000..10_000_000_000_000_005_000)
                                .collect(),
                        })
                    })
                    .unwrap(),
                )
                .unwrap();
            let server = McpServer::new(toolbox).unwrap();
            let client = connect(&server, Client::default(), wire).await;
            let listed = client.list_all_tools().await.unwrap();
            assert!(
                listed.iter().all(|tool| tool.output_schema.is_some()),
                "{wire:?}"
            );
            // A map loses entries and still matches its schema.
            let counted = client
                .call_tool(call("inventory", json!({})))
                .await
                .unwrap();
            assert_eq!(counted.is_error, Some(false), "{wire:?}");
            let structured = counted.structured_content.expect("structuredContent");
            let kept = structured["counts"].as_object().unwrap().len();
            assert!(kept > 10 && kept < 500, "{wire:?}: {kept}");
            // Thirty rows of twenty digits cannot fit: no conforming value,
            // so no success; the text says why.
            let paged = client.call_tool(call("page", json!({}))).await.unwrap();
            assert!(paged.structured_content.is_none(), "{wire:?}");
            assert_eq!(paged.is_error, Some(true), "{wire:?}");
            let notice = paged
                .content
                .last()
                .unwrap()
                .as_text()
                .unwrap()
                .text
                .clone();
            assert!(
                notice.contains("structuredContent is withheld"),
                "{wire:?}: {notice}"
            );
            client.cancel().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_authorization_is_never_asked_as_a_form() {
    bounded(async {
        for wire in WIRES {
            let mut toolbox = Toolbox::new();
            toolbox
                .register(
                    tool::function(
                        "connect",
                        "Connect the user's drive",
                        |_: NoArgs, cx: &CallContext| match cx.answer() {
                            Some(answer) => {
                                ToolResult::<String>::ok(format!("granted: {}", answer.ok))
                            }
                            None => ToolResult::pending(
                                Request::authorization("https://auth.example.com/connect")
                                    .with_id("drive"),
                            ),
                        },
                    )
                    .unwrap(),
                )
                .unwrap();
            let server = McpServer::new(toolbox).unwrap();
            // A client that takes forms only: accepting a bare
            // "Authorization required" form would resume the tool as
            // granted, with the link never shown.
            let seen = Client::answering(ElicitationAction::Accept);
            let client = connect(&server, seen.clone(), wire).await;
            let parked = client.call_tool(call("connect", json!({}))).await.unwrap();
            assert!(seen.asked.lock().unwrap().is_empty(), "{wire:?}");
            // The pending result, with the link to follow.
            assert_eq!(
                text(&parked),
                "Authorization required to continue\nhttps://auth.example.com/connect",
                "{wire:?}"
            );
            assert_eq!(parked.is_error, Some(true), "{wire:?}");
            client.cancel().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_an_error_never_a_panic() {
    bounded(async {
        for wire in WIRES {
            let server = server(&Waiting::default());
            let client = connect(&server, Client::default(), wire).await;
            // An unknown tool: the toolbox's own answer, an error result
            // naming the tools there are, as in any turn.
            let unknown = client.call_tool(call("sub", json!({}))).await.unwrap();
            assert_eq!(unknown.is_error, Some(true), "{wire:?}");
            assert!(
                text(&unknown).starts_with(
                    r#"{"error":{"message":"there is no tool named `sub`","suggestion":"call one of: "#
                ),
                "{wire:?}: {}",
                text(&unknown)
            );
            // A long unknown name is cut, as the toolbox cuts it.
            let long = "x".repeat(10_000);
            let unknown = client.call_tool(call(long, json!({}))).await.unwrap();
            assert_eq!(unknown.is_error, Some(true), "{wire:?}");
            assert!(text(&unknown).len() < 1_000, "{wire:?}: {}", text(&unknown));
            assert!(
                text(&unknown).contains(&format!("there is no tool named `{}…`", "x".repeat(64))),
                "{wire:?}: {}",
                text(&unknown)
            );
            // Arguments that do not fit: an error result for the model.
            let wrong = client
                .call_tool(call("add", json!({"a": "two"})))
                .await
                .unwrap();
            assert_eq!(wrong.is_error, Some(true), "{wire:?}");
            assert!(
                text(&wrong).starts_with(r#"{"error":{"message":"invalid arguments"#),
                "{wire:?}: {}",
                text(&wrong)
            );
            // A cancellation of a call that already ended changes nothing.
            let request = ClientRequest::CallToolRequest(CallToolRequest::new(call(
                "add",
                json!({"a": 1, "b": 2}),
            )));
            let handle = client
                .send_cancellable_request(request, PeerRequestOptions::no_options())
                .await
                .unwrap();
            let id = handle.id.clone();
            let ServerResult::CallToolResult(done) = handle.await_response().await.unwrap() else {
                panic!("{wire:?}: not a tool result");
            };
            assert_eq!(text(&done), "3", "{wire:?}");
            client
                .notify_cancelled(rmcp::model::CancelledNotificationParam::new(
                    Some(id),
                    Some("too late".into()),
                ))
                .await
                .unwrap();
            let after = client
                .call_tool(call("add", json!({"a": 2, "b": 2})))
                .await
                .unwrap();
            assert_eq!(text(&after), "4", "{wire:?}");
            client.cancel().await.unwrap();
        }
    })
    .await;
}

/// Raw JSON-RPC lines over the in-memory transport: what no well-behaved
/// client sends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_rpc_gets_an_error_and_the_session_goes_on() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    bounded(async {
        let waiting = Waiting::default();
        let server = server(&waiting);
        let (server_end, client_end) = tokio::io::duplex(64 * 1024);
        let session = server.session();
        tokio::spawn(async move {
            if let Ok(running) = session.serve(server_end).await {
                let _ = running.waiting().await;
            }
        });
        let (read, mut write) = tokio::io::split(client_end);
        let mut lines = BufReader::new(read).lines();
        let mut send = async |line: &str| {
            write.write_all(line.as_bytes()).await.unwrap();
            write.write_all(b"\n").await.unwrap();
        };
        send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#).await;
        let initialized: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(initialized["result"]["serverInfo"]["name"], "test-server");
        send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
        // Arguments that are not an object.
        send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":[1,2]}}"#).await;
        let reply: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(reply, json!({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params for `tools/call`: invalid type: sequence, expected a map"}}));
        // A call without a progress token gets no progress, and its answer.
        send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"count","arguments":{}}}"#).await;
        let reply: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(reply, json!({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"counted"}],"isError":false}}));
        // Progress with a token of the client's own choosing.
        send(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"count","arguments":{},"_meta":{"progressToken":"p-1"}}}"#).await;
        let mut seen = Vec::new();
        loop {
            let line: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
            if line.get("id").is_some() {
                assert_eq!(line["result"]["content"][0]["text"], "counted");
                break;
            }
            seen.push(line);
        }
        assert_eq!(
            seen,
            [(1.0, "one"), (2.0, "two"), (3.0, "three")].map(|(done, message)| json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-1","progress":done,"total":3.0,"message":message}}))
        );
        // A call cancelled while it runs gets no response (the toolbox
        // answers it once, as cancelled; rmcp drops that answer, as MCP
        // requires), and its tool ran once and stopped.
        send(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait","arguments":{}}}"#).await;
        waiting.started.notified().await;
        send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"no longer needed"}}"#).await;
        // Cancelling it again, and cancelling a call that already ended.
        send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#).await;
        send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        send(r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"add","arguments":{"a":4,"b":4}}}"#).await;
        let reply: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(reply["id"], 8, "no response to the cancelled call: {reply}");
        assert_eq!(reply["result"]["content"][0]["text"], "8");
        assert!(waiting.cancelled.load(Ordering::SeqCst));
        assert_eq!(waiting.calls.load(Ordering::SeqCst), 1);
        // Not JSON at all, then a good request: the session still answers.
        send("{this is not json").await;
        send(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","arguments":{"a":5,"b":5}}}"#).await;
        loop {
            let line: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
            if line["id"] == 5 {
                assert_eq!(line["result"]["content"][0]["text"], "10");
                break;
            }
        }
    })
    .await;
}

/// The tools of a server, consumed by a toolbox beside an in-process tool.
mod consume {
    use super::*;
    use toolresult::mcp::McpClient;
    use toolresult::provider::Call;
    use toolresult::tool::{Arguments, CallEvent, Tool as _};
    use toolresult::toolbox::Turn;

    /// A toolbox of `server`'s tools, reached over an in-memory transport,
    /// and an in-process `echo`; the task relaying the connection, to
    /// abort.
    async fn toolbox_of(
        server: &McpServer,
        timeout: Duration,
    ) -> (Toolbox, tokio::task::JoinHandle<()>) {
        // The client and the server talk through a relay; aborting it
        // cuts the connection as a server process that dies would.
        let (server_end, mut relay_server) = tokio::io::duplex(64 * 1024);
        let (mut relay_client, client_end) = tokio::io::duplex(64 * 1024);
        let session = server.session();
        tokio::spawn(async move {
            if let Ok(running) = session.serve(server_end).await {
                let _ = running.waiting().await;
            }
        });
        let relay = tokio::spawn(async move {
            let _ = tokio::io::copy_bidirectional(&mut relay_client, &mut relay_server).await;
        });
        let client = McpClient::connect(client_end).await.unwrap();
        let mut toolbox = Toolbox::new().timeout(timeout);
        for tool in client.tools().await.unwrap() {
            toolbox.register(tool).unwrap();
        }
        toolbox
            .register(tool::function("echo", "Echo", |c: City| c.city).unwrap())
            .unwrap();
        (toolbox, relay)
    }

    fn remote_call(id: &str, name: &str, arguments: Value) -> Call {
        Call::new(id, name, Arguments::Json(arguments))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn remote_and_local_tools_answer_one_turn_side_by_side() {
        bounded(async {
            let (toolbox, _serving) =
                toolbox_of(&server(&Waiting::default()), Duration::from_secs(5)).await;
            let names: Vec<&str> = toolbox.names().collect();
            assert_eq!(
                names,
                ["add", "weather", "count", "wait", "chatty", "greet", "echo"]
            );
            let done = toolbox
                .run([
                    remote_call("c1", "add", json!({"a": 20, "b": 22})),
                    remote_call("c2", "echo", json!({"city": "Oslo"})),
                    remote_call("c3", "weather", json!({"city": "Oslo"})),
                    remote_call("c4", "add", json!({"a": "x"})),
                ])
                .await;
            assert_eq!(done[0].lowered.result.output, "42");
            assert_eq!(done[1].lowered.result.output, "Oslo");
            assert_eq!(done[2].lowered.result.output, r#"{"celsius":-3.5}"#);
            assert_eq!(
                done[2].lowered.structured_content().map(|raw| raw.get()),
                Some(r#"{"celsius":-3.5}"#)
            );
            assert!(done[3].lowered.result.is_error);
            assert!(
                done[3]
                    .lowered
                    .result
                    .output
                    .starts_with(r#"{"error":{"message":"invalid arguments"#)
            );
        })
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_server_over_streamable_http_is_consumed_alike() {
        bounded(async {
            let url = serve_http(&server(&Waiting::default())).await;
            let client = McpClient::connect(StreamableHttpClientTransport::from_uri(url))
                .await
                .unwrap();
            let mut toolbox = Toolbox::new();
            for tool in client.tools().await.unwrap() {
                toolbox.register(tool).unwrap();
            }
            let seen = Arc::new(Mutex::new(Vec::new()));
            let sink = Arc::clone(&seen);
            let turn = Turn::new([
                remote_call("c1", "weather", json!({"city": "Oslo"})),
                remote_call("c2", "count", json!({})),
            ])
            .with_observer(move |event: &CallEvent<'_>| {
                if let CallEvent::Progress { done, .. } = *event {
                    sink.lock().unwrap().push(done);
                }
            });
            let done = toolbox.run(turn).await;
            assert_eq!(
                done[0].lowered.structured_content().map(|raw| raw.get()),
                Some(r#"{"celsius":-3.5}"#)
            );
            assert_eq!(done[1].lowered.result.output, "counted");
            let seen = seen.lock().unwrap().clone();
            assert!(seen.windows(2).all(|pair| pair[0] < pair[1]), "{seen:?}");
            assert!(!seen.is_empty(), "{seen:?}");
        })
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_servers_progress_reaches_the_calls_observer() {
        bounded(async {
            let (toolbox, _serving) =
                toolbox_of(&server(&Waiting::default()), Duration::from_secs(5)).await;
            let seen = Arc::new(Mutex::new(Vec::new()));
            let sink = Arc::clone(&seen);
            let turn = Turn::new([remote_call("c1", "count", json!({}))]).with_observer(
                move |event: &CallEvent<'_>| {
                    if let CallEvent::Progress { done, .. } = *event {
                        sink.lock().unwrap().push(done);
                    }
                },
            );
            let done = toolbox.run(turn).await;
            assert_eq!(done[0].lowered.result.output, "counted");
            // Strictly increasing, whatever order rmcp's client handled
            // the server's reports in.
            let seen = seen.lock().unwrap().clone();
            assert!(seen.windows(2).all(|pair| pair[0] < pair[1]), "{seen:?}");
            assert!(
                !seen.is_empty() && seen.iter().all(|done| [1.0, 2.0, 3.0].contains(done)),
                "{seen:?}"
            );
        })
        .await;
    }

    /// The local call's end cancels the remote call, and the tool sees it:
    /// a plain call, and a call the crate's server runs as a task (whose
    /// task may be created before the client hears of it).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cancelled_turn_and_a_timeout_cancel_the_remote_call() {
        bounded(async {
            for task in [TaskSupport::Forbidden, TaskSupport::Required] {
                // The turn cancelled once the tool runs.
                let waiting = Waiting::default();
                let server = server_where(&waiting, task);
                let (toolbox, _serving) = toolbox_of(&server, Duration::from_secs(5)).await;
                let token = CancellationToken::new();
                let cancel = token.clone();
                let started = Arc::clone(&waiting.started);
                tokio::spawn(async move {
                    started.notified().await;
                    cancel.cancel();
                });
                let turn =
                    Turn::new([remote_call("c1", "wait", json!({}))]).with_cancellation(token);
                let done = toolbox.run(turn).await;
                assert_eq!(
                    done[0].lowered.result.output,
                    r#"{"error":{"message":"the call was cancelled before it finished"}}"#,
                    "{task:?}"
                );
                eventually(|| waiting.cancelled.load(Ordering::SeqCst)).await;
                // A timeout.
                let waiting = Waiting::default();
                let server = server_where(&waiting, task);
                let (toolbox, _serving) = toolbox_of(&server, Duration::from_millis(300)).await;
                let done = toolbox.run([remote_call("c1", "wait", json!({}))]).await;
                assert_eq!(done[0].lowered.result.output, r#"{"error":{"message":"the tool did not finish within 300ms","suggestion":"try again, or ask for less at once"}}"#, "{task:?}");
                eventually(|| waiting.cancelled.load(Ordering::SeqCst)).await;
            }
        })
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_server_that_dies_mid_call_is_a_transient_failure_not_a_hang() {
        bounded(async {
            let waiting = Waiting::default();
            let (toolbox, serving) = toolbox_of(&server(&waiting), Duration::from_secs(10)).await;
            let started = Arc::clone(&waiting.started);
            tokio::spawn(async move {
                started.notified().await;
                serving.abort();
            });
            let done = toolbox
                .run([
                    remote_call("c1", "wait", json!({})),
                    remote_call("c2", "echo", json!({"city": "Lima"})),
                ])
                .await;
            assert!(done[0].lowered.result.is_error);
            assert!(
                done[0]
                    .lowered
                    .result
                    .output
                    .starts_with(r#"{"error":{"message":"the mcp server of `wait` did not answer"#),
                "{}",
                done[0].lowered.result.output
            );
            assert_eq!(done[0].lowered.diagnostics.is_transient(), Some(true));
            assert_eq!(done[1].lowered.result.output, "Lima");
        })
        .await;
    }

    /// The example server (`checks/src/bin/mcp_server.rs`) as a child
    /// process; cargo builds it before this test, with the same features.
    fn example_server() -> tokio::process::Child {
        tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_server"))
            .arg("--stdio")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_child_server_over_stdio_beside_a_local_tool_then_killed_mid_call() {
        tokio::time::timeout(Duration::from_secs(60), async {
            let mut child = example_server();
            let stdout = child.stdout.take().unwrap();
            let stdin = child.stdin.take().unwrap();
            let client = McpClient::connect((stdout, stdin)).await.unwrap();
            let mut toolbox = Toolbox::new().timeout(Duration::from_secs(10));
            for tool in client.tools().await.unwrap() {
                if ["test_simple_text", "test_tool_with_progress", "sleep"].contains(&tool.name()) {
                    toolbox.register(tool).unwrap();
                }
            }
            toolbox
                .register(tool::function("echo", "Echo", |c: City| c.city).unwrap())
                .unwrap();
            let done = toolbox
                .run([
                    remote_call("c1", "test_simple_text", json!({})),
                    remote_call("c2", "echo", json!({"city": "Oslo"})),
                    remote_call("c3", "sleep", json!({"ms": 20})),
                ])
                .await;
            assert_eq!(
                done[0].lowered.result.output,
                "This is a simple text response for testing."
            );
            assert_eq!(done[1].lowered.result.output, "Oslo");
            assert_eq!(done[2].lowered.result.output, "slept");

            // The child killed while a call runs: that call fails, the
            // local one is answered, nothing hangs.
            let pid = child.id().unwrap();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(300)).await;
                let _ = child.kill().await;
            });
            let started = std::time::Instant::now();
            let done = toolbox
                .run([
                    remote_call("c4", "sleep", json!({"ms": 30_000})),
                    remote_call("c5", "echo", json!({"city": "Lima"})),
                ])
                .await;
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "pid {pid}: answered in {:?}",
                started.elapsed()
            );
            assert!(
                done[0].lowered.result.output.starts_with(
                    r#"{"error":{"message":"the mcp server of `sleep` did not answer"#
                ),
                "{}",
                done[0].lowered.result.output
            );
            assert_eq!(done[0].lowered.diagnostics.is_transient(), Some(true));
            assert_eq!(done[1].lowered.result.output, "Lima");
            // And a call after it fails at once.
            let after = toolbox
                .run([remote_call("c6", "test_simple_text", json!({}))])
                .await;
            assert_eq!(after[0].lowered.diagnostics.is_transient(), Some(true));
        })
        .await
        .expect("the test did not finish in time");
    }

    /// The two protocol versions a client may speak with the server.
    #[derive(Debug, Clone, Copy)]
    enum Version {
        /// 2025-11-25: the `initialize` handshake, a session.
        Session,
        /// 2026-07-28: `server/discover`, each request on its own.
        Stateless,
    }

    const VERSIONS: [Version; 2] = [Version::Session, Version::Stateless];

    /// A client of `server` over streamable HTTP, speaking `version`.
    async fn http_client(server: &McpServer, version: Version) -> McpClient {
        let url = serve_http(server).await;
        client_over(StreamableHttpClientTransport::from_uri(url), version).await
    }

    /// A client of a session of `server` over an in-memory transport (one
    /// stream, as stdio), speaking `version`.
    async fn memory_client(server: &McpServer, version: Version) -> McpClient {
        let (server_end, client_end) = tokio::io::duplex(64 * 1024);
        let session = server.session();
        tokio::spawn(async move {
            if let Ok(running) = session.serve(server_end).await {
                let _ = running.waiting().await;
            }
        });
        client_over(client_end, version).await
    }

    async fn client_over<T, E, A>(transport: T, version: Version) -> McpClient
    where
        T: rmcp::transport::IntoTransport<rmcp::service::RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let client = match version {
            Version::Session => {
                McpClient::connect_with(transport, rmcp::ClientLifecycleMode::Initialize).await
            }
            Version::Stateless => McpClient::connect(transport).await,
        }
        .unwrap();
        let expected = match version {
            Version::Session => rmcp::model::ProtocolVersion::V_2025_11_25,
            Version::Stateless => rmcp::model::ProtocolVersion::V_2026_07_28,
        };
        assert_eq!(client.protocol_version(), Some(expected), "{version:?}");
        client
    }

    async fn toolbox_over(client: &McpClient) -> Toolbox {
        let mut toolbox = Toolbox::new().timeout(Duration::from_secs(10));
        for tool in client.tools().await.unwrap() {
            toolbox.register(tool).unwrap();
        }
        toolbox
    }

    /// The server of these tests, answering a 2026-07-28 parked call with
    /// an input-required result.
    fn asking_server() -> McpServer {
        let keyring =
            toolresult::seal::Keyring::new(b"a key of 32 bytes or more, for tests").unwrap();
        server(&Waiting::default()).input_required(keyring, Duration::from_secs(60))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_last_progress_report_reaches_the_call_in_every_one_of_100_runs_over_http() {
        tokio::time::timeout(Duration::from_secs(120), async {
            for version in VERSIONS {
                let client = http_client(&server(&Waiting::default()), version).await;
                let toolbox = toolbox_over(&client).await;
                for run in 0..100 {
                    let seen = Arc::new(Mutex::new(Vec::new()));
                    let sink = Arc::clone(&seen);
                    let turn = Turn::new([remote_call("c1", "count", json!({}))]).with_observer(
                        move |event: &CallEvent<'_>| {
                            if let CallEvent::Progress { done, message, .. } = *event {
                                sink.lock()
                                    .unwrap()
                                    .push((done, message.map(str::to_owned)));
                            }
                        },
                    );
                    let done = toolbox.run(turn).await;
                    assert_eq!(done[0].lowered.result.output, "counted");
                    // Every report, in order (the one going back dropped),
                    // the last one included.
                    let seen = seen.lock().unwrap().clone();
                    assert_eq!(
                        seen,
                        [
                            (1.0, Some("one".to_owned())),
                            (2.0, Some("two".to_owned())),
                            (3.0, Some("three".to_owned()))
                        ],
                        "{version:?}, run {run}"
                    );
                }
            }
        })
        .await
        .expect("the test did not finish in time");
    }

    /// The log events a call of `chatty` hands the observer.
    async fn chatty_logs(toolbox: &Toolbox) -> Vec<(String, LogLevel, String)> {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let turn = Turn::new([remote_call("c1", "chatty", json!({}))]).with_observer(
            move |event: &CallEvent<'_>| {
                if let CallEvent::Log {
                    level,
                    message,
                    call_id,
                    ..
                } = *event
                {
                    sink.lock()
                        .unwrap()
                        .push((call_id.to_owned(), level, message.to_owned()));
                }
            },
        );
        assert_eq!(toolbox.run(turn).await[0].lowered.result.output, "logged");
        seen.lock().unwrap().clone()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_servers_logs_reach_the_observer_at_or_above_the_callers_level() {
        bounded(async {
            // A 2025 session over streamable HTTP sends log messages on
            // its own stream, in no order with the answers: one stream here.
            for (version, stream) in [(Version::Stateless, true), (Version::Session, false)] {
                let server = server(&Waiting::default());
                let client = if stream {
                    http_client(&server, version).await
                } else {
                    memory_client(&server, version).await
                };
                let toolbox = toolbox_over(&client).await;
                // No level set: none.
                assert_eq!(chatty_logs(&toolbox).await, [], "{version:?}");
                client.set_log_level(Some(LogLevel::Warning)).await.unwrap();
                assert_eq!(
                    chatty_logs(&toolbox).await,
                    [
                        (
                            "c1".to_owned(),
                            LogLevel::Warning,
                            "a warning line".to_owned()
                        ),
                        ("c1".to_owned(), LogLevel::Error, "an error line".to_owned()),
                    ],
                    "{version:?}"
                );
            }
        })
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_remote_question_is_the_calls_pending_request_answered_through_resume() {
        bounded(async {
            for version in VERSIONS {
                for (answer, expected) in [
                    (Some(json!({"name": "Ada"})), "hello, Ada"),
                    (None, "no name: decline"),
                ] {
                    let client = http_client(&asking_server(), version).await;
                    let toolbox = toolbox_over(&client).await;
                    let parked = toolbox.run([remote_call("c1", "greet", json!({}))]).await;
                    let request = parked[0]
                        .lowered
                        .result
                        .pending_request()
                        .unwrap_or_else(|| panic!("{version:?}: {:?}", parked[0].lowered.result));
                    assert_eq!(request.kind, "input", "{version:?}");
                    assert_eq!(request.prompt, "What is your name?", "{version:?}");
                    assert_eq!(
                        request
                            .data
                            .as_ref()
                            .map(|data| &data["requestedSchema"]["required"]),
                        Some(&json!(["name"])),
                        "{version:?}"
                    );
                    let reply = match &answer {
                        Some(Value::Object(data)) => {
                            toolresult::canonical::Answer::granted(&request.id, Some(data.clone()))
                        }
                        _ => toolresult::canonical::Answer::declined(&request.id, "decline"),
                    };
                    let turn = Turn::default().resume(&parked[0], reply).unwrap();
                    let done = toolbox.run(turn).await;
                    assert_eq!(done[0].lowered.result.output, expected, "{version:?}");
                    assert!(!done[0].lowered.result.is_error, "{version:?}");
                }
            }
        })
        .await;
    }

    /// The crate's client against the crate's server, a tool that runs only
    /// as a task: called to its result (a client that could not take tasks
    /// would be refused it, -32021), twice on one connection.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_task_only_tool_of_the_crates_server_is_called_to_its_result() {
        bounded(async {
            let mut tools = Toolbox::new().timeout(Duration::from_secs(10));
            tools
                .register(
                    tool::function("report", "A report on a city", |c: City| {
                        format!("a report on {}", c.city)
                    })
                    .unwrap()
                    .with_task_support(TaskSupport::Required),
                )
                .unwrap();
            let server = McpServer::new(tools).unwrap();
            let (toolbox, _serving) = toolbox_of(&server, Duration::from_secs(10)).await;
            let done = toolbox
                .run([
                    remote_call("t1", "report", json!({"city": "Oslo"})),
                    remote_call("t2", "report", json!({"city": "Bergen"})),
                ])
                .await;
            for (outcome, city) in done.iter().zip(["Oslo", "Bergen"]) {
                let result = &outcome.lowered.result;
                assert!(!result.is_error, "{}", result.output);
                assert_eq!(result.output, format!("a report on {city}"));
            }
        })
        .await;
    }

    /// A server of the crate, its own requests sealed with a key of its
    /// own: `greet` asks a name and counts the answers its body is given;
    /// `deploy` needs a person's approval and counts its runs.
    fn sealed_server(answered: &Arc<AtomicU32>, deployed: &Arc<AtomicU32>) -> McpServer {
        let keyring =
            toolresult::seal::Keyring::new(b"the server's key, 32 bytes or more").unwrap();
        let mut toolbox = Toolbox::new()
            .timeout(Duration::from_secs(10))
            .seal_requests(keyring.clone());
        // `greet`, and `greet_task`, the same run as a task only.
        for (name, task) in [
            ("greet", TaskSupport::Forbidden),
            ("greet_task", TaskSupport::Required),
        ] {
            let count = Arc::clone(answered);
            let greet = move |_: NoArgs, cx: &CallContext| match cx.answer() {
                Some(answer) => {
                    count.fetch_add(1, Ordering::SeqCst);
                    let name = answer.data.as_ref().and_then(|d| d.get("name"));
                    let name = name.and_then(Value::as_str).unwrap_or("stranger");
                    ToolResult::<String>::ok(format!("hello, {name}"))
                }
                None => {
                    ToolResult::pending(Request::input("What is your name?").with_id("ask-name"))
                }
            };
            let tool = tool::function(name, "Greet by name", greet).unwrap();
            toolbox.register(tool.with_task_support(task)).unwrap();
        }
        let count = Arc::clone(deployed);
        toolbox
            .register(
                tool::function("deploy", "Deploy", move |c: City| {
                    count.fetch_add(1, Ordering::SeqCst);
                    format!("deployed to {}", c.city)
                })
                .unwrap()
                .with_approval(toolresult::tool::Approval::always()),
            )
            .unwrap();
        McpServer::new(toolbox)
            .unwrap()
            .input_required(keyring, Duration::from_secs(60))
    }

    /// A toolbox of `client`'s tools that seals the requests its calls park on.
    async fn sealed_toolbox_over(client: &McpClient) -> Toolbox {
        let keyring = toolresult::seal::Keyring::new([3u8; 32]).unwrap();
        toolbox_over(client).await.seal_requests(keyring)
    }

    fn named(name: &str) -> Map<String, Value> {
        Map::from_iter([("name".to_owned(), json!(name))])
    }

    /// The crate's client against the crate's server, at both versions: a
    /// remote question is sealed by the local toolbox as any request; an
    /// answer without its seal, or with another call's, is refused before
    /// anything goes to the server (its body never hears of it), and the
    /// call stays parked; the genuine answer reaches it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_remote_question_is_sealed_and_only_its_genuine_answer_reaches_the_server() {
        use toolresult::canonical::Answer;
        use toolresult::toolbox::ResumeError;
        bounded(async {
            for version in VERSIONS {
                let (answered, deployed) = (Arc::default(), Arc::default());
                let client = http_client(&sealed_server(&answered, &deployed), version).await;
                let toolbox = sealed_toolbox_over(&client).await;
                // One at a time: a 2025 question is the one listening
                // call's.
                let mut parked = toolbox.run([remote_call("c1", "greet", json!({}))]).await;
                parked.extend(toolbox.run([remote_call("c2", "greet", json!({}))]).await);
                let request = |outcome: &toolresult::toolbox::CallOutcome| {
                    outcome
                        .lowered
                        .result
                        .pending_request()
                        .unwrap_or_else(|| panic!("{version:?}: {:?}", outcome.lowered.result))
                };
                let (first, second) = (request(&parked[0]), request(&parked[1]));
                assert_eq!(first.prompt, "What is your name?", "{version:?}");
                let seal = first.data.as_ref().and_then(|data| data.get("seal"));
                assert!(
                    seal.and_then(Value::as_str).is_some_and(|seal| seal.starts_with("v1.")),
                    "{version:?}: {first:?}"
                );

                // Made up without the seal.
                let made_up = Answer::granted(&first.id, Some(named("Eve")));
                let turn = Turn::default().resume(&parked[0], made_up).unwrap();
                let refused = toolbox.run(turn).await.remove(0);
                assert_eq!(
                    refused.not_resumed.as_deref(),
                    Some(&ResumeError::Unsealed { request: first.id.clone() }),
                    "{version:?}"
                );
                assert_eq!(
                    refused.not_resumed.as_ref().unwrap().to_string(),
                    format!("the answer to request `{}` carries no seal", first.id)
                );
                assert_eq!(request(&refused).id, first.id, "{version:?}: still parked");

                // The seal of the other call's question.
                let borrowed = Answer::granted(&first.id, Some(named("Eve"))).with_seal_of(&second);
                let turn = Turn::default().resume(&parked[0], borrowed).unwrap();
                let refused = toolbox.run(turn).await.remove(0);
                assert!(
                    matches!(refused.not_resumed.as_deref(), Some(ResumeError::OtherCall { field, .. }) if field == "call"),
                    "{version:?}: {:?}", refused.not_resumed
                );
                assert_eq!(answered.load(Ordering::SeqCst), 0, "{version:?}: the server heard nothing");

                // The genuine answers, the seal carried back.
                let genuine = Answer::granted(&first.id, Some(named("Ada"))).with_seal_of(&first);
                let declined = Answer::declined(&second.id, "decline").with_seal_of(&second);
                let turn = Turn::default()
                    .resume(&parked[0], genuine)
                    .unwrap()
                    .resume(&parked[1], declined)
                    .unwrap();
                let done = toolbox.run(turn).await;
                assert_eq!(done[0].lowered.result.output, "hello, Ada", "{version:?}");
                assert!(done[0].not_resumed.is_none(), "{version:?}");
                assert_eq!(done[1].lowered.result.output, "hello, stranger", "{version:?}");
                assert_eq!(answered.load(Ordering::SeqCst), 2, "{version:?}");
            }
        })
        .await;
    }

    /// A remote tool that asks a person's approval: the local caller sees
    /// a request of kind `approval` showing the remote tool, arguments
    /// and reason, and approving or rejecting it decides the remote call.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_remote_approval_is_the_local_callers_to_approve_or_reject() {
        use toolresult::canonical::Answer;
        bounded(async {
            for version in VERSIONS {
                let (answered, deployed) = (Arc::default(), Arc::default());
                let client = http_client(&sealed_server(&answered, &deployed), version).await;
                let toolbox = sealed_toolbox_over(&client).await;
                for (decide, expected) in [
                    (true, "deployed to Oslo"),
                    (false, "the call of `deploy` was rejected"),
                ] {
                    let before = deployed.load(Ordering::SeqCst);
                    let call = remote_call("c1", "deploy", json!({"city": "Oslo"}));
                    let parked = toolbox.run([call]).await.remove(0);
                    let request = parked.lowered.result.pending_request().unwrap_or_else(|| {
                        panic!("{version:?} {decide}: {:?}", parked.lowered.result)
                    });
                    assert_eq!(request.kind, Request::APPROVAL, "{version:?}");
                    assert_eq!(
                        request.prompt,
                        "Approve the call of `deploy`? (every call of this tool needs approval)",
                        "{version:?}"
                    );
                    let data = request.data.clone().unwrap_or_default();
                    assert_eq!(data["tool"], "deploy", "{version:?}");
                    assert_eq!(data["arguments"], json!({"city": "Oslo"}), "{version:?}");
                    assert_eq!(
                        data["reason"], "every call of this tool needs approval",
                        "{version:?}"
                    );
                    assert!(data["seal"].is_string(), "{version:?}: sealed locally");
                    assert_eq!(
                        deployed.load(Ordering::SeqCst),
                        before,
                        "{version:?}: not before"
                    );
                    let answer = if decide {
                        Answer::approve(&request)
                    } else {
                        Answer::reject(&request, "frozen")
                    };
                    let turn = Turn::default().resume(&parked, answer).unwrap();
                    let done = toolbox.run(turn).await.remove(0);
                    let result = &done.lowered.result;
                    assert!(
                        result.output.contains(expected),
                        "{version:?}: {}",
                        result.output
                    );
                    assert_eq!(result.is_error, !decide, "{version:?}");
                    let ran = before + u32::from(decide);
                    assert_eq!(deployed.load(Ordering::SeqCst), ran, "{version:?}");
                }
            }
        })
        .await;
    }

    /// The same over a remote task's input request (2026-07-28): sealed
    /// locally, refused without its seal before `tasks/update` is sent,
    /// answered with it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_remote_tasks_question_is_sealed_and_only_its_genuine_answer_reaches_the_server() {
        use toolresult::canonical::Answer;
        use toolresult::toolbox::ResumeError;
        bounded(async {
            let (answered, deployed) = (Arc::default(), Arc::default());
            let server = sealed_server(&answered, &deployed);
            let client = http_client(&server, Version::Stateless).await;
            let toolbox = sealed_toolbox_over(&client).await;
            let parked = toolbox
                .run([remote_call("t1", "greet_task", json!({}))])
                .await
                .remove(0);
            let request = parked
                .lowered
                .result
                .pending_request()
                .unwrap_or_else(|| panic!("{:?}", parked.lowered.result));
            assert_eq!(request.prompt, "What is your name?");
            assert!(
                request
                    .data
                    .as_ref()
                    .is_some_and(|data| data["seal"].is_string())
            );
            let made_up = Answer::granted(&request.id, Some(named("Eve")));
            let turn = Turn::default().resume(&parked, made_up).unwrap();
            let refused = toolbox.run(turn).await.remove(0);
            assert!(
                matches!(
                    refused.not_resumed.as_deref(),
                    Some(ResumeError::Unsealed { .. })
                ),
                "{:?}",
                refused.not_resumed
            );
            assert_eq!(
                answered.load(Ordering::SeqCst),
                0,
                "the server heard nothing"
            );
            let genuine = Answer::granted(&request.id, Some(named("Ada"))).with_seal_of(&request);
            let turn = Turn::default().resume(&parked, genuine).unwrap();
            let done = toolbox.run(turn).await.remove(0);
            assert_eq!(done.lowered.result.output, "hello, Ada");
            assert_eq!(answered.load(Ordering::SeqCst), 1);
        })
        .await;
    }
}
