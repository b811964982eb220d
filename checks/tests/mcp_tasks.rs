//! MCP's tasks extension (SEP-2663) over streamable HTTP at 2026-07-28,
//! written as a client of that revision sends it: a call of a tool that
//! runs as a task is answered at once with the task; `tasks/get` reads it
//! (working, input required, completed with the plain call's result,
//! failed, cancelled), `tasks/update` resumes it, `tasks/cancel` cancels
//! it; a task is read, answered and cancelled through another server
//! sharing the store; an expired task is refused. A handler of one's own
//! runs the tasks' calls (`McpServer::tasks_through`): its task waits on
//! two input requests at once, answered one at a time. On a 2025 session
//! that declared the extension, over an in-memory pipe: each status change
//! is told (`notifications/tasks`), and the progress of a task's call
//! reaches the client.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ElicitRequest,
    InputRequest, InputRequests, InputRequiredResult,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use toolresult::canonical::Request;
use toolresult::mcp::{McpServer, TaskStore};
use toolresult::seal::Keyring;
use toolresult::tool::{self, CallContext, TaskSupport};
use toolresult::toolbox::Toolbox;
use toolresult::{ToolError, ToolResult};

mod stateless_http;
use stateless_http::{V2026, bounded, headers, post, serve};

const TASKS: &str = "io.modelcontextprotocol/tasks";

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Wait {
    ms: u64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

type Records = Mutex<HashMap<String, (Value, SystemTime)>>;

/// A store two servers share, as replicas share a database; while its
/// flag is up, it fails the next hand-off of a round's answers (as a store
/// that runs the calls elsewhere may).
#[derive(Clone, Default)]
struct Shared(Arc<Records>, Arc<AtomicBool>);

impl TaskStore for Shared {
    fn put<'a>(
        &'a self,
        id: &'a str,
        record: Value,
        expires: SystemTime,
    ) -> std::pin::Pin<
        Box<dyn Future<Output = Result<(), Box<dyn std::error::Error + Send + Sync>>> + Send + 'a>,
    > {
        self.0
            .lock()
            .unwrap()
            .insert(id.to_owned(), (record, expires));
        Box::pin(async { Ok(()) })
    }

    fn get<'a>(
        &'a self,
        id: &'a str,
    ) -> std::pin::Pin<
        Box<
            dyn Future<Output = Result<Option<Value>, Box<dyn std::error::Error + Send + Sync>>>
                + Send
                + 'a,
        >,
    > {
        let kept = self.0.lock().unwrap().get(id).cloned();
        let kept = kept
            .filter(|(_, expires)| SystemTime::now() < *expires)
            .map(|(record, _)| record);
        Box::pin(async move { Ok(kept) })
    }

    fn answer<'a>(
        &'a self,
        _id: &'a str,
        _answers: &'a [toolresult::canonical::Answer],
    ) -> std::pin::Pin<
        Box<
            dyn Future<Output = Result<bool, Box<dyn std::error::Error + Send + Sync>>> + Send + 'a,
        >,
    > {
        let down = self.1.swap(false, Ordering::SeqCst);
        Box::pin(async move {
            if down {
                Err("the store is down".into())
            } else {
                Ok(false)
            }
        })
    }
}

