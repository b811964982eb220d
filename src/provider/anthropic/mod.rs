//! Anthropic Messages: reading tool calls, declaring tools and rendering their answers.

mod calls;
mod declare;
mod render;
mod stream;

use std::fmt;

use serde::Serialize;

use crate::provider::{Answered, Call, PartPolicy, Provider, ReadCallsError, RenderError};
use crate::tool::Tool;

/// The Anthropic Messages [`Provider`]: a call is answered by a `tool_result` content block.
///
/// `{"type":"tool_result","tool_use_id":..,"content":..,"is_error":true?}`.
/// A result with no parts has the plain `output` string as `content`;
/// otherwise `content` is a list: text blocks first (the `output`, then the
/// text parts), then, in order, `image` blocks (`image/jpeg`, `image/png`,
/// `image/gif`, `image/webp`) and `document` blocks (PDFs), each with a
/// `base64` or `url` source. Audio and other files become a placeholder or
/// an error ([`PartPolicy`]). `is_error` is written only when true. The
/// API refuses empty text: a blank text block is left out, and an error
/// with nothing to say has the content
/// `the tool failed without saying why`.
///
/// ```
/// use toolresult::canonical::ToolResult;
/// use toolresult::provider::{Anthropic, CallRef, PartPolicy, Provider};
///
/// let missing = ToolResult::error("No such config key: nope");
/// let answer = (CallRef::new("toolu_1", "config"), &missing);
/// let block = Anthropic::render(&answer, PartPolicy::Strict)?;
/// assert_eq!(
///     serde_json::to_string(&block)?,
///     r#"{"type":"tool_result","tool_use_id":"toolu_1","content":"No such config key: nope","is_error":true}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Anthropic;

impl Provider for Anthropic {
    /// Reads the tool calls of an Anthropic Messages assistant message: the
    /// Messages API response (which is the message) or the `assistant` entry
    /// of a conversation's `messages`.
    ///
    /// Each `tool_use` content block is one call, in order; its `input` is kept
    /// as JSON ([`Arguments::Json`](crate::tool::Arguments::Json), `{}` when left out). Blocks of other types
    /// (`text`, `thinking`, server tool blocks) are skipped; a `content` that is
    /// a plain string, or missing, has no calls. Other fields are ignored.
    ///
    /// # Errors
    /// [`ReadCallsError`] when the text is not JSON, a field has the wrong
    /// type, a block has no `type`, a `tool_use` block has no `id` or `name`,
    /// an empty id or name, or the id of an earlier call of the turn.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolresult::provider::{Anthropic, Call, Provider};
    /// use toolresult::tool::Arguments;
    ///
    /// let calls = Anthropic::read_calls(r#"{
    ///     "role": "assistant",
    ///     "content": [
    ///         {"type": "text", "text": "Adding."},
    ///         {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 1}}
    ///     ],
    ///     "stop_reason": "tool_use"
    /// }"#)?;
    /// assert_eq!(calls, [Call::new("toolu_1", "add", Arguments::Json(json!({"a": 1})))]);
    ///
    /// let err = Anthropic::read_calls(r#"{"content":[{"type":"tool_use","id":"toolu_1","name":""}]}"#)
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "anthropic message: content[0].name: empty tool name");
    /// # Ok::<(), toolresult::provider::ReadCallsError>(())
    /// ```
    fn read_calls(message: &str) -> Result<Vec<Call>, ReadCallsError> {
        calls::read_calls(message)
    }

    /// The Anthropic Messages declaration of `tool`: the input schema goes as
    /// it is (Anthropic takes JSON Schema).
    ///
    /// ```
    /// use toolresult::provider::{Anthropic, Provider};
    /// use toolresult::tool::{self};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Args { city: String }
    ///
    /// let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city)?;
    /// let json = serde_json::to_value(Anthropic::declare(&weather))?;
    /// assert_eq!(json["input_schema"]["required"], serde_json::json!(["city"]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn declare<T: Tool + ?Sized>(tool: &T) -> impl Serialize + fmt::Debug + '_ {
        declare::declare(tool)
    }

    /// The declarations of all of `tools`, in order: the provider's `tools`
    /// array (a toolbox's `tools()`, say).
    ///
    /// ```
    /// use toolresult::provider::{Anthropic, Provider};
    /// use toolresult::tool::{self, Tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct NoArgs {}
    ///
    /// let tools: Vec<Box<dyn Tool>> = vec![
    ///     Box::new(tool::function("now", "The time", |_: NoArgs| "noon")?),
    ///     Box::new(tool::function("today", "The date", |_: NoArgs| "Thursday")?),
    /// ];
    /// let declared = serde_json::to_value(Anthropic::declare_tools(&tools))?;
    /// assert_eq!(declared.as_array().map(Vec::len), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn declare_tools<T: Tool>(tools: &[T]) -> impl Serialize + fmt::Debug + '_ {
        declare::declare_tools(tools)
    }

    /// The `tool_result` block answering `call`.
    ///
    /// # Errors
    /// Under [`PartPolicy::Strict`], a part a tool result cannot carry.
    ///
    /// ```
    /// use toolresult::canonical::{ContentPart, ToolResult};
    /// use toolresult::provider::{Anthropic, CallRef, PartPolicy, Provider};
    ///
    /// let pdf = ContentPart::from_url("https://example.com/q3.pdf", Some("application/pdf"))?;
    /// let report = ToolResult::ok("the Q3 report").with_parts([pdf]);
    /// let answer = (CallRef::new("toolu_1", "report"), &report);
    /// let block = Anthropic::render(&answer, PartPolicy::Strict)?;
    /// let json = serde_json::to_value(&block)?;
    /// assert_eq!(
    ///     json["content"][1],
    ///     serde_json::json!({"type": "document", "source": {"type": "url", "url": "https://example.com/q3.pdf"}})
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn render<'a, A: Answered + ?Sized>(
        answer: &'a A,
        policy: PartPolicy,
    ) -> Result<impl Serialize + fmt::Debug + 'a, RenderError> {
        render::render(answer.call(), answer.result(), policy)
    }

    /// The message answering a turn: one [`render`](Provider::render)ed block per answer.
    ///
    /// # Errors
    /// Under [`PartPolicy::Strict`], a part Anthropic cannot carry.
    ///
    /// ```
    /// use toolresult::canonical::ToolResult;
    /// use toolresult::provider::{Anthropic, CallRef, PartPolicy, Provider};
    ///
    /// let found = ToolResult::ok("eu-west-1");
    /// let missing = ToolResult::error("no such key");
    /// let turn = [(CallRef::new("toolu_1", "lookup"), &found), (CallRef::new("toolu_2", "lookup"), &missing)];
    /// assert_eq!(
    ///     serde_json::to_string(&Anthropic::reply(&turn, PartPolicy::Strict)?)?,
    ///     r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"eu-west-1"},{"type":"tool_result","tool_use_id":"toolu_2","content":"no such key","is_error":true}]}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn reply<'a, A: Answered>(
        answers: &'a [A],
        policy: PartPolicy,
    ) -> Result<impl Serialize + fmt::Debug + 'a, RenderError> {
        render::reply(answers, policy)
    }
}
