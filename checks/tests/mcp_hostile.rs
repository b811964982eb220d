//! A toolbox served over MCP (`toolresult::mcp::McpServer`) against input
//! no well-behaved client sends: huge arguments, a cancellation that comes
//! too late, a progress token two calls share, a client that goes away in
//! the middle of a call. Each is answered (an error or an error result),
//! nothing panics, no call is left running, the session goes on.

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, WriteHalf};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use toolresult::mcp::McpServer;
use toolresult::tool::{self, CallContext};
use toolresult::toolbox::Toolbox;

const LIMIT: Duration = Duration::from_secs(30);
const MIB: usize = 1024 * 1024;
/// How long a call whose HTTP client went away waits for it to resume.
const GRACE: Duration = Duration::from_millis(300);

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Text {
    text: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

/// What the `wait` tool saw: how many calls started, and whether the last
/// one to stop was cancelled.
#[derive(Clone, Default)]
struct Waiting {
    started: Arc<tokio::sync::Notify>,
    calls: Arc<AtomicU32>,
    running: Arc<AtomicU32>,
    cancelled: Arc<AtomicBool>,
}

/// Records, when the `wait` tool's call stops (returns or is dropped),
/// whether it was cancelled, and that it no longer runs.
struct Stopped(CancellationToken, Waiting);

impl Drop for Stopped {
    fn drop(&mut self) {
        self.1
            .cancelled
            .store(self.0.is_cancelled(), Ordering::SeqCst);
        self.1.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// `add`, `size` (the length of its text), `count` (progress 1, 2, 3 of
/// 3) and `wait` (until cancelled, or 60 s), under a toolbox timeout of
/// 60 s: a call stopped sooner was stopped by its cancellation.
fn server(waiting: &Waiting) -> McpServer {
    let mut toolbox = Toolbox::new()
        .timeout(Duration::from_secs(60))
        .with_value(waiting.clone());
    toolbox
        .register(
            tool::function("add", "Add two integers", |x: Add| (x.a + x.b).to_string()).unwrap(),
        )
        .unwrap();
    toolbox
        .register(
            tool::function("size", "The length of a text", |t: Text| {
                t.text.len().to_string()
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
                    for done in [1.0, 2.0, 3.0] {
                        cx.progress(done, Some(3.0), None);
                        tokio::time::sleep(Duration::from_millis(20)).await;
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
                    waiting.running.fetch_add(1, Ordering::SeqCst);
                    let _stopped = Stopped(cx.cancellation_token(), waiting.clone());
                    waiting.started.notify_one();
                    tokio::select! {
                        () = cx.cancelled() => "stopped",
                        () = tokio::time::sleep(Duration::from_secs(60)) => "finished",
                    }
                },
            )
            .unwrap(),
        )
        .unwrap();
    McpServer::new(toolbox)
        .unwrap()
        .with_info("hostile", "0.0.1")
        .disconnect_grace(GRACE)
}

/// Runs `test` under the time limit: a hang fails it, never blocks.
async fn bounded<F: Future<Output = ()>>(test: F) {
    tokio::time::timeout(LIMIT, test)
        .await
        .expect("the test did not finish in time");
}

/// Waits until `done`, for at most 5 s; whether it came.
async fn eventually(done: impl Fn() -> bool) -> bool {
    for _ in 0..500 {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    done()
}

fn call(name: &'static str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object");
    };
    CallToolRequestParams::new(name).with_arguments(arguments)
}

fn text(result: &rmcp::model::CallToolResult) -> String {
    result.content[0].as_text().unwrap().text.clone()
}

/// A session of `server` spoken to line by line, as a stdio client would.
struct Raw {
    lines: Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
    write: WriteHalf<DuplexStream>,
}

impl Raw {
    /// A session of `server`, initialized.
    async fn open(server: &McpServer) -> Self {
        let (server_end, client_end) = tokio::io::duplex(64 * 1024);
        let session = server.session();
        tokio::spawn(async move {
            if let Ok(running) = session.serve(server_end).await {
                let _ = running.waiting().await;
            }
        });
        let (read, write) = tokio::io::split(client_end);
        let mut raw = Self {
            lines: BufReader::new(read).lines(),
            write,
        };
        raw.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#).await;
        let initialized = raw.next().await;
        assert_eq!(initialized["result"]["serverInfo"]["name"], "hostile");
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        raw
    }

    async fn send(&mut self, line: &str) {
        self.write.write_all(line.as_bytes()).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
        self.write.flush().await.unwrap();
    }

    async fn next(&mut self) -> Value {
        serde_json::from_str(&self.lines.next_line().await.unwrap().unwrap()).unwrap()
    }

    /// The messages up to the answer to `id`, and that answer.
    async fn until_answer(&mut self, id: i64) -> (Vec<Value>, Value) {
        let mut before = Vec::new();
        loop {
            let message = self.next().await;
            if message["id"] == id {
                return (before, message);
            }
            before.push(message);
        }
    }
}

/// An argument past what the transport takes is refused before it is
/// read into memory: over streamable HTTP a JSON-RPC body past 4 MiB
/// (rmcp's limit) is answered `413` at once (or, to a client still
/// sending, the connection closed), an error for the call; over
/// stdio a line past 16 MiB (rmcp's limit) is dropped unread, and the
/// session goes on. Below the limit the tool gets the argument whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_arguments_are_refused_and_the_session_goes_on() {
    bounded(async {
        let huge = "x".repeat(16 * MIB);

        // Streamable HTTP.
        let server = server(&Waiting::default());
        let client = connect_http(&serve_http(&server).await.0).await;
        let started = std::time::Instant::now();
        let refused = client
            .call_tool(call("size", json!({ "text": huge })))
            .await
            .unwrap_err();
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "refused in {:?}",
            started.elapsed()
        );
        // The server answers 413 before the body is read; a client still
        // sending it may see the connection closed first instead.
        let refused = refused.to_string();
        assert!(
            refused.contains("413") || refused.contains("error sending request"),
            "an HTTP 413, or the connection closed, for the call: {refused}"
        );
        let under = "x".repeat(3 * MIB);
        let sized = client
            .call_tool(call("size", json!({ "text": under })))
            .await
            .unwrap();
        assert_eq!(text(&sized), (3 * MIB).to_string());
        let sum = client
            .call_tool(call("add", json!({"a": 1, "b": 2})))
            .await
            .unwrap();
        assert_eq!(text(&sum), "3");
        client.cancel().await.unwrap();

        // A stdio-like byte stream, line by line.
        let mut raw = Raw::open(&server).await;
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"size","arguments":{{"text":"{huge}"}}}}}}"#
        );
        raw.send(&line).await;
        drop(line);
        let under = "x".repeat(15 * MIB);
        raw.send(&format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"size","arguments":{{"text":"{under}"}}}}}}"#
        ))
        .await;
        let (before, answer) = raw.until_answer(2).await;
        assert_eq!(
            before,
            Vec::<Value>::new(),
            "the oversized line gets no answer"
        );
        assert_eq!(
            answer["result"]["content"][0]["text"],
            (15 * MIB).to_string()
        );
        raw.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":2}}}"#).await;
        let (before, answer) = raw.until_answer(3).await;
        assert!(before.is_empty(), "{before:?}");
        assert_eq!(answer["result"]["content"][0]["text"], "4");
    })
    .await;
}

