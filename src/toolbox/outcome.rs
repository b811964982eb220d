//! `CallOutcome`: one call of a turn, answered.

use serde_json::value::RawValue;

use crate::Lowered;
use crate::canonical::ToolResult;
use crate::provider::{Answered, Call, ToolCall};
use crate::retry::Decision;

/// The answer to one call of a turn: the call as the model made it, the
/// lowered result (the canonical result for the model, diagnostics for
/// Rust) and how many attempts it took.
///
/// A turn gives exactly one per call, in call order, under the call's id,
/// whatever the tools did. Render a turn's outcomes for the provider with
/// its `reply` (for example [`Anthropic::reply`](crate::provider::Provider::reply)).
#[derive(Debug)]
#[non_exhaustive]
pub struct CallOutcome {
    /// The call answered.
    pub call: Call,
    /// Its lowered result.
    pub lowered: Lowered,
    /// The attempts started: 1 without retries (also for bad arguments: the
    /// tool was called and refused them), 0 when no tool was called (an
    /// unknown name, a turn cancelled before the call started).
    pub attempts: u32,
}

impl CallOutcome {
    /// Whether the call is parked on a pending request, waiting for an
    /// [`Answer`](crate::canonical::Answer) ([`Toolbox::resume`](super::Toolbox::resume)).
    #[must_use]
    pub fn is_pending(&self) -> bool {
        self.lowered.result.is_pending()
    }
}

impl Answered for CallOutcome {
    fn call(&self) -> ToolCall<'_> {
        ToolCall::new(&self.call.id, &self.call.name)
    }

    fn result(&self) -> &ToolResult {
        &self.lowered.result
    }

    fn structured_content(&self) -> Option<&RawValue> {
        self.lowered.structured_content()
    }
}

/// One attempt of a call ([`Toolbox::attempt`](super::Toolbox::attempt)):
/// its lowered result and what the retry policy says after it.
#[derive(Debug)]
#[non_exhaustive]
pub struct Attempt {
    /// The attempt's lowered result.
    pub lowered: Lowered,
    /// Call again after a delay, or stop with this result as the answer.
    pub decision: Decision,
}
