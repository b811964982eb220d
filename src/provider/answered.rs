//! `Answered`: what a provider's reply is made of, one answered call at a time.

use serde_json::value::RawValue;

use super::CallRef;
use crate::Lowered;
use crate::canonical::ToolResult;

/// One answered call of a turn, as a provider's `render` and `reply` read
/// it: the call's id and name, the canonical result, and (for MCP) the
/// structured content.
///
/// Implemented for the toolbox's `CallOutcome`, and for a pair of a
/// [`CallRef`] and a lowered or canonical result, for a loop of your own.
///
/// ```
/// use toolresult::canonical::ToolResult;
/// use toolresult::provider::{CallRef, OpenAiResponses, PartPolicy, Provider};
///
/// let found = ToolResult::ok("eu-west-1");
/// let turn = [(CallRef::new("call_1", "region"), &found)];
/// let items = OpenAiResponses::reply(&turn, PartPolicy::Strict)?;
/// assert_eq!(
///     serde_json::to_string(&items)?,
///     r#"[{"type":"function_call_output","call_id":"call_1","output":"eu-west-1"}]"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Answered {
    /// The call answered.
    fn call(&self) -> CallRef<'_>;

    /// Its canonical result.
    fn result(&self) -> &ToolResult;

    /// MCP's `structuredContent` for it, if any
    /// ([`Lowered::structured_content`](crate::Lowered::structured_content)).
    fn structured_content(&self) -> Option<&RawValue> {
        None
    }

    /// Whether this is a success whose `structuredContent` was withheld (a
    /// budget cut its object past the output schema): MCP answers it as an
    /// error result, since a success must carry a conforming value
    /// ([`Lowered::structured_content_withheld`](crate::Lowered::structured_content_withheld)).
    fn structured_content_withheld(&self) -> bool {
        false
    }
}

/// A canonical result alone has no structured content: pair the call with
/// the [`Lowered`] result to keep MCP's `structuredContent`.
impl Answered for (CallRef<'_>, &ToolResult) {
    fn call(&self) -> CallRef<'_> {
        self.0
    }

    fn result(&self) -> &ToolResult {
        self.1
    }
}

/// A lowered result, with its structured content.
impl Answered for (CallRef<'_>, &Lowered) {
    fn call(&self) -> CallRef<'_> {
        self.0
    }

    fn result(&self) -> &ToolResult {
        &self.1.result
    }

    fn structured_content(&self) -> Option<&RawValue> {
        self.1.structured_content()
    }

    fn structured_content_withheld(&self) -> bool {
        self.1.structured_content_withheld()
    }
}