/// A server of `wait` (optional task: waits `ms`, or until cancelled,
/// counting the waits that ran to their end), `must` (required task),
/// `ask` (optional task: parks on `name`, then greets), `boom` (optional
/// task: panics), `fail` (optional task: an error result), `steps`
/// (optional task: reports progress twice), `survey` (required task, its
/// call the handler's: [`Survey`]) and `now` (never a task), its tasks in
/// `store` for `ttl`.
fn server(store: Option<Shared>, ttl: Duration, finished: Arc<AtomicUsize>) -> McpServer {
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(20));
    toolbox
        .register(
            tool::function("wait", "Waits", move |w: Wait, cx: CallContext<'static>| {
                let finished = Arc::clone(&finished);
                async move {
                    tokio::select! {
                        () = tokio::time::sleep(Duration::from_millis(w.ms)) => {
                            finished.fetch_add(1, Ordering::SeqCst);
                            format!("waited {}", w.ms)
                        }
                        () = cx.cancelled() => "cancelled".to_owned(),
                    }
                }
            })
            .unwrap()
            .with_task_support(TaskSupport::Optional),
        )
        .unwrap();
    toolbox
        .register(tool::function("must", "Must be a task", |_: NoArgs| "done").unwrap())
        .unwrap()
        .task_support(TaskSupport::Required);
    toolbox
        .register(
            tool::function(
                "ask",
                "Asks a name",
                |_: NoArgs, cx: &CallContext| {
                    match cx.answer() {
                    Some(answer) => {
                        let data = answer.data.clone().unwrap_or_default();
                        ToolResult::<String>::ok(format!("hello {}", Value::Object(data)))
                    }
                    None => ToolResult::pending(
                        Request::input("Your name?").with_id("name").with_data(Map::from_iter([(
                            McpServer::REQUESTED_SCHEMA.to_owned(),
                            json!({"type": "object", "properties": {"name": {"type": "string"}}}),
                        )])),
                    ),
                }
                },
            )
            .unwrap()
            .with_task_support(TaskSupport::Optional),
        )
        .unwrap();
    toolbox
        .register(
            tool::function(
                "boom",
                "Panics",
                |_: NoArgs| -> Result<String, toolresult::Failure> { panic!("token=SECRET") },
            )
            .unwrap()
            .with_task_support(TaskSupport::Optional),
        )
        .unwrap();
    toolbox
        .register(
            tool::function("fail", "Fails", |_: NoArgs| {
                ToolResult::<()>::fail(ToolError::new("no luck"))
            })
            .unwrap()
            .with_task_support(TaskSupport::Optional),
        )
        .unwrap();
    toolbox
        .register(tool::function("now", "Answers at once", |_: NoArgs| "now").unwrap())
        .unwrap();
    toolbox
        .register(
            tool::function(
                "steps",
                "Reports two steps",
                |_: NoArgs, cx: CallContext<'static>| async move {
                    cx.progress(1.0, Some(2.0), Some("one"));
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    cx.progress(2.0, Some(2.0), Some("two"));
                    "stepped"
                },
            )
            .unwrap()
            .with_task_support(TaskSupport::Optional),
        )
        .unwrap();
    toolbox
        .register(
            tool::function("survey", "Asks two things at once", |_: NoArgs| {
                ToolResult::<()>::fail(ToolError::new("not asked through the handler"))
            })
            .unwrap()
            .with_task_support(TaskSupport::Required),
        )
        .unwrap();
    let server = McpServer::new(toolbox)
        .unwrap()
        .input_required(Keyring::new([7u8; 32]).unwrap(), Duration::from_secs(60));
    match store {
        Some(store) => server.tasks(store, ttl),
        None => server,
    }
}

