//! OpenAI Responses: reading tool calls, declaring tools and rendering their answers.

mod calls;
mod declare;
mod render;
mod stream;

use std::fmt;

use serde::Serialize;

use crate::provider::{Answered, Call, PartPolicy, Provider, ReadCallsError, RenderError};
use crate::tool::Tool;

/// The OpenAI Responses [`Provider`]: a call is answered by a `function_call_output` input item.
///
/// `{"type":"function_call_output","call_id":..,"output":..}`. A result with
/// no parts has the plain `output` string; otherwise `output` is a list of
/// `input_text` (the result's `output`, then its text parts), `input_image`
/// (`image/png`, `image/jpeg`, `image/webp`, `image/gif`; `image_url` a data
/// URL or the part's URL) and `input_file` items (PDFs: `file_data` data URL
/// and `filename`, the part's name or `file.pdf`; or `file_url`). Audio and
/// other files become a placeholder or an error ([`PartPolicy`]).
///
/// ```
/// use toolresult::canonical::ToolResult;
/// use toolresult::provider::{CallRef, OpenAiResponses, PartPolicy, Provider};
///
/// let result = ToolResult::ok("eu-west-1");
/// let answer = (CallRef::new("call_1", "region"), &result);
/// let item = OpenAiResponses::render(&answer, PartPolicy::Strict)?;
/// assert_eq!(
///     serde_json::to_string(&item)?,
///     r#"{"type":"function_call_output","call_id":"call_1","output":"eu-west-1"}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct OpenAiResponses;

impl Provider for OpenAiResponses {
    /// Reads the function calls of a Responses API turn: the response's
    /// `output` array, as the next request's `input` takes its items back, not
    /// the whole response object (one shape, like every other reader here:
    /// what the conversation keeps of the turn).
    ///
    /// Each `{"type": "function_call"}` item is one call, in order, with its
    /// `call_id` as the id; its `arguments` text is kept as it came
    /// ([`Arguments::Text`](crate::tool::Arguments::Text)). Items of other types (`reasoning`, `message`,
    /// built-in tool calls) are skipped; unknown fields are ignored.
    ///
    /// # Errors
    /// [`ReadCallsError`] when the text is not JSON or not an array, a field
    /// has the wrong type, a `function_call` item has no `call_id`, `name` or
    /// `arguments`, an empty `call_id` or name, or the `call_id` of an earlier
    /// call of the turn.
    ///
    /// ```
    /// use toolresult::provider::{Call, OpenAiResponses, Provider};
    /// use toolresult::tool::Arguments;
    ///
    /// let calls = OpenAiResponses::read_calls(r#"[
    ///     {"type": "reasoning", "id": "rs_1", "summary": []},
    ///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "add",
    ///      "arguments": "{\"a\":1}", "status": "completed"}
    /// ]"#)?;
    /// assert_eq!(calls, [Call::new("call_1", "add", Arguments::Text(r#"{"a":1}"#.into()))]);
    ///
    /// let err = OpenAiResponses::read_calls(r#"[{"type":"function_call","name":"add","arguments":"{}"}]"#)
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "openai responses: output[0]: missing field `call_id`");
    /// # Ok::<(), toolresult::provider::ReadCallsError>(())
    /// ```
    fn read_calls(message: &str) -> Result<Vec<Call>, ReadCallsError> {
        calls::read_calls(message)
    }

    /// The OpenAI Responses declaration of `tool`.
    ///
    /// `strict` is always written. The Responses API reads a missing `strict`
    /// as `true` and then normalises the schema into strict mode (every field
    /// required, no extra properties), which would make optional arguments
    /// mandatory; and it refuses `strict: true` with a schema strict mode does
    /// not support. So `strict` is `true` only when the input schema already
    /// meets strict mode as it stands (every object schema in it closed, `additionalProperties: false`, with all its properties `required`, and only the keywords and string formats strict mode supports), and `false`
    /// otherwise; the schema is never rewritten.
    ///
    /// ```
    /// use toolresult::provider::{OpenAiResponses, Provider};
    /// use toolresult::tool::{self};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// #[serde(deny_unknown_fields)]
    /// struct Args { city: String }
    ///
    /// let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city)?;
    /// let declared = OpenAiResponses::declare(&weather);
    /// assert_eq!(
    ///     serde_json::to_string(&declared)?,
    ///     r#"{"type":"function","name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"additionalProperties":false,"required":["city"]},"strict":true}"#
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
    /// use toolresult::provider::{OpenAiResponses, Provider};
    /// use toolresult::tool::{self, Tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct NoArgs {}
    ///
    /// let tools: Vec<Box<dyn Tool>> = vec![
    ///     Box::new(tool::function("now", "The time", |_: NoArgs| "noon")?),
    ///     Box::new(tool::function("today", "The date", |_: NoArgs| "Thursday")?),
    /// ];
    /// let declared = serde_json::to_value(OpenAiResponses::declare_tools(&tools))?;
    /// assert_eq!(declared.as_array().map(Vec::len), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn declare_tools<T: Tool>(tools: &[T]) -> impl Serialize + fmt::Debug + '_ {
        declare::declare_tools(tools)
    }

    /// The `function_call_output` item answering `call`.
    ///
    /// # Errors
    /// Under [`PartPolicy::Strict`], a part a function call output cannot carry.
    ///
    /// ```
    /// use toolresult::canonical::{ContentPart, PartLimit, ToolResult};
    /// use toolresult::provider::{CallRef, OpenAiResponses, PartPolicy, Provider};
    ///
    /// let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())?;
    /// let shot = ToolResult::ok(png.describe()).with_parts([png]);
    /// let answer = (CallRef::new("call_1", "shot"), &shot);
    /// let item = OpenAiResponses::render(&answer, PartPolicy::Strict)?;
    /// let json = serde_json::to_value(&item)?;
    /// assert_eq!(json["output"][0], serde_json::json!({"type": "input_text", "text": "image (image/png, 82 bytes)"}));
    /// assert_eq!(json["output"][1]["type"], "input_image");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn render<'a, A: Answered + ?Sized>(
        answer: &'a A,
        policy: PartPolicy,
    ) -> Result<impl Serialize + fmt::Debug + 'a, RenderError> {
        render::render(answer.call(), answer.result(), policy)
    }

    /// The input items answering one turn: a [`render`](Provider::render)ed
    /// `function_call_output` per answer, in call order, to send after the
    /// response's output items.
    ///
    /// # Errors
    /// Under [`PartPolicy::Strict`], a part the Responses API cannot carry.
    ///
    /// See [`Answered`] for an example.
    fn reply<'a, A: Answered>(
        answers: &'a [A],
        policy: PartPolicy,
    ) -> Result<impl Serialize + fmt::Debug + 'a, RenderError> {
        render::reply(answers, policy)
    }
}
