//! OpenAI Chat Completions: reading tool calls, declaring tools and rendering their answers.

mod calls;
mod declare;
mod render;
mod stream;

use std::fmt;

use serde::Serialize;

use crate::provider::{Answered, Call, PartPolicy, Provider, ReadCallsError, RenderError};
use crate::tool::Tool;

/// The OpenAI Chat Completions [`Provider`]: `tool` messages, and one `user` message that
/// carries the turn's non-text parts.
///
/// A `tool` message carries text only, so a result becomes
/// `{"role":"tool","tool_call_id":..,"content":..}` with its `output` (and
/// its text parts), and every non-text part of every result answering one
/// assistant turn moves, in call order, into one `user` message after the
/// last tool message. Each result's parts there follow the text item
/// `Output of tool <name> (<call_id>):`.
///
/// Carried: images (`image/png`, `image/jpeg`, `image/webp`, `image/gif`,
/// inline or by URL) as `image_url`; inline PDFs as `file` with `file_data`
/// and `filename` (the part's name, else `file.pdf`); inline WAV and MP3
/// audio as `input_audio`. Anything else becomes a placeholder or an error
/// ([`PartPolicy`]).
///
/// ```
/// use toolresult::canonical::{ContentPart, PartLimit, ToolResult};
/// use toolresult::provider::{CallRef, OpenAiChat, PartPolicy, Provider};
///
/// let found = ToolResult::ok("eu-west-1");
/// let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())?;
/// let shot = ToolResult::ok(png.describe()).with_parts([png]);
/// let turn = [
///     (CallRef::new("call_1", "region"), &found),
///     (CallRef::new("call_2", "screenshot"), &shot),
/// ];
/// let messages = OpenAiChat::reply(&turn, PartPolicy::Placeholder)?;
/// let json = serde_json::to_value(&messages)?;
/// assert_eq!(json[0]["content"], "eu-west-1");
/// assert_eq!(json[1]["content"], "image (image/png, 82 bytes)");
/// assert_eq!(json[2]["role"], "user");
/// assert_eq!(json[2]["content"][0]["text"], "Output of tool screenshot (call_2):");
/// assert_eq!(json[2]["content"][1]["type"], "image_url");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct OpenAiChat;

impl Provider for OpenAiChat {
    /// Reads the tool calls of a Chat Completions assistant message: the
    /// `message` of a choice (`choices[0].message`), as the next request's
    /// `messages` holds it, not the whole completion.
    ///
    /// Each `tool_calls` entry is one call, in order; its `function.arguments`
    /// text is kept as it came ([`Arguments::Text`](crate::tool::Arguments::Text)). A message with no
    /// `tool_calls` (or `null`) has no calls. Other fields are ignored.
    ///
    /// # Errors
    /// [`ReadCallsError`] when the text is not JSON, a field has the wrong type,
    /// a call has no `id`, `type` or name, an empty id or name, a `type` other
    /// than `function`, or the id of an earlier call of the turn; and when the
    /// text is a whole completion (`choices`) rather than its message.
    ///
    /// ```
    /// use toolresult::provider::{Call, OpenAiChat, Provider};
    /// use toolresult::tool::Arguments;
    ///
    /// let calls = OpenAiChat::read_calls(r#"{
    ///     "role": "assistant",
    ///     "content": null,
    ///     "tool_calls": [
    ///         {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": "{\"a\":1}"}},
    ///         {"id": "call_2", "type": "function", "function": {"name": "now", "arguments": "{}"}}
    ///     ]
    /// }"#)?;
    /// assert_eq!(calls, [
    ///     Call::new("call_1", "add", Arguments::Text(r#"{"a":1}"#.into())),
    ///     Call::new("call_2", "now", Arguments::Text("{}".into())),
    /// ]);
    ///
    /// let err = OpenAiChat::read_calls(
    ///     r#"{"tool_calls":[{"id":"call_1","type":"custom","custom":{"name":"sql","input":"1"}}]}"#,
    /// ).unwrap_err();
    /// assert_eq!(err.to_string(), r#"openai chat message: tool_calls[0].type: expected "function", found "custom""#);
    /// # Ok::<(), toolresult::provider::ReadCallsError>(())
    /// ```
    fn read_calls(message: &str) -> Result<Vec<Call>, ReadCallsError> {
        calls::read_calls(message)
    }

