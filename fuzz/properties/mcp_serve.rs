//! A served toolbox's MCP JSON-RPC (`McpServer`, one session over an
//! in-memory duplex, newline-delimited JSON-RPC as over stdio), fed a
//! client's lines on a current-thread tokio runtime with paused time,
//! against a fixed set of tools: `add` (sync), `echo` (async), `fail`
//! (fails), `count` (reports progress and logs), `wait` (sleeps a second
//! unless cancelled) and `greet` (parks on a request; the client asked
//! declines it).
//!
//! The input is the client's bytes, one JSON-RPC message a line, sent after
//! the property's own `initialize` request and `notifications/initialized`.
//! An input that begins with the line `#raw` is sent as it is, with no
//! handshake. A line `#settle` is not sent: the client waits there (11 s of
//! paused time) until every call sent before has ended, which splits the
//! input in segments.
//!
//! What rmcp makes of a line is its transport's rule (its
//! `AsyncRwTransport`), checked here line by line: a line rmcp's own message
//! type (`ClientJsonRpcMessage`) reads is a message, and what the session
//! does with it is the property; an empty line, a line serde_json finds no
//! JSON in (a syntax error, or the end too soon: `1e400` is one) and a
//! notification MCP does not define are dropped without a word; any other
//! JSON (a batch array, a wrong `jsonrpc`, an id that is a fraction or
//! `null`) is answered with exactly
//! `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}`,
//! which has no `id`.
//!
//! After the handshake:
//!
//! - every request read gets at most one response with its id (counting a
//!   reused id once a request), a result or an error, and no response
//!   carries an id no request had; a request gets exactly one, before its
//!   segment ends, when no other request of its segment has its id (rmcp
//!   keeps one cancellation per id, and drops the answer of a request whose
//!   id another took over) and no `notifications/cancelled` after it in
//!   its segment names it (rmcp drops a cancelled request's answer, as MCP
//!   asks; a cancellation of a call that ended, or not yet sent, changes
//!   nothing);
//! - notifications get no response; what the server sends unasked is
//!   `notifications/progress` (for a token a request carried),
//!   `notifications/message` or an `elicitation/create` request;
//! - a request rmcp reads as no MCP method (one in the session's own
//!   lifecycle, as in the next point) is, for a method the server
//!   serves, an `invalid_params` error saying what did not fit (``invalid
//!   params for `tools/call`...``), and for any other `method_not_found`
//!   with the method as its message;
//! - for a request with no `_meta` of MCP's request-by-request lifecycle,
//!   before any `initialize` of the input (which rmcp answers by other
//!   rules, or by a protocol version the client chose): `ping` is
//!   answered `{}`; `tools/list` (no cursor) lists the six tools
//!   in order; a `tools/call` of a name the server does not have is an
//!   `invalid_params` error naming it; of a known tool with arguments that
//!   fit (decided from the request's JSON alone), its known output:
//!   `add`'s sum, `echo`'s text, `fail`'s error, `count`'s and `wait`'s
//!   words, and for `count` with a progress token no other request uses,
//!   the reports 1, 2 and 3 of 3 (not the 1.5 that goes back), each before
//!   the answer, none for a token of another segment;
//! - with no `logging/setLevel` and no cancellation in the input, every
//!   `count` call logs its one info line (one whose id another request of
//!   its segment reused: one line or none, since rmcp cancels it when the
//!   other is answered).
//!
//! Always, with or without the handshake: every line the server writes is
//! one JSON-RPC message, an answer under an id some request had, at most
//! once a request, or an `Invalid request` for a line of JSON rmcp cannot
//! read (at most one a line without the handshake: before `initialize`, a
//! message that is not a request ends the session unread); the session
//! never panics and ends within a bounded (paused) time once the client
//! closes its side.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, GetMeta, JsonRpcMessage,
    JsonRpcRequest,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolresult::canonical::Request;
use toolresult::mcp::McpServer;
use toolresult::tool::{self, CallContext, LogLevel};
use toolresult::toolbox::Toolbox;
use toolresult::{ToolError, ToolResult};

use super::providers;

/// The line that makes an input go without the handshake.
const RAW: &[u8] = b"#raw";

