//! MCP's tasks extension (SEP-2663) over streamable HTTP at 2026-07-28,
//! written as a client of that revision sends it: a call of a tool that
//! runs as a task is answered at once with the task; `tasks/get` reads it
//! (working, input required, completed with the plain call's result,
//! failed, cancelled), `tasks/update` resumes it, `tasks/cancel` cancels
//! it; a task is read, answered and cancelled through another server
//! sharing the store; an expired task is refused.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
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

/// A store two servers share, as replicas share a database.
#[derive(Clone, Default)]
struct Shared(Arc<Records>);

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
}

/// A server of `wait` (optional task: waits `ms`, or until cancelled,
/// counting the waits that ran to their end), `must` (required task),
/// `ask` (optional task: parks on `name`, then greets), `boom` (optional
/// task: panics), `fail` (optional task: an error result) and `now`
/// (never a task), its tasks in `store` for `ttl`.
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
