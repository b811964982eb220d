//! `DurableOutcome`: one call of a durable turn, answered.

use serde_json::value::RawValue;
use toolresult::canonical::ToolResult;
use toolresult::provider::{Answered, Call, ToolCall};

use crate::ChannelSummary;

/// The answer to one call of a turn run by [`run_turn`](crate::run_turn):
/// the call, the canonical result its last attempt journaled, and how it
/// got there.
///
/// A turn gives exactly one per call, in call order, under the call's id.
/// It implements [`Answered`], so a provider's `reply` renders a turn's
/// outcomes as they are (for example
/// [`Anthropic::reply`](toolresult::provider::Provider::reply)); the
/// example on [`run_turn`](crate::run_turn) does.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct DurableOutcome {
    /// The call answered.
    pub call: Call,
    /// Its result, as the model reads it: a success, the model-facing
    /// error of a permanent failure or of the last attempt when retries ran
    /// out, never a pending request (a parked call waits for its answer).
    pub result: ToolResult,
    /// The Rust channel of the last attempt, summarised.
    pub channel: ChannelSummary,
    /// Why the retry policy stopped after the last attempt:
    /// [`StopReason::as_str`](toolresult::retry::StopReason::as_str)
    /// (`succeeded`, `permanent`, `attempts_exhausted`, ...).
    pub stop: String,
    /// The attempts made, over the call's first run and every run resumed
    /// with an answer; 0 when no tool was called (an unknown tool name).
    pub attempts: u32,
    /// Whether `output` is MCP `structuredContent`.
    pub(crate) structured: bool,
}

impl Answered for DurableOutcome {
    fn call(&self) -> ToolCall<'_> {
        ToolCall::new(&self.call.id, &self.call.name)
    }

    fn result(&self) -> &ToolResult {
        &self.result
    }

    fn structured_content(&self) -> Option<&RawValue> {
        if !self.structured || self.result.is_error {
            return None;
        }
        serde_json::from_str::<&RawValue>(&self.result.output)
            .ok()
            .filter(|raw| raw.get().starts_with('{'))
    }
}