/// A line of the input that is not sent: the client waits [`SETTLE`]
/// there, long enough for every call sent before to end (past the
/// toolbox's timeout of 10 s).
const SETTLE_LINE: &[u8] = b"#settle";
const SETTLE: Duration = Duration::from_secs(11);

/// The longest the client waits, in paused time, for the answers it
/// expects, and then for the server to close once the client has.
const DEADLINE: Duration = Duration::from_secs(600);

/// The `initialize` request the property sends first (its id is one no
/// fuzzed request is counted under: the answer is read apart).
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":"toolresult-fuzz-initialize","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"toolresult-fuzz","version":"0.0.0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// rmcp's answer to JSON that is not a message it reads.
const INVALID_REQUEST: &str =
    r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}"#;

/// The methods the server serves.
const SERVED: [&str; 5] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "logging/setLevel",
];

/// The tools, in the order `tools/list` gives them.
const TOOLS: [&str; 6] = ["add", "echo", "fail", "count", "wait", "greet"];

#[derive(Deserialize, JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[derive(Deserialize, JsonSchema)]
struct Echo {
    text: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct Nothing {}

fn toolbox() -> Result<Toolbox, String> {
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(10));
    let e = |e: toolresult::tool::InvalidToolName| e.to_string();
    let r = |e: toolresult::toolbox::RegisterError| e.to_string();
    toolbox
        .register(
            tool::function("add", "Add two integers", |x: Add| {
                ToolResult::<i64>::ok(x.a.wrapping_add(x.b))
            })
            .map_err(e)?,
        )
        .map_err(r)?;
    toolbox
        .register(
            tool::function("echo", "Echo text", |x: Echo| async move {
                ToolResult::<String>::ok(x.text.unwrap_or_default())
            })
            .map_err(e)?,
        )
        .map_err(r)?;
    toolbox
        .register(
            tool::function("fail", "Always fails", |_: Nothing| {
                ToolResult::<()>::fail(ToolError::new("it always fails"))
            })
            .map_err(e)?,
        )
        .map_err(r)?;
    toolbox
        .register(
            tool::function(
                "count",
                "Count to three",
                |_: Nothing, cx: CallContext<'static>| async move {
                    for (done, message) in
                        [(1.0, "one"), (2.0, "two"), (1.5, "back"), (3.0, "three")]
                    {
                        cx.progress(done, Some(3.0), Some(message));
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                    cx.log(LogLevel::Info, "counted to three");
                    "counted"
                },
            )
            .map_err(e)?,
        )
        .map_err(r)?;
    toolbox
        .register(
            tool::function(
                "wait",
                "Wait a second",
                |_: Nothing, cx: CallContext<'static>| async move {
                    tokio::select! {
                        () = cx.cancelled() => "stopped",
                        () = tokio::time::sleep(Duration::from_secs(1)) => "waited",
                    }
                },
            )
            .map_err(e)?,
        )
        .map_err(r)?;
    toolbox
        .register(
            tool::function(
                "greet",
                "Greet the user by name",
                |_: Nothing, cx: &CallContext| match cx.answer() {
                    Some(answer) if answer.ok => ToolResult::<String>::ok("hello".to_owned()),
                    Some(answer) => ToolResult::ok(format!(
                        "no name: {}",
                        answer.reason.as_deref().unwrap_or("none")
                    )),
                    None => ToolResult::pending(Request::input("Your name?").with_id("ask-name")),
                },
            )
            .map_err(e)?,
        )
        .map_err(r)?;
    Ok(toolbox)
}

static SERVER: LazyLock<McpServer> = LazyLock::new(|| match toolbox() {
    Ok(toolbox) => providers::mcp_server(toolbox),
    Err(e) => panic!("the fixed tools register: {e}"),
});

/// What rmcp's transport makes of one line.
enum Line {
    /// Nothing: an empty line, not JSON, or a notification it ignores.
    Dropped,
    /// JSON it cannot read as a message: an `Invalid request` error.
    Invalid,
    /// A message.
    Message(Box<ClientJsonRpcMessage>),
}

