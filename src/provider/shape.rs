//! `Provider`: the one shape every provider fills in.

use std::fmt;

use serde::Serialize;

use super::{Answered, Call, PartPolicy, ReadCallsError, RenderError};
use crate::tool::Tool;

/// A provider's dialect: reading the calls of a turn, declaring tools, and
/// rendering their answers. Each provider ([`OpenAiChat`](super::OpenAiChat),
/// [`OpenAiResponses`](super::OpenAiResponses), [`Anthropic`](super::Anthropic),
/// [`Gemini`](super::Gemini), [`Mcp`](super::Mcp)) fills it in, with the
/// same verbs and signatures; bring the trait into scope to call them.
///
/// What the verbs return is the provider's JSON, not yet written: a value
/// that borrows from the input and is written by serialising it
/// (`serde_json::to_string`, `to_writer`, `to_value`), so text is never
/// copied and inline bytes are base64-encoded straight into the output.
/// Each provider's page shows the JSON it writes.
///
/// ```
/// use toolresult::canonical::ToolResult;
/// use toolresult::provider::{Anthropic, CallRef, Gemini, PartPolicy, Provider};
///
/// /// One result answered in any dialect.
/// fn answer<P: Provider>(result: &ToolResult) -> Result<String, Box<dyn std::error::Error>> {
///     let turn = [(CallRef::new("call_1", "region"), result)];
///     Ok(serde_json::to_string(&P::reply(&turn, PartPolicy::Strict)?)?)
/// }
///
/// let found = ToolResult::ok("eu-west-1");
/// assert_eq!(
///     answer::<Anthropic>(&found)?,
///     r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"eu-west-1"}]}"#
/// );
/// assert_eq!(
///     answer::<Gemini>(&found)?,
///     r#"{"role":"user","parts":[{"functionResponse":{"id":"call_1","name":"region","response":{"output":"eu-west-1"}}}]}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Provider {
    /// The calls of one assistant turn, from the provider's own JSON, in
    /// order. Arguments are kept as they came ([`Arguments`](crate::tool::Arguments)).
    ///
    /// # Errors
    /// [`ReadCallsError`] naming the path and the value, when the text is
    /// not JSON, is not the provider's message, or a call in it is
    /// malformed (no id or name, an empty one, the id of an earlier call).
    fn read_calls(message: &str) -> Result<Vec<Call>, ReadCallsError>;

    /// The declaration of `tool`.
    fn declare<T: Tool + ?Sized>(tool: &T) -> impl Serialize + fmt::Debug + '_;

    /// The declarations of all of `tools`, in order (a toolbox's `tools()`,
    /// say).
    fn declare_tools<T: Tool>(tools: &[T]) -> impl Serialize + fmt::Debug + '_;

    /// One answered call: a [`CallRef`](super::CallRef) with its lowered
    /// or canonical result, or a toolbox's outcome.
    ///
    /// # Errors
    /// Under [`PartPolicy::Strict`], a part the provider cannot carry
    /// ([`RenderError::UnsupportedPart`]); under
    /// [`PartPolicy::Placeholder`] it becomes the text
    /// `[unsupported <type> part (<mime>, <n> bytes)]`. No part is ever
    /// dropped.
    fn render<'a, A: Answered + ?Sized>(
        answer: &'a A,
        policy: PartPolicy,
    ) -> Result<impl Serialize + fmt::Debug + 'a, RenderError>;

    /// The reply answering a whole turn, in call order.
    ///
    /// # Errors
    /// As [`render`](Provider::render), for any of the answers.
    fn reply<'a, A: Answered>(
        answers: &'a [A],
        policy: PartPolicy,
    ) -> Result<impl Serialize + fmt::Debug + 'a, RenderError>;
}
