//! The answers the toolbox writes itself, for a call its tool did not
//! answer: one cancelled, one timed out, one of a tool there is not. Every
//! path that runs a call (a turn, the MCP server, a remote MCP tool) answers
//! these cases with these words.

use std::time::Duration;

use super::errors::seconds;
use super::{TimedOut, UnknownTool};
use crate::retry::Cancelled;
use crate::tool::shown_name;
use crate::{Failure, IntoToolResult, Lowered, ToolError, ToolResult};

/// The answer to a call that a cancellation stopped or never started: a
/// permanent failure whose source is [`Cancelled`].
pub(crate) fn cancelled() -> Lowered {
    ToolResult::<(), ToolError>::fail(
        Failure::new(ToolError::new("the call was cancelled before it finished"))
            .with_source(Cancelled)
            .permanent(),
    )
    .lower()
}

/// The answer to a call of the tool `tool` that did not finish within
/// `limit`: a transient failure whose source is [`TimedOut`], so the retry
/// policy may try again.
pub(crate) fn timed_out(tool: &str, limit: Duration) -> Lowered {
    let error = ToolError::new(format!("the tool did not finish within {}", seconds(limit)))
        .with_suggestion("try again, or ask for less at once");
    ToolResult::<(), ToolError>::fail(
        Failure::new(error)
            .with_source(TimedOut::new(tool, limit))
            .transient(),
    )
    .lower()
}

/// The answer to a call of `name`, which no tool has: a permanent failure
/// whose source is [`UnknownTool`], naming (cut to its first characters)
/// the name called and listing the tools in `known` it could call instead.
pub(crate) fn unknown_tool<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Lowered {
    let shown = shown_name(name);
    let known: Vec<String> = known.into_iter().map(|name| format!("`{name}`")).collect();
    let suggestion = if known.is_empty() {
        "there are no tools to call".to_owned()
    } else {
        format!("call one of: {}", known.join(", "))
    };
    let error =
        ToolError::new(format!("there is no tool named `{shown}`")).with_suggestion(suggestion);
    ToolResult::<(), ToolError>::fail(
        Failure::new(error)
            .with_source(UnknownTool { name: shown })
            .permanent(),
    )
    .lower()
}