/// A 2026-07-28 request `id` of `method` with `params`, from a client
/// taking form elicitations and, when `tasks`, the tasks extension.
fn request(id: i64, method: &str, tasks: bool, mut params: Value) -> String {
    let mut capabilities = json!({"elicitation": {"form": {}}});
    if tasks {
        capabilities["extensions"] = json!({TASKS: {}});
    }
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": V2026,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// The JSON-RPC answer to `method` about `name` with `params`.
async fn send(address: &str, method: &str, name: &str, tasks: bool, params: Value) -> Value {
    let body = request(1, method, tasks, params);
    post(address, &headers(method, Some(name)), &body)
        .await
        .answer(1)
        .clone()
}

async fn call(address: &str, tool: &str, tasks: bool, arguments: Value) -> Value {
    let params = json!({"name": tool, "arguments": arguments});
    send(address, "tools/call", tool, tasks, params).await
}

async fn get(address: &str, task: &str) -> Value {
    send(address, "tasks/get", task, true, json!({"taskId": task})).await
}

async fn cancel(address: &str, task: &str) -> Value {
    send(address, "tasks/cancel", task, true, json!({"taskId": task})).await
}

/// The id of the task `answer` started.
fn task_of(answer: &Value) -> String {
    let result = &answer["result"];
    assert_eq!(result["resultType"], "task", "{answer}");
    assert_eq!(result["status"], "working", "{answer}");
    result["taskId"].as_str().unwrap().to_owned()
}

/// `tasks/get` until the task is over or in `status`, polling every 20 ms.
async fn until(address: &str, task: &str, status: &str) -> Value {
    loop {
        let answer = get(address, task).await;
        let now = answer["result"]["status"].as_str().unwrap_or_default();
        if now == status || ["completed", "failed", "cancelled"].contains(&now) {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn two(ttl: Duration) -> (String, String, Arc<AtomicUsize>) {
    let store = Shared::default();
    let finished = Arc::new(AtomicUsize::new(0));
    let one = server(Some(store.clone()), ttl, Arc::clone(&finished));
    let other = server(Some(store), ttl, Arc::clone(&finished));
    let config = StreamableHttpServerConfig::default;
    (
        serve(&one, config()).await,
        serve(&other, config()).await,
        finished,
    )
}

/// A task's result is, byte for byte, what the plain call answers; the
/// task is read through another server sharing the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_answered_at_once_and_its_result_is_the_plain_calls() {
    bounded(async {
        let (one, other, finished) = two(Duration::from_secs(60)).await;
        let started = call(&one, "wait", true, json!({"ms": 50})).await;
        let task = task_of(&started);
        assert!(
            started["result"]["ttlMs"].as_u64().unwrap() == 60_000,
            "{started}"
        );
        let created = started["result"]["createdAt"].as_str().unwrap();
        assert!(created.ends_with('Z') && created.contains('T'), "{created}");
        let done = until(&other, &task, "completed").await;
        assert_eq!(done["result"]["status"], "completed", "{done}");
        assert_eq!(done["result"]["resultType"], "complete", "{done}");
        // The plain call: a client without the extension.
        let plain = call(&one, "wait", false, json!({"ms": 50})).await;
        assert_eq!(
            plain["result"]["content"][0]["text"], "waited 50",
            "{plain}"
        );
        assert_eq!(done["result"]["result"], plain["result"], "{done}");
        assert_eq!(finished.load(Ordering::SeqCst), 2);
        // A tool's error result completes the task; it does not fail it.
        let failing = task_of(&call(&one, "fail", true, json!({})).await);
        let failed = until(&other, &failing, "completed").await;
        assert_eq!(failed["result"]["status"], "completed", "{failed}");
        assert_eq!(failed["result"]["result"]["isError"], true, "{failed}");
    })
    .await;
}

/// A tool that never runs as a task answers in its request, asked or not;
/// one that must refuses a client without the extension, naming it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn task_support_decides_and_a_client_without_tasks_is_refused_a_required_one() {
    bounded(async {
        let (one, _, _) = two(Duration::from_secs(60)).await;
        let now = call(&one, "now", true, json!({})).await;
        assert_eq!(now["result"]["resultType"], "complete", "{now}");
        assert_eq!(now["result"]["content"][0]["text"], "now", "{now}");
        let refused = call(&one, "must", false, json!({})).await;
        assert_eq!(refused["error"]["code"], -32021, "{refused}");
        assert!(
            refused["error"]["data"]["requiredCapabilities"]["extensions"][TASKS].is_object(),
            "{refused}"
        );
        let task = task_of(&call(&one, "must", true, json!({})).await);
        let done = until(&one, &task, "completed").await;
        assert_eq!(
            done["result"]["result"]["content"][0]["text"], "done",
            "{done}"
        );
        // The task methods need the extension too.
        let body = request(1, "tasks/get", false, json!({"taskId": task}));
        let gated = post(&one, &headers("tasks/get", Some(&task)), &body).await;
        assert_eq!(
            gated.answer(1)["error"]["code"],
            -32021,
            "{:?}",
            gated.messages
        );
    })
    .await;
}

/// A task started on one server is cancelled through another: it reads
/// as cancelled, the call's body did not run to its end, and cancelling it
/// again is acknowledged and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_cancelled_through_another_server_and_cancelling_again_changes_nothing() {
    bounded(async {
        let (one, other, finished) = two(Duration::from_secs(60)).await;
        let task = task_of(&call(&one, "wait", true, json!({"ms": 600})).await);
        let ack = cancel(&other, &task).await;
        assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
        let over = until(&one, &task, "cancelled").await;
        assert_eq!(over["result"]["status"], "cancelled", "{over}");
        // The call ran on in the other process; its end does not undo the
        // cancellation.
        tokio::time::sleep(Duration::from_millis(800)).await;
        let still = get(&other, &task).await;
        assert_eq!(still["result"]["status"], "cancelled", "{still}");
        assert_eq!(
            finished.load(Ordering::SeqCst),
            1,
            "its body ran on where it started"
        );
        // Cancelled where it runs: the body stops.
        let local = task_of(&call(&one, "wait", true, json!({"ms": 600})).await);
        cancel(&one, &local).await;
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(
            finished.load(Ordering::SeqCst),
            1,
            "the cancelled body stopped"
        );
        let again = cancel(&one, &local).await;
        assert_eq!(
            again["result"],
            json!({"resultType": "complete"}),
            "{again}"
        );
        assert_eq!(get(&one, &local).await["result"]["status"], "cancelled");
        let unknown = cancel(&one, "no-such-task").await;
        assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    })
    .await;
}

/// A task whose call parks waits for input with its input request; the
/// answer, given through another server, resumes the call there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_waiting_for_input_is_answered_through_another_server() {
    bounded(async {
        let (one, other, _) = two(Duration::from_secs(60)).await;
        let task = task_of(&call(&one, "ask", true, json!({})).await);
        let waiting = until(&other, &task, "input_required").await;
        let result = &waiting["result"];
        assert_eq!(result["status"], "input_required", "{waiting}");
        assert_eq!(
            result["inputRequests"]["name"]["method"],
            "elicitation/create"
        );
        assert!(result.get("requestState").is_none(), "{waiting}");
        // A response to no pending request is acknowledged, and changes nothing.
        let params = json!({"taskId": task, "inputResponses": {"other": {}}});
        let ignored = send(&other, "tasks/update", &task, true, params).await;
        assert_eq!(
            ignored["result"],
            json!({"resultType": "complete"}),
            "{ignored}"
        );
        assert_eq!(get(&one, &task).await["result"]["status"], "input_required");
        let answer = json!({"name": {"action": "accept", "content": {"name": "Ada"}}});
        let params = json!({"taskId": task, "inputResponses": answer});
        let ack = send(&other, "tasks/update", &task, true, params).await;
        assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
        let done = until(&one, &task, "completed").await;
        let text = &done["result"]["result"]["content"][0]["text"];
        assert_eq!(text, r#"hello {"name":"Ada"}"#, "{done}");
    })
    .await;
}

/// Answers the store could not take leave the task waiting for them: the
/// update is an error, the task still asks, and the answers sent again
/// resume it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_a_store_could_not_take_leave_the_task_waiting_for_them() {
    bounded(async {
        let store = Shared::default();
        let finished = Arc::new(AtomicUsize::new(0));
        let server = server(Some(store.clone()), Duration::from_secs(60), finished);
        let address = serve(&server, StreamableHttpServerConfig::default()).await;
        let task = task_of(&call(&address, "ask", true, json!({})).await);
        until(&address, &task, "input_required").await;
        let answer = json!({"name": {"action": "accept", "content": {"name": "Ada"}}});
        let params = json!({"taskId": task, "inputResponses": answer});
        store.1.store(true, Ordering::SeqCst);
        let failed = send(&address, "tasks/update", &task, true, params.clone()).await;
        assert!(failed.get("error").is_some(), "{failed}");
        let waiting = get(&address, &task).await;
        assert_eq!(waiting["result"]["status"], "input_required", "{waiting}");
        assert!(
            waiting["result"]["inputRequests"].get("name").is_some(),
            "{waiting}"
        );
        let ack = send(&address, "tasks/update", &task, true, params).await;
        assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
        let done = until(&address, &task, "completed").await;
        let text = &done["result"]["result"]["content"][0]["text"];
        assert_eq!(text, r#"hello {"name":"Ada"}"#, "{done}");
    })
    .await;
}

/// A tool that panics fails its task with an internal error that does not
/// repeat the panic's words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_fails_the_task() {
    bounded(async {
        let (one, _, _) = two(Duration::from_secs(60)).await;
        let task = task_of(&call(&one, "boom", true, json!({})).await);
        let failed = until(&one, &task, "failed").await;
        let result = &failed["result"];
        assert_eq!(result["status"], "failed", "{failed}");
        assert_eq!(result["error"]["code"], -32603, "{failed}");
        assert_eq!(result["error"]["message"], "the tool `boom` panicked");
        assert!(result.get("result").is_none(), "{failed}");
    })
    .await;
}

