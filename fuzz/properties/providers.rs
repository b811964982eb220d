//! The one place the properties call the crate's provider, tool and
//! toolbox APIs: reading a provider's calls, rendering and replying in each
//! provider's style, reading and writing MCP results, calling a tool and
//! running a toolbox turn. Every property goes through these functions, so
//! a change to those APIs is followed here alone.

use std::future::Future;
use std::task::{Context, Poll, Waker};

use serde_json::Value;
use serde_json::value::RawValue;
use toolresult::Lowered;
use toolresult::canonical::PartLimit;
use toolresult::canonical::ToolResult;
use toolresult::provider::{
    Answered, Anthropic, Call, CallRef, CallStream, ConvertError, Gemini, Mcp, OpenAiChat,
    OpenAiResponses, PartPolicy, Provider, ReadCallsError, StreamEnd,
};
use toolresult::tool::ArtifactReader;
use toolresult::tool::{Arguments, CallContext, Tool};
use toolresult::toolbox::{CallOutcome, Toolbox};

/// A provider's dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// OpenAI Chat Completions.
    OpenaiChat,
    /// OpenAI Responses.
    OpenaiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Gemini.
    Gemini,
    /// MCP.
    Mcp,
}

impl Style {
    /// Every style.
    pub const ALL: [Style; 5] = [
        Style::OpenaiChat,
        Style::OpenaiResponses,
        Style::Anthropic,
        Style::Gemini,
        Style::Mcp,
    ];

    /// How the style's read errors begin (`{style}: `).
    pub fn error_prefix(self) -> &'static str {
        match self {
            Style::OpenaiChat => "openai chat message: ",
            Style::OpenaiResponses => "openai responses: ",
            Style::Anthropic => "anthropic message: ",
            Style::Gemini => "gemini content: ",
            Style::Mcp => "mcp tools/call request: ",
        }
    }
}

/// The calls of one assistant turn, read by the style's reader.
pub fn read_calls(style: Style, message: &str) -> Result<Vec<Call>, ReadCallsError> {
    match style {
        Style::OpenaiChat => OpenAiChat::read_calls(message),
        Style::OpenaiResponses => OpenAiResponses::read_calls(message),
        Style::Anthropic => Anthropic::read_calls(message),
        Style::Gemini => Gemini::read_calls(message),
        Style::Mcp => Mcp::read_calls(message),
    }
}

/// The style's reply to a turn under `policy`, as JSON, or its error.
fn reply_json<A: Answered>(
    style: Style,
    answers: &[A],
    policy: PartPolicy,
) -> Result<Value, String> {
    fn json<P: Provider, A: Answered>(answers: &[A], policy: PartPolicy) -> Result<Value, String> {
        let reply = P::reply(answers, policy).map_err(|e| e.to_string())?;
        Ok(serde_json::to_value(reply).unwrap_or_else(|e| panic!("a reply serialises: {e}")))
    }
    match style {
        Style::OpenaiChat => json::<OpenAiChat, A>(answers, policy),
        Style::OpenaiResponses => json::<OpenAiResponses, A>(answers, policy),
        Style::Anthropic => json::<Anthropic, A>(answers, policy),
        Style::Gemini => json::<Gemini, A>(answers, policy),
        Style::Mcp => json::<Mcp, A>(answers, policy),
    }
}

/// The style's reply to a turn, as JSON, with `policy` for parts.
pub fn reply<A: Answered>(style: Style, answers: &[A], policy: PartPolicy) -> Value {
    reply_json(style, answers, policy)
        .unwrap_or_else(|e| panic!("{style:?} renders the turn under {policy:?}: {e}"))
}

/// The style's reply under [`PartPolicy::Strict`]: its error message when
/// a part cannot be carried (MCP carries every part).
pub fn reply_strict<A: Answered>(style: Style, answers: &[A]) -> Result<Value, String> {
    reply_json(style, answers, PartPolicy::Strict)
}