/// rmcp's rule for one line (`AsyncRwTransport::receive`): the `\r` before
/// the newline and a UTF-8 byte order mark go; then the line is its
/// message, or is dropped when serde_json finds no JSON in it (a syntax
/// error, or the end too soon) or it is a notification rmcp ignores (a
/// method MCP does not define, without an id; an undefined
/// `notifications/...`), or is `Invalid`.
fn classify(line: &[u8]) -> Line {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.is_empty() {
        return Line::Dropped;
    }
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(message) => return Line::Message(Box::new(message)),
        Err(error) => error,
    };
    if std::str::from_utf8(line).is_ok()
        && let Ok(value) = serde_json::from_slice::<Value>(line)
        && let Some(method) = value.get("method").and_then(Value::as_str)
        && ignored_notification(value.get("id").is_none(), method)
    {
        return Line::Dropped;
    }
    match error.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => Line::Dropped,
        serde_json::error::Category::Data | serde_json::error::Category::Io => Line::Invalid,
    }
}

/// MCP's notifications, as rmcp 3 knows them.
const NOTIFICATIONS: [&str; 10] = [
    "notifications/cancelled",
    "notifications/initialized",
    "notifications/message",
    "notifications/progress",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
    "notifications/roots/list_changed",
    "notifications/subscriptions/acknowledged",
    "notifications/tools/list_changed",
];

/// MCP's requests, as rmcp 3 knows them.
const REQUESTS: [&str; 18] = [
    "initialize",
    "ping",
    "server/discover",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/templates/list",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
    "completion/complete",
    "elicitation/create",
    "logging/setLevel",
    "roots/list",
    "sampling/createMessage",
];

/// A message rmcp cannot read that it drops rather than answers.
fn ignored_notification(without_id: bool, method: &str) -> bool {
    let notification = NOTIFICATIONS.contains(&method);
    (without_id && !notification && !REQUESTS.contains(&method))
        || (method.starts_with("notifications/") && !notification)
}

/// The key of a JSON-RPC id (a number and a string differ).
fn key(id: &impl serde::Serialize) -> String {
    serde_json::to_string(id).unwrap_or_else(|e| panic!("an id serialises: {e}"))
}

/// A request the client sent, as read.
struct Sent {
    id: String,
    request: ClientRequest,
    /// Its `_meta.progressToken`.
    token: Option<String>,
    /// The segment of the input it was sent in (between `#settle` lines),
    /// and its line.
    segment: usize,
    at: usize,
    /// Sent in the session's own lifecycle: with no `_meta` of MCP's
    /// request-by-request lifecycle (`io.modelcontextprotocol/...` keys,
    /// which rmcp checks and answers by their own rules), and before any
    /// `initialize` of the input (which may change the session's protocol
    /// version).
    plain: bool,
}

/// Whether a request's line carries `_meta` of MCP's request-by-request
/// lifecycle (2026-07-28).
fn inline_lifecycle(line: &[u8]) -> bool {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let Ok(value) = serde_json::from_slice::<Value>(line) else {
        return true;
    };
    value
        .pointer("/params/_meta")
        .and_then(Value::as_object)
        .is_some_and(|meta| {
            meta.keys()
                .any(|key| key.starts_with("io.modelcontextprotocol/"))
        })
}

/// A `notifications/cancelled` the client sent.
struct Cancel {
    id: String,
    segment: usize,
    at: usize,
}

/// What the client's lines ask, as rmcp reads them.
#[derive(Default)]
struct Model {
    requests: Vec<Sent>,
    cancels: Vec<Cancel>,
    invalid: usize,
    set_level: bool,
    /// The client answered a server's request itself.
    answered: bool,
}