/// A task past its time to live is refused, as an unknown one is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_task_is_refused() {
    bounded(async {
        let (one, other, _) = two(Duration::from_millis(300)).await;
        let task = task_of(&call(&one, "wait", true, json!({"ms": 10})).await);
        let done = until(&other, &task, "completed").await;
        assert_eq!(done["result"]["ttlMs"], 300, "{done}");
        tokio::time::sleep(Duration::from_millis(400)).await;
        let expired = get(&other, &task).await;
        assert_eq!(expired["error"]["code"], -32602, "{expired}");
        let message = expired["error"]["message"].as_str().unwrap();
        assert_eq!(message, format!("no task `{task}`: unknown, or expired"));
        let gone = cancel(&one, &task).await;
        assert_eq!(gone["error"]["code"], -32602, "{gone}");
    })
    .await;
}

/// A handler of one's own that answers `survey` in its task: two input
/// requests at once (`a` and `b`, its state `asked`), then, with a
/// response to each and its state back, the responses as text. Every
/// other call goes to the server.
#[derive(Clone)]
struct Survey {
    tools: McpServer,
}

impl ServerHandler for Survey {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != "survey" || McpServer::task_of(&context).is_none() {
            return self.tools.call_tool(request, context).await;
        }
        let responses = request.input_responses.unwrap_or_default();
        let both = responses.contains_key("a") && responses.contains_key("b");
        if both && request.request_state.as_deref() == Some("asked") {
            let text = Value::Object(responses.into_iter().collect()).to_string();
            return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
        }
        let ask = |message: &str| {
            let params = json!({"mode": "form", "message": message, "requestedSchema": {
                "type": "object", "properties": {"ok": {"type": "boolean"}}}});
            InputRequest::Elicitation(ElicitRequest::new(serde_json::from_value(params).unwrap()))
        };
        let asked =
            InputRequests::from_iter([("a".to_owned(), ask("A?")), ("b".to_owned(), ask("B?"))]);
        Ok(InputRequiredResult::new(Some(asked), Some("asked".to_owned())).into())
    }
}

