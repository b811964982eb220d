//! Reading the function calls of a Gemini model content.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use crate::provider::calls::{self, Arguments, Call, ReadCallsError, Turn};

const STYLE: &str = "gemini content";

/// Reads the function calls of a Gemini `Content` from the model: a
/// candidate's `content` (`candidates[0].content`), as the next request's
/// `contents` holds it, not the whole `generateContent` response.
///
/// Each part with a `functionCall` is one call, in order; its `args` are
/// kept as JSON ([`Arguments::Json`], `{}` when left out). Other parts
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
/// use toolresult::provider::{gemini, Arguments, Call};
///
/// let calls = gemini::read_calls(r#"{
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
/// let err = gemini::read_calls(r#"{"candidates":[]}"#).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "gemini content: expected a candidate's content (`candidates[0].content`), found a whole response"
/// );
/// # Ok::<(), toolresult::provider::ReadCallsError>(())
/// ```
pub fn read_calls(content: &str) -> Result<Vec<Call>, ReadCallsError> {
    let content: Content = calls::parse_object(STYLE, "", content)?;
    if content.candidates.is_some() {
        return Err(calls::invalid(
            STYLE,
            String::new(),
            "expected a candidate's content (`candidates[0].content`), found a whole response",
        ));
    }
    let parts = content.parts.unwrap_or_default();
    let calls = parts
        .iter()
        .filter(|part| part.function_call.is_some())
        .count();
    let mut turn = Turn::with_capacity(STYLE, calls);
    for (index, part) in parts.into_iter().enumerate() {
        let Some(call) = part.function_call else {
            continue;
        };
        let name = calls::not_empty(
            STYLE,
            call.name,
            || format!("parts[{index}].functionCall.name"),
            "tool name",
        )?;
        let args = call
            .args
            .unwrap_or_else(|| Value::Object(Default::default()));
        let id = call.id.unwrap_or_default();
        turn.push(index, Call::new(id, name, Arguments::Json(args)));
    }
    turn.finish(|index| format!("parts[{index}].functionCall.id"))
}

#[derive(Deserialize)]
struct Content {
    #[serde(default)]
    parts: Option<Vec<Part>>,
    /// Present only when the whole response was passed.
    #[serde(default)]
    candidates: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(expecting = "a part object")]
struct Part {
    #[serde(rename = "functionCall", alias = "function_call", default)]
    function_call: Option<FunctionCall>,
}

#[derive(Deserialize)]
#[serde(expecting = "a function call object")]
struct FunctionCall {
    #[serde(default)]
    id: Option<String>,
    name: String,
    #[serde(default)]
    args: Option<Value>,
}