impl Model {
    fn of(lines: &[&[u8]]) -> Self {
        let mut model = Model::default();
        let mut segment = 0;
        let mut reinitialized = false;
        for (at, line) in lines.iter().enumerate() {
            if *line == SETTLE_LINE {
                segment += 1;
                continue;
            }
            match classify(line) {
                Line::Dropped => {}
                Line::Invalid => model.invalid += 1,
                Line::Message(message) => match *message {
                    JsonRpcMessage::Request(JsonRpcRequest { id, request, .. }) => {
                        let token = request.get_meta().get_progress_token().map(|t| key(&t));
                        model.set_level |= matches!(request, ClientRequest::SetLevelRequest(_));
                        let plain = !reinitialized && !inline_lifecycle(line);
                        reinitialized |= matches!(request, ClientRequest::InitializeRequest(_));
                        model.requests.push(Sent {
                            id: key(&id),
                            request,
                            token,
                            segment,
                            at,
                            plain,
                        });
                    }
                    JsonRpcMessage::Notification(notification) => {
                        if let ClientNotification::CancelledNotification(cancelled) =
                            notification.notification
                            && let Some(id) = cancelled.params.request_id.as_ref()
                        {
                            model.cancels.push(Cancel {
                                id: key(id),
                                segment,
                                at,
                            });
                        }
                    }
                    JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_) => {
                        model.answered = true;
                    }
                },
            }
        }
        model
    }

    fn uses(&self, id: &str) -> usize {
        self.requests.iter().filter(|sent| sent.id == id).count()
    }

    /// A request that must be answered exactly once, before the input's
    /// next `#settle` ends: no other request of its segment has its id (the
    /// calls of a segment end before the next), and no cancellation after
    /// it in its segment names it (one before it finds nothing to cancel;
    /// one in a later segment, a call that has ended).
    fn answered_once(&self, sent: &Sent) -> bool {
        let reused = self.requests.iter().any(|other| {
            other.segment == sent.segment && other.id == sent.id && other.at != sent.at
        });
        let cancelled = self.cancels.iter().any(|cancel| {
            cancel.segment == sent.segment && cancel.at > sent.at && cancel.id == sent.id
        });
        !reused && !cancelled
    }

    /// A progress token one request of `segment` alone carries.
    fn own_token(&self, segment: usize, token: &str) -> bool {
        self.requests
            .iter()
            .filter(|sent| sent.segment == segment && sent.token.as_deref() == Some(token))
            .count()
            == 1
    }
}

/// What the server wrote: each line, as written and as JSON; and how many
/// lines it had written when each `#settle` of the input ended.
#[derive(Default)]
struct Seen {
    lines: Vec<Value>,
    texts: Vec<String>,
    settled: Vec<usize>,
}

/// The input's lines after the `#raw` line, if it has one.
fn raw(data: &[u8]) -> Option<&[u8]> {
    let rest = data.strip_prefix(RAW)?;
    match rest {
        [] => Some(rest),
        [b'\n', rest @ ..] => Some(rest),
        [b'\r', b'\n', rest @ ..] => Some(rest),
        _ => None,
    }
}