/// `server` serving its tasks' calls through [`Survey`].
fn surveyed(server: McpServer) -> McpServer {
    let inner = Survey {
        tools: server.clone(),
    };
    server.tasks_through(inner)
}

/// A task waiting on two input requests at once is answered one request
/// at a time: after the first, it still waits, on the other alone; after
/// the second, its call runs again with both responses and its state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_waiting_on_two_requests_is_answered_one_at_a_time() {
    bounded(async {
        let base = server(None, Duration::from_secs(60), Arc::default());
        let one = serve(&surveyed(base), StreamableHttpServerConfig::default()).await;
        let task = task_of(&call(&one, "survey", true, json!({})).await);
        let waiting = until(&one, &task, "input_required").await;
        let asked = waiting["result"]["inputRequests"].as_object().unwrap();
        assert_eq!(asked.keys().collect::<Vec<_>>(), ["a", "b"], "{waiting}");
        let first = json!({"a": {"action": "accept", "content": {"ok": true}}, "stray": {}});
        let params = json!({"taskId": task, "inputResponses": first});
        let ack = send(&one, "tasks/update", &task, true, params).await;
        assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
        let partly = get(&one, &task).await;
        assert_eq!(partly["result"]["status"], "input_required", "{partly}");
        let left = partly["result"]["inputRequests"].as_object().unwrap();
        assert_eq!(left.keys().collect::<Vec<_>>(), ["b"], "{partly}");
        let second = json!({"b": {"action": "decline"}});
        let params = json!({"taskId": task, "inputResponses": second});
        send(&one, "tasks/update", &task, true, params).await;
        let done = until(&one, &task, "completed").await;
        let text = done["result"]["result"]["content"][0]["text"].as_str();
        assert_eq!(
            text,
            Some(r#"{"a":{"action":"accept","content":{"ok":true}},"b":{"action":"decline"}}"#),
            "{done}"
        );
    })
    .await;
}

