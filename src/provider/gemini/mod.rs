//! Gemini: reading function calls, declaring tools and rendering their answers.

mod calls;
mod declare;
mod render;
mod schema;
mod stream;

use std::fmt;

use serde::Serialize;

use crate::provider::{Answered, Call, PartPolicy, Provider, ReadCallsError, RenderError};
use crate::tool::Tool;

/// The Gemini [`Provider`]: a call is answered by a `functionResponse` part and the parts that follow it.
///
/// `{"functionResponse":{"id"?:..,"name":..,"response":{"output":..}}}`, or
/// `{"error":..}` in place of `output` when the result is an error (`id` is
/// written when the call has one). Then, in order, each part: text parts as
/// `{"text":..}`, inline media as `{"inlineData":{"mimeType","data"}}`, URL
/// media as `{"fileData":{"mimeType","fileUri"}}`.
///
/// Carried: `image/png`, `image/jpeg`, `image/webp`, `image/heic`,
/// `image/heif`; `audio/wav`, `audio/mp3`, `audio/mpeg`, `audio/aiff`,
/// `audio/aac`, `audio/ogg`, `audio/flac`; `application/pdf`, `text/plain`.
/// Anything else becomes a placeholder or an error ([`PartPolicy`]).
///
/// ```
/// use toolresult::canonical::ToolResult;
/// use toolresult::provider::{CallRef, Gemini, PartPolicy, Provider};
///
/// let result = ToolResult::ok("eu-west-1");
/// let answer = (CallRef::new("", "region"), &result);
/// let parts = Gemini::render(&answer, PartPolicy::Strict)?;
/// assert_eq!(
///     serde_json::to_string(&parts)?,
///     r#"[{"functionResponse":{"name":"region","response":{"output":"eu-west-1"}}}]"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Gemini;

impl Provider for Gemini {
    /// Reads the function calls of a Gemini `Content` from the model: a
    /// candidate's `content` (`candidates[0].content`), as the next request's
    /// `contents` holds it, not the whole `generateContent` response.
    ///
    /// Each part with a `functionCall` is one call, in order; its `args` are
    /// kept as JSON ([`Arguments::Json`](crate::tool::Arguments::Json), `{}` when left out). Other parts
    /// (`text`, `thought`, inline data) are skipped, and so are the fields
    /// beside a call (`thoughtSignature`); a content without `parts` has no
    /// calls. `function_call`, the proto field name, reads like `functionCall`.
    ///
    /// A call's id is its `functionCall.id`, or the empty string when Gemini
    /// sent none (older models and Vertex AI do not): the answers are then
    /// matched to the calls by name and position, which is how Gemini pairs a
    /// `functionResponse` without an id with its call. Only non-empty ids must
    /// be unique in a turn.
    ///
    /// # Errors
    /// [`ReadCallsError`] when the text is not JSON, a field has the wrong
    /// type, a `functionCall` has no name, an empty name, the id of an earlier
    /// call of the turn, or the text is a whole response (`candidates`) rather
    /// than a candidate's content.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolresult::provider::{Call, Gemini, Provider};
    /// use toolresult::tool::Arguments;
    ///
    /// let calls = Gemini::read_calls(r#"{
    ///     "role": "model",
    ///     "parts": [
    ///         {"functionCall": {"name": "dim_lights", "args": {"brightness": 0.5}}, "thoughtSignature": "c2ln"},
    ///         {"functionCall": {"name": "start_music"}}
    ///     ]
    /// }"#)?;
    /// assert_eq!(calls, [
    ///     Call::new("", "dim_lights", Arguments::Json(json!({"brightness": 0.5}))),
    ///     Call::new("", "start_music", Arguments::Json(json!({}))),
    /// ]);
    ///
    /// let err = Gemini::read_calls(r#"{"candidates":[]}"#).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "gemini content: expected a candidate's content (`candidates[0].content`), found a whole response"
    /// );
    /// # Ok::<(), toolresult::provider::ReadCallsError>(())
    /// ```
    fn read_calls(message: &str) -> Result<Vec<Call>, ReadCallsError> {
        calls::read_calls(message)
    }

