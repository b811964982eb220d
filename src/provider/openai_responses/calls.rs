//! Reading the function calls of a Responses API turn.

use std::borrow::Cow;

use serde::Deserialize;

use crate::provider::calls::{self, Arguments, Call, ReadCallsError, Turn};

const STYLE: &str = "openai responses";

/// Reads the function calls of a Responses API turn: the response's
/// `output` array, as the next request's `input` takes its items back, not
/// the whole response object (one shape, like every other reader here:
/// what the conversation keeps of the turn).
///
/// Each `{"type": "function_call"}` item is one call, in order, with its
/// `call_id` as the id; its `arguments` text is kept as it came
/// ([`Arguments::Text`]). Items of other types (`reasoning`, `message`,
/// built-in tool calls) are skipped; unknown fields are ignored.
///
/// # Errors
/// [`ReadCallsError`] when the text is not JSON or not an array, a field
/// has the wrong type, a `function_call` item has no `call_id`, `name` or
/// `arguments`, an empty `call_id` or name, or the `call_id` of an earlier
/// call of the turn.
///
/// ```
/// use toolresult::provider::{openai_responses, Arguments, Call};
///
/// let calls = openai_responses::read_calls(r#"[
///     {"type": "reasoning", "id": "rs_1", "summary": []},
///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "add",
///      "arguments": "{\"a\":1}", "status": "completed"}
/// ]"#)?;
/// assert_eq!(calls, [Call::new("call_1", "add", Arguments::Text(r#"{"a":1}"#.into()))]);
///
/// let err = openai_responses::read_calls(r#"[{"type":"function_call","name":"add","arguments":"{}"}]"#)
///     .unwrap_err();
/// assert_eq!(err.to_string(), "openai responses: output[0]: missing field `call_id`");
/// # Ok::<(), toolresult::provider::ReadCallsError>(())
/// ```
pub fn read_calls(output: &str) -> Result<Vec<Call>, ReadCallsError> {
    let items: Vec<Item<'_>> = calls::parse(STYLE, "output", output)?;
    let calls = items
        .iter()
        .filter(|item| item.kind == "function_call")
        .count();
    let mut turn = Turn::with_capacity(STYLE, calls);
    for (index, item) in items.into_iter().enumerate() {
        if item.kind != "function_call" {
            continue;
        }
        let at = || format!("output[{index}]");
        let id = calls::required(STYLE, item.call_id, at, "call_id", "call id")?;
        let name = calls::required(STYLE, item.name, at, "name", "tool name")?;
        let Some(arguments) = item.arguments else {
            return Err(calls::invalid(STYLE, at(), "missing field `arguments`"));
        };
        turn.push(index, Call::new(id, name, Arguments::Text(arguments)));
    }
    turn.finish(|index| format!("output[{index}].call_id"))
}

/// An output item of any type: the fields of a `function_call`, optional so
/// that items of other types read too. (Every documented item type that
/// has a `call_id`, `name` or `arguments` has it as a string.)
#[derive(Deserialize)]
#[serde(expecting = "an output item object")]
struct Item<'a> {
    /// Borrowed unless escaped; empty when missing.
    #[serde(rename = "type", borrow, default)]
    kind: Cow<'a, str>,
    #[serde(default)]
    call_id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<String>,
}