/// A 2025-11-25 session over an in-memory pipe, as raw JSON-RPC lines:
/// what it sends, and each message the server sends it, in order.
struct Session {
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
}

impl Session {
    /// A session of `server`, its client declaring the tasks extension
    /// when `tasks`.
    async fn open(server: &McpServer, tasks: bool) -> Self {
        use tokio::io::AsyncBufReadExt;
        let (server_end, client_end) = tokio::io::duplex(64 * 1024);
        let handler = server.session();
        tokio::spawn(async move {
            if let Ok(running) = handler.serve(server_end).await {
                let _ = running.waiting().await;
            }
        });
        let (read, write) = tokio::io::split(client_end);
        let lines = tokio::io::BufReader::new(read).lines();
        let mut session = Self { lines, write };
        let capabilities = if tasks {
            json!({"extensions": {TASKS: {}}})
        } else {
            json!({})
        };
        session
            .send(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": capabilities,
                "clientInfo": {"name": "raw", "version": "0"}}}),
            )
            .await;
        assert!(session.next().await["result"].is_object());
        session
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        session
    }

    async fn send(&mut self, message: Value) {
        use tokio::io::AsyncWriteExt;
        let line = format!("{message}\n");
        self.write.write_all(line.as_bytes()).await.unwrap();
    }

    async fn next(&mut self) -> Value {
        let line = self.lines.next_line().await.unwrap().unwrap();
        serde_json::from_str(&line).unwrap()
    }

    /// Request `id` of `method` with `params`.
    async fn request(&mut self, id: i64, method: &str, params: Value) {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(message).await;
    }

    /// What the server sends until, and with, the first message `last`
    /// holds true of.
    async fn until(&mut self, last: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut heard = Vec::new();
        loop {
            let message = self.next().await;
            let done = last(&message);
            heard.push(message);
            if done {
                return heard;
            }
        }
    }
}

/// The statuses `heard` tells of the task `id`, in order.
fn statuses(heard: &[Value], id: &str) -> Vec<String> {
    heard
        .iter()
        .filter(|message| message["method"] == "notifications/tasks")
        .filter(|message| message["params"]["taskId"] == id)
        .map(|message| message["params"]["status"].as_str().unwrap().to_owned())
        .collect()
}