    /// The OpenAI Chat Completions declaration of `tool`.
    ///
    /// Chat Completions reads a missing `strict` as `false`, so `strict` is
    /// written only as `"strict": true`, inside `function`, when the input
    /// schema meets strict mode as it stands (every object schema in it closed, `additionalProperties: false`, with all its properties `required`, and only the keywords and string formats strict mode supports). The
    /// schema is never rewritten.
    ///
    /// ```
    /// use toolresult::provider::{OpenAiChat, Provider};
    /// use toolresult::tool::{self};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Args { city: String }
    ///
    /// let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city)?;
    /// assert_eq!(
    ///     serde_json::to_string(&OpenAiChat::declare(&weather))?,
    ///     r#"{"type":"function","function":{"name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn declare<T: Tool + ?Sized>(tool: &T) -> impl Serialize + fmt::Debug + '_ {
        declare::declare(tool)
    }

    /// The declarations of all of `tools`, in order: the provider's `tools`
    /// array (a toolbox's `tools()`, say).
    ///
    /// ```
    /// use toolresult::provider::{OpenAiChat, Provider};
    /// use toolresult::tool::{self, Tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct NoArgs {}
    ///
    /// let tools: Vec<Box<dyn Tool>> = vec![
    ///     Box::new(tool::function("now", "The time", |_: NoArgs| "noon")?),
    ///     Box::new(tool::function("today", "The date", |_: NoArgs| "Thursday")?),
    /// ];
    /// let declared = serde_json::to_value(OpenAiChat::declare_tools(&tools))?;
    /// assert_eq!(declared.as_array().map(Vec::len), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn declare_tools<T: Tool>(tools: &[T]) -> impl Serialize + fmt::Debug + '_ {
        declare::declare_tools(tools)
    }

    /// The messages answering one call: its `tool` message, then, when its
    /// result has non-text parts, one `user` message carrying them after
    /// the label `Output of tool <name> (<call_id>):`, as [`reply`](Provider::reply)
    /// writes them for a turn of that one call.
    ///
    /// # Errors
    /// Under [`PartPolicy::Strict`], a part Chat Completions cannot carry.
    ///
    /// ```
    /// use toolresult::canonical::ToolResult;
    /// use toolresult::provider::{CallRef, OpenAiChat, PartPolicy, Provider};
    ///
    /// let found = ToolResult::ok("eu-west-1");
    /// let answer = (CallRef::new("call_1", "region"), &found);
    /// let messages = OpenAiChat::render(&answer, PartPolicy::Strict)?;
    /// assert_eq!(
    ///     serde_json::to_string(&messages)?,
    ///     r#"[{"role":"tool","tool_call_id":"call_1","content":"eu-west-1"}]"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn render<'a, A: Answered + ?Sized>(
        answer: &'a A,
        policy: PartPolicy,
    ) -> Result<impl Serialize + fmt::Debug + 'a, RenderError> {
        render::render(answer.call(), answer.result(), policy)
    }

    /// All the messages answering one assistant turn: a `tool` message per
    /// result, in call order, then (when any result has non-text parts) one
    /// `user` message carrying them. A `tool` message carries `output` and the
    /// text parts; with no text parts its `content` is the plain `output`
    /// string.
    ///
    /// # Errors
    /// Under [`PartPolicy::Strict`], a part Chat Completions cannot carry.
    ///
    /// ```
    /// use toolresult::canonical::{ContentPart, PartLimit, ToolResult};
    /// use toolresult::provider::{CallRef, OpenAiChat, PartPolicy, Provider};
    ///
    /// let pdf = ContentPart::from_bytes(b"%PDF".to_vec(), "application/pdf")?.with_name("q3.pdf");
    /// let report = ToolResult::ok(pdf.describe()).with_parts([pdf]);
    /// let turn = [(CallRef::new("call_1", "report"), &report)];
    /// let json = serde_json::to_value(OpenAiChat::reply(&turn, PartPolicy::Strict)?)?;
    /// assert_eq!(json[1]["content"][1]["file"]["filename"], "q3.pdf");
    /// assert_eq!(json[1]["content"][1]["file"]["file_data"], "data:application/pdf;base64,JVBERg==");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn reply<'a, A: Answered>(
        answers: &'a [A],
        policy: PartPolicy,
    ) -> Result<impl Serialize + fmt::Debug + 'a, RenderError> {
        render::reply(answers, policy)
    }
}