pub fn check(data: &[u8]) {
    let (handshake, body) = match raw(data) {
        Some(body) => (false, body),
        None => (true, data),
    };
    let lines: Vec<&[u8]> = body.split(|b| *b == b'\n').collect();
    let model = Model::of(&lines);
    let expected: Vec<String> = if handshake {
        model
            .requests
            .iter()
            .filter(|sent| model.answered_once(sent))
            .map(|sent| sent.id.clone())
            .collect()
    } else {
        Vec::new()
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap_or_else(|e| panic!("a current-thread runtime: {e}"));
    let (seen, served) = runtime.block_on(run(handshake, body, expected));
    match served {
        Ok(providers::Served::Closed) => {}
        Ok(providers::Served::NotStarted) if !handshake => {}
        other => panic!("the session ends when the client closes: {other:?}"),
    }
    let mut lines = seen.lines.iter().zip(&seen.texts);
    if handshake {
        let Some((initialized, _)) = lines.next() else {
            panic!("no answer to initialize");
        };
        assert_eq!(
            initialized.get("id"),
            Some(&json!("toolresult-fuzz-initialize"))
        );
        assert_eq!(
            initialized.pointer("/result/serverInfo/name"),
            Some(&json!("toolresult-fuzz")),
            "{initialized}"
        );
        assert_eq!(
            initialized.pointer("/result/protocolVersion"),
            Some(&json!("2025-06-18")),
            "{initialized}"
        );
    }
    let (written, texts): (Vec<&Value>, Vec<&String>) = lines.unzip();
    check_shapes(&written, &texts, &model, handshake);
    if handshake {
        // The lines the server wrote in each segment of the input.
        let mut segments = Vec::new();
        let mut from = 0;
        for settled in &seen.settled {
            let to = settled.saturating_sub(1).clamp(from, written.len());
            segments.push(&written[from..to]);
            from = to;
        }
        segments.push(&written[from..]);
        check_answers(&written, &segments, &model);
    }
}

/// The client's side of one session: writes the lines (after the
/// handshake), declines every `elicitation/create`, closes once every
/// request in `expected` is answered (or the deadline passes), then reads
/// until the server closes.
async fn run(
    handshake: bool,
    body: &[u8],
    expected: Vec<String>,
) -> (Seen, Result<providers::Served, String>) {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(providers::serve_mcp(SERVER.clone(), server_end));
    let seen = Arc::new(std::sync::Mutex::new(Seen::default()));
    let (read, write) = tokio::io::split(client_end);
    let write = Arc::new(tokio::sync::Mutex::new(write));
    let (all_answered, answered) = tokio::sync::oneshot::channel::<()>();
    let mut input = Vec::with_capacity(body.len() + INITIALIZE.len() + INITIALIZED.len() + 3);
    if handshake {
        input.extend_from_slice(INITIALIZE.as_bytes());
        input.push(b'\n');
        input.extend_from_slice(INITIALIZED.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(body);
    input.push(b'\n');
    let writer = {
        let write = Arc::clone(&write);
        let seen = Arc::clone(&seen);
        tokio::spawn(async move {
            // Written a line at a time, so the client's answers to the
            // server go between lines, never inside one.
            for line in input.split_inclusive(|b| *b == b'\n') {
                if line.strip_suffix(b"\n") == Some(SETTLE_LINE) {
                    tokio::time::sleep(SETTLE).await;
                    let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
                    let written = seen.lines.len();
                    seen.settled.push(written);
                    continue;
                }
                if write.lock().await.write_all(line).await.is_err() {
                    return;
                }
            }
            let _ = tokio::time::timeout(DEADLINE, answered).await;
            let _ = write.lock().await.shutdown().await;
        })
    };
    let mut waiting: HashMap<String, usize> = HashMap::new();
    for id in expected {
        *waiting.entry(id).or_default() += 1;
    }
    let mut all_answered = Some(all_answered);
    if waiting.is_empty()
        && let Some(done) = all_answered.take()
    {
        let _ = done.send(());
    }
    let mut reader = BufReader::new(read);
    let reading = async {
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line).await {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => panic!("reading the server: {e}"),
            }
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let value: Value = serde_json::from_slice(text).unwrap_or_else(|e| {
                panic!(
                    "the server wrote a line that is not JSON ({e}): {}",
                    String::from_utf8_lossy(text)
                )
            });
            if value.get("method").and_then(Value::as_str) == Some("elicitation/create")
                && let Some(id) = value.get("id")
            {
                let decline = json!({"jsonrpc": "2.0", "id": id, "result": {"action": "decline"}});
                let mut write = write.lock().await;
                let _ = write.write_all(format!("{decline}\n").as_bytes()).await;
            }
            if value.get("method").is_none()
                && let Some(id) = value.get("id")
                && let Some(left) = waiting.get_mut(&key(id))
            {
                *left = left.saturating_sub(1);
                if *left == 0 {
                    waiting.remove(&key(id));
                }
                if waiting.is_empty()
                    && let Some(done) = all_answered.take()
                {
                    let _ = done.send(());
                }
            }
            let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
            seen.lines.push(value);
            seen.texts.push(String::from_utf8_lossy(text).into_owned());
        }
    };
    if tokio::time::timeout(DEADLINE * 2, reading).await.is_err() {
        panic!("the server did not close within {:?}", DEADLINE * 2);
    }
    let _ = writer.await;
    let served = match serving.await {
        Ok(served) => served,
        Err(e) => Err(format!("the session's task: {e}")),
    };
    let seen = std::mem::take(&mut *seen.lock().unwrap_or_else(|e| e.into_inner()));
    (seen, served)
}

/// Every line is one JSON-RPC message, and answers only what was asked.
fn check_shapes(written: &[&Value], texts: &[&String], model: &Model, handshake: bool) {
    let mut invalid = 0;
    let mut answers: HashMap<String, usize> = HashMap::new();
    for (value, text) in written.iter().zip(texts) {
        let Value::Object(object) = value else {
            panic!("not a JSON-RPC message: {value}");
        };
        assert_eq!(object.get("jsonrpc"), Some(&json!("2.0")), "{value}");
        match (object.get("method"), object.get("id")) {
            (Some(method), Some(_)) => {
                assert_eq!(
                    method, "elicitation/create",
                    "a request to the client: {value}"
                )
            }
            (Some(method), None) => match method.as_str() {
                Some("notifications/progress") => {
                    let token = value
                        .pointer("/params/progressToken")
                        .map(key)
                        .unwrap_or_else(|| panic!("progress without a token: {value}"));
                    assert!(
                        model
                            .requests
                            .iter()
                            .any(|sent| sent.token.as_ref() == Some(&token)),
                        "progress for a token no request carried: {value}"
                    );
                }
                Some("notifications/message") => {}
                _ => panic!("an unexpected notification: {value}"),
            },
            (None, id) => {
                let result = object.contains_key("result");
                let error = object.get("error");
                assert!(result != error.is_some(), "a result or an error: {value}");
                if let Some(error) = error {
                    assert!(error.get("code").is_some_and(Value::is_i64), "{value}");
                    assert!(
                        error.get("message").is_some_and(Value::is_string),
                        "{value}"
                    );
                }
                match id {
                    None => {
                        assert_eq!(text.as_str(), INVALID_REQUEST);
                        invalid += 1;
                    }
                    Some(id) => *answers.entry(key(id)).or_default() += 1,
                }
            }
        }
    }
    if handshake {
        assert_eq!(
            invalid, model.invalid,
            "one `Invalid request` for each line of JSON rmcp cannot read"
        );
    } else {
        // Before `initialize`, a message that is not a request ends the
        // session, and the lines after it are never read.
        assert!(
            invalid <= model.invalid,
            "{invalid} `Invalid request` for {} lines of JSON rmcp cannot read",
            model.invalid
        );
    }
    for (id, count) in &answers {
        let uses = model.uses(id);
        assert!(
            *count <= uses,
            "{count} answers to id {id}, sent in {uses} requests"
        );
    }
}

/// After the handshake: each request answered as the module says.
fn check_answers(written: &[&Value], segments: &[&[&Value]], model: &Model) {
    let answers = |lines: &[&Value], id: &str| -> Vec<usize> {
        lines
            .iter()
            .enumerate()
            .filter(|(_, value)| {
                value.get("method").is_none() && value.get("id").map(key).as_deref() == Some(id)
            })
            .map(|(at, _)| at)
            .collect()
    };
    for sent in model
        .requests
        .iter()
        .filter(|sent| model.answered_once(sent))
    {
        let Some(written) = segments.get(sent.segment) else {
            panic!("no segment {}", sent.segment);
        };
        let found = answers(written, &sent.id);
        let [at] = found[..] else {
            panic!(
                "request {} ({}) of segment {} answered {} times in it",
                sent.id,
                sent.request.method(),
                sent.segment,
                found.len()
            );
        };
        let answer = written[at];
        if !sent.plain {
            continue;
        }
        match &sent.request {
            ClientRequest::PingRequest(_) => {
                assert_eq!(answer.get("result"), Some(&json!({})), "{answer}");
            }
            ClientRequest::ListToolsRequest(list)
                if list.params.as_ref().is_none_or(|p| p.cursor.is_none()) =>
            {
                let names: Vec<&str> = answer
                    .pointer("/result/tools")
                    .and_then(Value::as_array)
                    .map(|tools| {
                        tools
                            .iter()
                            .filter_map(|tool| tool.get("name").and_then(Value::as_str))
                            .collect()
                    })
                    .unwrap_or_default();
                assert_eq!(names, TOOLS, "{answer}");
            }
            ClientRequest::CustomRequest(custom) => {
                // A method of no MCP shape: for one the server serves, its
                // params did not fit.
                let method = custom.method.as_str();
                if SERVED.contains(&method) {
                    assert_eq!(
                        answer.pointer("/error/code"),
                        Some(&json!(-32602)),
                        "{answer}"
                    );
                    let message = answer.pointer("/error/message").and_then(Value::as_str);
                    assert!(
                        message.is_some_and(
                            |m| m.starts_with(&format!("invalid params for `{method}`"))
                        ),
                        "{answer}"
                    );
                } else {
                    assert_eq!(
                        answer.get("error"),
                        Some(&json!({"code": -32601, "message": method})),
                        "{answer}"
                    );
                }
            }
            ClientRequest::CallToolRequest(call) => {
                let name = &*call.params.name;
                let arguments = Value::Object(call.params.arguments.clone().unwrap_or_default());
                check_call(name, &arguments, answer, model);
                if name == "count"
                    && let Some(token) = &sent.token
                    && model.own_token(sent.segment, token)
                {
                    let reports: Vec<(usize, &Value)> = written
                        .iter()
                        .enumerate()
                        .filter(|(_, value)| {
                            value.get("method") == Some(&json!("notifications/progress"))
                                && value.pointer("/params/progressToken").map(key).as_ref()
                                    == Some(token)
                        })
                        .map(|(at, value)| (at, &value["params"]))
                        .collect();
                    let token_value: Value = serde_json::from_str(token)
                        .unwrap_or_else(|e| panic!("a token is JSON: {e}"));
                    let want: Vec<Value> = [(1.0, "one"), (2.0, "two"), (3.0, "three")]
                        .iter()
                        .map(|(done, message)| {
                            json!({"progressToken": token_value, "progress": done, "total": 3.0, "message": message})
                        })
                        .collect();
                    let got: Vec<Value> = reports.iter().map(|(_, p)| (*p).clone()).collect();
                    assert_eq!(got, want, "count's progress under token {token}");
                    assert!(
                        reports.iter().all(|(report, _)| *report < at),
                        "count's progress goes before its answer"
                    );
                }
            }
            _ => {}
        }
    }
    if !model.set_level && model.cancels.is_empty() {
        let count_calls = || {
            model.requests.iter().filter(|sent| {
                matches!(&sent.request, ClientRequest::CallToolRequest(call) if call.params.name == "count")
            })
        };
        // A call under an id another request of its segment took over may
        // be cancelled by that one's answer (rmcp keeps one cancellation
        // per id): it logs its line, or not.
        let must = count_calls()
            .filter(|sent| sent.plain && model.answered_once(sent))
            .count();
        let may = count_calls().count();
        let logged = written
            .iter()
            .filter(|value| value.get("method") == Some(&json!("notifications/message")))
            .inspect(|value| {
                assert_eq!(
                    value.get("params"),
                    Some(&json!({"level": "info", "logger": "count", "data": "counted to three"})),
                    "{value}"
                );
            })
            .count();
        assert!(
            (must..=may).contains(&logged),
            "{logged} info lines for {must} `count` calls of their own ids and {may} in all"
        );
    }
}

/// The answer to a `tools/call` of `name` with `arguments` (as read).
fn check_call(name: &str, arguments: &Value, answer: &Value, model: &Model) {
    let text = |text: &str, is_error: bool| json!({"content": [{"type": "text", "text": text}], "isError": is_error});
    let result = answer.get("result");
    let want = match name {
        "add" => match (
            arguments.get("a").and_then(Value::as_i64),
            arguments.get("b").and_then(Value::as_i64),
        ) {
            (Some(a), Some(b)) => text(&a.wrapping_add(b).to_string(), false),
            _ => return,
        },
        "echo" => match arguments.get("text") {
            None | Some(Value::Null) => text("", false),
            Some(Value::String(s)) => text(s, false),
            Some(_) => return,
        },
        "fail" => text(r#"{"error":{"message":"it always fails"}}"#, true),
        "count" => text("counted", false),
        "wait" => text("waited", false),
        "greet" => {
            if model.answered {
                return;
            }
            // Declined by this client, or (a client that cannot be asked)
            // the pending result: an error whose text is the prompt.
            let declined = text("no name: decline", false);
            let pending = text("Your name?", true);
            assert!(
                result == Some(&declined) || result == Some(&pending),
                "greet: {answer}"
            );
            return;
        }
        // A tool the server does not have: the toolbox's answer, as in
        // any turn, the name cut to 64 characters and escaped.
        _ => {
            let cut = match name.char_indices().nth(64) {
                Some((at, _)) => format!("{}…", &name[..at]),
                None => name.to_owned(),
            };
            let shown: String = cut.escape_debug().collect();
            let error = json!({"error": {
                "message": format!("there is no tool named `{shown}`"),
                "suggestion": "call one of: `add`, `echo`, `fail`, `count`, `wait`, `greet`",
            }});
            text(&error.to_string(), true)
        }
    };
    assert_eq!(result, Some(&want), "{name} {arguments}: {answer}");
}