/// The id of the task the answer to request `id` among `heard` started.
fn started(heard: &[Value], id: i64) -> String {
    let answer = heard.iter().find(|message| message["id"] == id).unwrap();
    assert_eq!(answer["result"]["resultType"], "task", "{answer}");
    answer["result"]["taskId"].as_str().unwrap().to_owned()
}

fn told(status: &'static str) -> impl Fn(&Value) -> bool {
    move |message| {
        message["method"] == "notifications/tasks" && message["params"]["status"] == status
    }
}

/// On a 2025 session that declared the extension, each change of a task's
/// status is told as `notifications/tasks` (the task as `tasks/get` reads
/// it): done, waiting for input, working again once answered, cancelled;
/// and the progress of a task's call, asked with a `progressToken`,
/// reaches the client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_session_hears_each_status_and_the_progress_of_a_tasks_call() {
    bounded(async {
        let base = server(None, Duration::from_secs(60), Arc::default());
        let mut session = Session::open(&surveyed(base), true).await;
        let params = json!({"name": "steps", "arguments": {}, "_meta": {"progressToken": "p-1"}});
        session.request(1, "tools/call", params).await;
        let heard = session.until(told("completed")).await;
        let task = started(&heard, 1);
        let progress: Vec<_> = heard
            .iter()
            .filter(|message| message["method"] == "notifications/progress")
            .map(|message| {
                let params = &message["params"];
                assert_eq!(params["progressToken"], "p-1", "{message}");
                (
                    params["progress"].as_f64().unwrap(),
                    params["message"].clone(),
                )
            })
            .collect();
        assert_eq!(progress, [(1.0, json!("one")), (2.0, json!("two"))]);
        assert_eq!(statuses(&heard, &task), ["completed"]);
        let done = heard.last().unwrap();
        assert_eq!(done["params"]["result"]["content"][0]["text"], "stepped");

        session
            .request(2, "tools/call", json!({"name": "survey", "arguments": {}}))
            .await;
        let heard = session.until(told("input_required")).await;
        let task = started(&heard, 2);
        let asked = &heard.last().unwrap()["params"]["inputRequests"];
        assert!(asked["a"].is_object() && asked["b"].is_object(), "{asked}");
        let answer =
            |key: &str| json!({"taskId": task, "inputResponses": {key: {"action": "accept"}}});
        session.request(3, "tasks/update", answer("a")).await;
        let heard = session.until(|message| message["id"] == 3).await;
        assert_eq!(
            statuses(&heard, &task),
            Vec::<String>::new(),
            "still waiting"
        );
        session.request(4, "tasks/update", answer("b")).await;
        let heard = session.until(told("completed")).await;
        assert_eq!(statuses(&heard, &task), ["working", "completed"]);

        session
            .request(
                5,
                "tools/call",
                json!({"name": "wait", "arguments": {"ms": 10000}}),
            )
            .await;
        let heard = session.until(|message| message["id"] == 5).await;
        let task = started(&heard, 5);
        session
            .request(6, "tasks/cancel", json!({"taskId": task}))
            .await;
        let heard = session.until(told("cancelled")).await;
        assert_eq!(statuses(&heard, &task), ["cancelled"]);
    })
    .await;
}

/// A 2025 session whose client did not declare the extension starts no
/// task, and is told of none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_session_without_the_extension_hears_no_status() {
    bounded(async {
        let base = server(None, Duration::from_secs(60), Arc::default());
        let mut session = Session::open(&surveyed(base), false).await;
        session
            .request(1, "tools/call", json!({"name": "steps", "arguments": {}}))
            .await;
        let heard = session.until(|message| message["id"] == 1).await;
        assert_eq!(heard.len(), 1, "{heard:?}");
        assert_eq!(heard[0]["result"]["content"][0]["text"], "stepped");
    })
    .await;
}