/// One result as the style's own block (Responses, Anthropic, Gemini; the
/// properties read Chat and MCP through their whole-turn replies), under
/// `policy`.
pub fn render_one(
    style: Style,
    call: CallRef<'_>,
    result: &ToolResult,
    policy: PartPolicy,
) -> Option<Result<Value, String>> {
    fn json<P: Provider>(
        answer: &(CallRef<'_>, &ToolResult),
        policy: PartPolicy,
    ) -> Result<Value, String> {
        let block = P::render(answer, policy).map_err(|e| e.to_string())?;
        Ok(serde_json::to_value(block).unwrap_or_else(|e| panic!("a block serialises: {e}")))
    }
    let answer = (call, result);
    Some(match style {
        Style::OpenaiResponses => json::<OpenAiResponses>(&answer, policy),
        Style::Anthropic => json::<Anthropic>(&answer, policy),
        Style::Gemini => json::<Gemini>(&answer, policy),
        Style::OpenaiChat | Style::Mcp => return None,
    })
}

/// An MCP `CallToolResult` read from its JSON.
pub fn mcp_read(value: &Value) -> Result<ToolResult, ConvertError> {
    Mcp::read_result(value.to_string(), PartLimit::default())
}

/// A result as an MCP `CallToolResult`, with `structured` as its
/// `structuredContent`.
pub fn mcp_render(result: &ToolResult, structured: Option<&RawValue>) -> Value {
    struct Structured<'a>(&'a ToolResult, Option<&'a RawValue>);
    impl Answered for Structured<'_> {
        fn call(&self) -> CallRef<'_> {
            CallRef::new("", "")
        }
        fn result(&self) -> &ToolResult {
            self.0
        }
        fn structured_content(&self) -> Option<&RawValue> {
            self.1
        }
    }
    let answer = Structured(result, structured);
    let block = Mcp::render(&answer, PartPolicy::Strict)
        .unwrap_or_else(|e| panic!("MCP carries every part: {e}"));
    serde_json::to_value(block).unwrap_or_else(|e| panic!("MCP JSON serialises: {e}"))
}

/// A tool's future, ready at its first poll (a synchronous body).
fn ready(future: impl Future<Output = Lowered>) -> Lowered {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(lowered) => lowered,
        Poll::Pending => panic!("a tool with a synchronous body is ready at once"),
    }
}

/// A tool called with `text` as a provider's `arguments` string.
pub fn call_text(tool: &dyn Tool, text: &str) -> Lowered {
    let cx = CallContext::new("call_1", tool.name());
    ready(tool.call(&Arguments::Text(text.to_owned()), &cx))
}

/// A tool called with the JSON value of its arguments.
pub fn call_value(tool: &dyn Tool, args: Value) -> Lowered {
    let cx = CallContext::new("call_1", tool.name());
    ready(tool.call(&Arguments::Json(args), &cx))
}

/// A synchronous tool's answer, taken without polling (`None` for an
/// async tool, whose call must be awaited).
pub fn call_blocking(tool: &dyn Tool, args: Value) -> Option<Lowered> {
    let cx = CallContext::new("call_1", tool.name());
    tool.call(&Arguments::Json(args), &cx).now().ok()
}

/// The artifact reader called with `args`.
pub fn read_artifact(reader: &ArtifactReader, args: Value) -> Lowered {
    call_value(reader, args)
}

/// A turn of `calls` run by `toolbox` on a current-thread tokio runtime
/// whose time is paused (a sleep or a timeout passes at once).
pub fn run_turn(toolbox: &Toolbox, calls: Vec<Call>) -> Vec<CallOutcome> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap_or_else(|e| panic!("a current-thread runtime: {e}"));
    runtime.block_on(toolbox.run(calls))
}

/// How a served MCP session ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Served {
    /// It ran until the client closed its side.
    Closed,
    /// Its handshake failed, so it never ran.
    NotStarted,
}

/// `toolbox` as an MCP server, named `toolresult-fuzz`.
pub fn mcp_server(toolbox: Toolbox) -> toolresult::mcp::McpServer {
    toolresult::mcp::McpServer::new(toolbox)
        .unwrap_or_else(|e| panic!("the fixed tools declare: {e}"))
        .with_info("toolresult-fuzz", "0.0.0")
}

/// `toolbox` as an MCP server whose 2026-07-28 parked calls answer
/// input-required results, their state sealed with `key` for a minute.
pub fn mcp_server_input_required(toolbox: Toolbox, key: [u8; 32]) -> toolresult::mcp::McpServer {
    let keyring = toolresult::seal::Keyring::new(key)
        .unwrap_or_else(|e| panic!("a key of 32 bytes is long enough: {e}"));
    mcp_server(toolbox).input_required(keyring, std::time::Duration::from_secs(60))
}

