//! Reading the function calls of a Gemini model content.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use crate::provider::calls::{self, Call, FoundCalls, Object, ReadCallsError};
use crate::tool::Arguments;

const STYLE: &str = "gemini content";

pub(super) fn read_calls(content: &str) -> Result<Vec<Call>, ReadCallsError> {
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
        .filter(|Object(part)| part.function_call.is_some())
        .count();
    let mut turn = FoundCalls::with_capacity(STYLE, calls);
    for (index, Object(part)) in parts.into_iter().enumerate() {
        let Some(Object(call)) = part.function_call else {
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
#[serde(expecting = "a JSON object")]
struct Content {
    /// Each part, and its call, an object: a derived struct would also
    /// read an array, field by field.
    #[serde(default)]
    parts: Option<Vec<Object<Part>>>,
    /// Present only when the whole response was passed.
    #[serde(default)]
    candidates: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(expecting = "a part object")]
struct Part {
    #[serde(rename = "functionCall", alias = "function_call", default)]
    function_call: Option<Object<FunctionCall>>,
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