    /// The Gemini declaration of `tool`; put it inside `functionDeclarations`
    /// (or use [`declare_tools`](Provider::declare_tools)).
    ///
    /// Gemini's `parameters` are a subset of the OpenAPI 3.0 schema object, and
    /// an unknown keyword fails the whole request, so the input schema is
    /// converted:
    /// - `$ref`s into `$defs` are inlined (a recursive type is cut off after a
    ///   few levels as a bare `{"type":"object"}`); `$defs` and `$schema` go;
    /// - `null` is said the OpenAPI way, Gemini's own `"nullable": true`:
    ///   `"type": [X, "null"]`, an `anyOf`/`oneOf` branch `{"type":"null"}` and
    ///   a `null` among `enum` values become `"type": X` with `nullable`
    ///   (this is the only place the crate writes `nullable`: the JSON Schemas
    ///   themselves are draft 2020-12); other lists of types become `anyOf`;
    /// - `oneOf` becomes `anyOf`; `const` becomes a one-value `enum`; an `enum`
    ///   with a value that is not a string is dropped (Gemini's enums are
    ///   strings); a tuple's `prefixItems` become its `items`;
    /// - a schema that does not say its type gets the one its keywords imply
    ///   (`properties`: object, `items`: array, a string `enum`: string);
    /// - `format` stays only where Gemini gives it meaning (`enum` and
    ///   `date-time` for strings, `int32`/`int64` for integers,
    ///   `float`/`double` for numbers);
    /// - of the rest only `type`, `title`, `description`, `properties`,
    ///   `required`, `items`, `anyOf`, `minimum`, `maximum`, `minItems`,
    ///   `maxItems`, `minLength`, `maxLength`, `pattern`, `minProperties`,
    ///   `maxProperties`, `default`, `example` and `propertyOrdering` are kept:
    ///   `additionalProperties` (so a map's value type), `exclusiveMinimum`,
    ///   `uniqueItems`, `allOf` and the like are dropped.
    ///
    /// A tool without arguments has no `parameters` at all: Gemini refuses an
    /// object schema with no properties.
    ///
    /// ```
    /// use toolresult::provider::{Gemini, Provider};
    /// use toolresult::tool::{self};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Args { city: String, days: Option<u8> }
    ///
    /// let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city)?;
    /// assert_eq!(
    ///     serde_json::to_string(&Gemini::declare(&weather))?,
    ///     r#"{"name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","maximum":255,"minimum":0,"nullable":true}},"required":["city"]}}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn declare<T: Tool + ?Sized>(tool: &T) -> impl Serialize + fmt::Debug + '_ {
        declare::declare(tool)
    }

    /// The Gemini `tools[]` entry declaring all of `tools`.
    ///
    /// ```
    /// use toolresult::provider::{Gemini, Provider};
    /// use toolresult::tool::{self, Tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct NoArgs {}
    ///
    /// let tools: Vec<Box<dyn Tool>> = vec![Box::new(tool::function("now", "The time", |_: NoArgs| "noon")?)];
    /// assert_eq!(
    ///     serde_json::to_string(&Gemini::declare_tools(&tools))?,
    ///     r#"{"functionDeclarations":[{"name":"now","description":"The time"}]}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn declare_tools<T: Tool>(tools: &[T]) -> impl Serialize + fmt::Debug + '_ {
        declare::declare_tools(tools)
    }

    /// The parts answering `call`: the `functionResponse`, then one part per
    /// part of the result.
    ///
    /// # Errors
    /// Under [`PartPolicy::Strict`], a part Gemini cannot carry.
    ///
    /// ```
    /// use toolresult::canonical::{ContentPart, PartLimit, ToolResult};
    /// use toolresult::provider::{CallRef, Gemini, PartPolicy, Provider};
    ///
    /// let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())?;
    /// let shot = ToolResult::error(png.describe()).with_parts([png]);
    /// let answer = (CallRef::new("", "shot"), &shot);
    /// let parts = Gemini::render(&answer, PartPolicy::Strict)?;
    /// let json = serde_json::to_value(&parts)?;
    /// assert_eq!(json[0]["functionResponse"]["response"]["error"], "image (image/png, 82 bytes)");
    /// assert_eq!(json[1]["inlineData"]["mimeType"], "image/png");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn render<'a, A: Answered + ?Sized>(
        answer: &'a A,
        policy: PartPolicy,
    ) -> Result<impl Serialize + fmt::Debug + 'a, RenderError> {
        render::render(answer.call(), answer.result(), policy)
    }

    /// The content answering a turn: every answer's [`render`](Provider::render)ed parts.
    ///
    /// # Errors
    /// Under [`PartPolicy::Strict`], a part Gemini cannot carry.
    ///
    /// ```
    /// use toolresult::canonical::ToolResult;
    /// use toolresult::provider::{CallRef, Gemini, PartPolicy, Provider};
    ///
    /// let found = ToolResult::ok("eu-west-1");
    /// let turn = [(CallRef::new("", "lookup"), &found)];
    /// assert_eq!(
    ///     serde_json::to_string(&Gemini::reply(&turn, PartPolicy::Strict)?)?,
    ///     r#"{"role":"user","parts":[{"functionResponse":{"name":"lookup","response":{"output":"eu-west-1"}}}]}"#
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