/// A `notifications/cancelled` for a call that already ended, or for a
/// request the session never saw, cancels nothing: the next call runs
/// until its own cancellation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_cancellation_cancels_nothing_and_the_next_call_runs() {
    bounded(async {
        let waiting = Waiting::default();
        let mut raw = Raw::open(&server(&waiting)).await;
        raw.send(r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}"#).await;
        let (_, answer) = raw.until_answer(10).await;
        assert_eq!(answer["result"]["content"][0]["text"], "3");
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10,"reason":"too late"}}"#).await;
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"never-sent"}}"#).await;
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":11}}"#)
            .await;
        // The id of a cancellation that came first is used by a call.
        raw.send(r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"wait","arguments":{}}}"#).await;
        waiting.started.notified().await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(waiting.running.load(Ordering::SeqCst), 1, "still running");
        raw.send(r#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#).await;
        let (before, answer) = raw.until_answer(12).await;
        assert!(before.is_empty(), "{before:?}");
        assert_eq!(answer["result"]["content"][0]["text"], "5");
        assert_eq!(waiting.running.load(Ordering::SeqCst), 1, "still running");
        // Its own cancellation stops it.
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":11}}"#)
            .await;
        assert!(eventually(|| waiting.running.load(Ordering::SeqCst) == 0).await);
        assert!(waiting.cancelled.load(Ordering::SeqCst));
        assert_eq!(waiting.calls.load(Ordering::SeqCst), 1);
    })
    .await;
}

/// The progress notifications of `token` among `messages`: their
/// `progress` values in wire order.
fn progress_of(messages: &[Value], token: &str) -> Vec<f64> {
    messages
        .iter()
        .filter(|m| {
            m["method"] == "notifications/progress" && m["params"]["progressToken"] == token
        })
        .map(|m| m["params"]["progress"].as_f64().unwrap())
        .collect()
}

