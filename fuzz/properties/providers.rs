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
use toolresult::budget::ArtifactReader;
use toolresult::canonical::ToolResult;
use toolresult::provider::{
    Answered, Call, ConvertError, PartPolicy, ReadCallsError, ToolCall, anthropic, gemini, mcp,
    openai_chat, openai_responses,
};
use toolresult::tool::Tool;
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
        Style::OpenaiChat => openai_chat::read_calls(message),
        Style::OpenaiResponses => openai_responses::read_calls(message),
        Style::Anthropic => anthropic::read_calls(message),
        Style::Gemini => gemini::read_calls(message),
        Style::Mcp => mcp::read_calls(message),
    }
}

/// The style's reply to a turn, as JSON, with `policy` for parts.
pub fn reply<A: Answered>(style: Style, answers: &[A], policy: PartPolicy) -> Value {
    let json = match style {
        Style::OpenaiChat => openai_chat::reply(answers, policy).map(serde_json::to_value),
        Style::OpenaiResponses => {
            openai_responses::reply(answers, policy).map(serde_json::to_value)
        }
        Style::Anthropic => anthropic::reply(answers, policy).map(serde_json::to_value),
        Style::Gemini => gemini::reply(answers, policy).map(serde_json::to_value),
        Style::Mcp => Ok(serde_json::to_value(mcp::reply(answers))),
    };
    json.unwrap_or_else(|e| panic!("{style:?} renders the turn under {policy:?}: {e}"))
        .unwrap_or_else(|e| panic!("{style:?}'s reply serialises: {e}"))
}

/// The style's reply under [`PartPolicy::Strict`]: its error message when
/// a part cannot be carried (MCP carries every part).
pub fn reply_strict<A: Answered>(style: Style, answers: &[A]) -> Result<Value, String> {
    let json = match style {
        Style::OpenaiChat => {
            openai_chat::reply(answers, PartPolicy::Strict).map(serde_json::to_value)
        }
        Style::OpenaiResponses => {
            openai_responses::reply(answers, PartPolicy::Strict).map(serde_json::to_value)
        }
        Style::Anthropic => anthropic::reply(answers, PartPolicy::Strict).map(serde_json::to_value),
        Style::Gemini => gemini::reply(answers, PartPolicy::Strict).map(serde_json::to_value),
        Style::Mcp => Ok(serde_json::to_value(mcp::reply(answers))),
    };
    json.map_err(|e| e.to_string())
        .map(|r| r.unwrap_or_else(|e| panic!("{style:?}'s reply serialises: {e}")))
}

/// One result as the style's own block (Responses, Anthropic, Gemini; the
/// others have only whole-turn replies), under `policy`.
pub fn render_one(
    style: Style,
    call: ToolCall<'_>,
    result: &ToolResult,
    policy: PartPolicy,
) -> Option<Result<Value, String>> {
    let json = match style {
        Style::OpenaiResponses => {
            openai_responses::render(call, result, policy).map(serde_json::to_value)
        }
        Style::Anthropic => anthropic::render(call, result, policy).map(serde_json::to_value),
        Style::Gemini => gemini::render(call, result, policy).map(serde_json::to_value),
        Style::OpenaiChat | Style::Mcp => return None,
    };
    Some(
        json.map_err(|e| e.to_string())
            .map(|r| r.unwrap_or_else(|e| panic!("{style:?}'s block serialises: {e}"))),
    )
}

/// An MCP `CallToolResult` read from its JSON.
pub fn mcp_read(value: &Value) -> Result<ToolResult, ConvertError> {
    mcp::from_value(value)
}

/// A result as an MCP `CallToolResult`, with `structured` as its
/// `structuredContent`.
pub fn mcp_render(result: &ToolResult, structured: Option<&RawValue>) -> Value {
    serde_json::to_value(mcp::render(result, structured))
        .unwrap_or_else(|e| panic!("MCP JSON serialises: {e}"))
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
    ready(tool.call_json(text))
}

/// A tool called with the JSON value of its arguments.
pub fn call_value(tool: &dyn Tool, args: Value) -> Lowered {
    ready(tool.call(args))
}

/// A tool called on the calling thread, when it can be (`None` for an
/// async tool).
pub fn call_blocking(tool: &dyn Tool, args: Value) -> Option<Lowered> {
    tool.call_blocking(args)
}

/// The artifact reader called with `args`.
pub fn read_artifact(reader: &ArtifactReader, args: Value) -> Lowered {
    ready(reader.call(args))
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