/// One session of `server` over `stream` (newline-delimited JSON-RPC, as
/// over stdio), until the client closes it; an error when the session
/// stopped for any other reason (a panic in its task, say).
pub async fn serve_mcp(
    server: toolresult::mcp::McpServer,
    stream: tokio::io::DuplexStream,
) -> Result<Served, String> {
    use rmcp::ServiceExt;
    let Ok(running) = server.session().serve(stream).await else {
        return Ok(Served::NotStarted);
    };
    match running.waiting().await {
        Ok(rmcp::service::QuitReason::Closed) => Ok(Served::Closed),
        Ok(other) => Err(format!("the session quit: {other:?}")),
        Err(e) => Err(format!("the session's task: {e}")),
    }
}

/// A stream read by the style's `CallStream`, one event's data a line.
#[derive(Debug, PartialEq)]
pub struct StreamRead {
    /// The calls given out as they became whole, in order.
    pub given: Vec<Call>,
    /// Why the stream ended.
    pub end: StreamEnd,
    /// The calls to run.
    pub calls: Vec<Call>,
    /// The assembled message, serialised.
    pub message: String,
}

/// Reads `events` with the style's stream reader, as text or as parsed
/// values (`None` when an event is not JSON); MCP has no stream.
pub fn read_stream(
    style: Style,
    events: &[&str],
    as_values: bool,
) -> Option<Result<StreamRead, ReadCallsError>> {
    fn read<P>(events: &[&str], as_values: bool) -> Option<Result<StreamRead, ReadCallsError>>
    where
        P: StreamProvider,
    {
        let values: Option<Vec<Value>> = if as_values {
            let parsed = events.iter().map(|event| match event.trim() {
                "[DONE]" => Some(Value::String("[DONE]".into())),
                _ => serde_json::from_str(event).ok(),
            });
            Some(parsed.collect::<Option<Vec<_>>>()?)
        } else {
            None
        };
        let mut stream = P::stream();
        let mut given = Vec::new();
        let mut failed = None;
        for (at, event) in events.iter().enumerate() {
            let pushed = match &values {
                Some(values) => P::push_value(&mut stream, &values[at]),
                None => P::push(&mut stream, event),
            };
            match pushed {
                Ok(calls) => given.extend(calls),
                Err(err) => {
                    failed = Some(err);
                    break;
                }
            }
        }
        if let Some(err) = failed {
            // The stream is not read past its error.
            let again = P::finish(stream).map(|_| ()).unwrap_err();
            assert_eq!(again, err, "finish after an error gives it again");
            return Some(Err(err));
        }
        Some(P::finish(stream)).map(|finished| {
            finished.map(|(end, calls, message)| StreamRead {
                given,
                end,
                calls,
                message,
            })
        })
    }
    match style {
        Style::OpenaiChat => read::<OpenAiChat>(events, as_values),
        Style::OpenaiResponses => read::<OpenAiResponses>(events, as_values),
        Style::Anthropic => read::<Anthropic>(events, as_values),
        Style::Gemini => read::<Gemini>(events, as_values),
        Style::Mcp => None,
    }
}

/// The stream verbs, the same for every provider that streams.
trait StreamProvider: Sized {
    type Stream;
    fn stream() -> Self::Stream;
    fn push(stream: &mut Self::Stream, event: &str) -> Result<Vec<Call>, ReadCallsError>;
    fn push_value(stream: &mut Self::Stream, event: &Value) -> Result<Vec<Call>, ReadCallsError>;
    fn finish(stream: Self::Stream) -> Result<(StreamEnd, Vec<Call>, String), ReadCallsError>;
}

macro_rules! stream_provider {
    ($($provider:ty),*) => {$(
        impl StreamProvider for $provider {
            type Stream = CallStream<$provider>;
            fn stream() -> Self::Stream {
                CallStream::new()
            }
            fn push(stream: &mut Self::Stream, event: &str) -> Result<Vec<Call>, ReadCallsError> {
                stream.push(event).map(Iterator::collect)
            }
            fn push_value(stream: &mut Self::Stream, event: &Value) -> Result<Vec<Call>, ReadCallsError> {
                stream.push_value(event).map(Iterator::collect)
            }
            fn finish(stream: Self::Stream) -> Result<(StreamEnd, Vec<Call>, String), ReadCallsError> {
                let turn = stream.finish()?;
                let message = serde_json::to_string(&turn).expect("a streamed message serialises");
                Ok((turn.end().clone(), turn.calls().to_vec(), message))
            }
        }
    )*};
}

stream_provider!(OpenAiChat, OpenAiResponses, Anthropic, Gemini);