/// Two calls running at once with one progress token (MCP requires a
/// token unique among active requests): both are answered; the token's
/// notifications are one call's, strictly increasing, and the other call
/// runs without progress. Once they end, the token is free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_progress_token_two_running_calls_share_reports_one_of_them() {
    bounded(async {
        let mut raw = Raw::open(&server(&Waiting::default())).await;
        raw.send(r#"{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"count","arguments":{},"_meta":{"progressToken":"same"}}}"#).await;
        raw.send(r#"{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"count","arguments":{},"_meta":{"progressToken":"same"}}}"#).await;
        let mut seen = Vec::new();
        let mut answered = Vec::new();
        while answered.len() < 2 {
            let message = raw.next().await;
            if let Some(id) = message["id"].as_i64() {
                assert_eq!(message["result"]["content"][0]["text"], "counted", "{message}");
                answered.push(id);
            } else {
                seen.push(message);
            }
        }
        answered.sort_unstable();
        assert_eq!(answered, [20, 21]);
        assert_eq!(progress_of(&seen, "same"), [1.0, 2.0, 3.0], "{seen:?}");
        // The token, free again, reports the next call's progress.
        raw.send(r#"{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"count","arguments":{},"_meta":{"progressToken":"same"}}}"#).await;
        let (before, _) = raw.until_answer(22).await;
        assert_eq!(progress_of(&before, "same"), [1.0, 2.0, 3.0], "{before:?}");
    })
    .await;
}

/// A client, answering nothing of its own.
#[derive(Clone, Default)]
struct Client;

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("hostile-client", "0.0.1"),
        )
    }
}

async fn connect_http(url: &str) -> RunningService<RoleClient, Client> {
    Client
        .serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
        .await
        .unwrap()
}

/// Serves `server` over streamable HTTP on a free port of 127.0.0.1: its
/// URL, and the task accepting connections.
async fn serve_http(server: &McpServer) -> (String, JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let service =
        server.streamable_http(StreamableHttpServerConfig::default().with_sse_keep_alive(None));
    let accepting = tokio::spawn(async move {
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
    (format!("http://{address}/mcp"), accepting)
}

/// A TCP relay in front of `url`'s server: the relay's URL, and a switch
/// that cuts every connection through it at once, as a client process
/// that dies cuts its own.
async fn relay(url: &str) -> (String, impl FnOnce()) {
    let target = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let piping: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
    let pipes = Arc::clone(&piping);
    let accepting = tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let target = target.clone();
            let pipe = tokio::spawn(async move {
                let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
            });
            pipes.lock().unwrap().push(pipe);
        }
    });
    let cut = move || {
        accepting.abort();
        for pipe in piping.lock().unwrap().drain(..) {
            pipe.abort();
        }
    };
    (format!("http://{address}/mcp"), cut)
}

/// A client whose connections are cut while its call runs (no
/// `notifications/cancelled`, no `DELETE` of its session): once the
/// server's disconnect grace passed without the client resuming, the
/// tool's cancellation fires and the call stops, long before the
/// toolbox's timeout (60 s) would stop it; the server serves the next
/// client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_cut_off_mid_call_over_http_cancels_the_call() {
    bounded(async {
        let waiting = Waiting::default();
        let server = server(&waiting);
        let (url, _accepting) = serve_http(&server).await;
        let (through, cut) = relay(&url).await;
        let client = connect_http(&through).await;
        let calling = tokio::spawn({
            let peer = client.peer().clone();
            async move { peer.call_tool(call("wait", json!({}))).await }
        });
        waiting.started.notified().await;
        assert_eq!(waiting.running.load(Ordering::SeqCst), 1);
        cut();
        assert!(
            eventually(|| waiting.running.load(Ordering::SeqCst) == 0).await,
            "the call still runs after its client was cut off"
        );
        assert!(waiting.cancelled.load(Ordering::SeqCst), "it was cancelled");
        assert_eq!(waiting.calls.load(Ordering::SeqCst), 1, "and not retried");
        calling.abort();
        drop(client);
        // Another client is served.
        let other = connect_http(&url).await;
        let sum = other
            .call_tool(call("add", json!({"a": 20, "b": 22})))
            .await
            .unwrap();
        assert_eq!(text(&sum), "42");
        other.cancel().await.unwrap();
    })
    .await;
}

/// A client that closes its session while its call runs (rmcp's client
/// dropped: `DELETE` of the session): the call is cancelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_closes_its_session_mid_call_cancels_the_call() {
    bounded(async {
        let waiting = Waiting::default();
        let server = server(&waiting);
        let (url, _accepting) = serve_http(&server).await;
        let client = connect_http(&url).await;
        let calling = tokio::spawn({
            let peer = client.peer().clone();
            async move { peer.call_tool(call("wait", json!({}))).await }
        });
        waiting.started.notified().await;
        client.cancel().await.unwrap();
        assert!(
            eventually(|| waiting.running.load(Ordering::SeqCst) == 0).await,
            "the call still runs after its client closed its session"
        );
        assert!(waiting.cancelled.load(Ordering::SeqCst));
        let answer = calling.await.unwrap();
        assert!(
            matches!(
                answer,
                Err(ServiceError::TransportClosed | ServiceError::Cancelled { .. })
            ),
            "{answer:?}"
        );
    })
    .await;
}
