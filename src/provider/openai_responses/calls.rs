//! Reading the function calls of a Responses API turn.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::provider::calls::{self, Call, FoundCalls, Object, ReadCallsError};
use crate::tool::Arguments;

const STYLE: &str = "openai responses";

pub(super) fn read_calls(output: &str) -> Result<Vec<Call>, ReadCallsError> {
    let items: Vec<Object<Item<'_>>> = calls::parse(STYLE, "output", output)?;
    let calls = items
        .iter()
        .filter(|Object(item)| item.kind == "function_call")
        .count();
    let mut turn = FoundCalls::with_capacity(STYLE, calls);
    for (index, Object(item)) in items.into_iter().enumerate() {
        if item.kind != "function_call" {
            continue;
        }
        let at = || format!("output[{index}]");
        let text = |field: &str, raw: Option<&RawValue>| text(raw, || format!("{}.{field}", at()));
        let call_id = text("call_id", item.call_id)?;
        let id = calls::required(STYLE, call_id, at, "call_id", "call id")?;
        let name = text("name", item.name)?;
        let name = calls::required(STYLE, name, at, "name", "tool name")?;
        let Some(arguments) = text("arguments", item.arguments)? else {
            return Err(calls::invalid(STYLE, at(), "missing field `arguments`"));
        };
        turn.push(index, Call::new(id, name, Arguments::Text(arguments)));
    }
    turn.finish(|index| format!("output[{index}].call_id"))
}

/// A string field of a `function_call` (`null` is none); another type is
/// refused at `path`.
fn text(
    raw: Option<&RawValue>,
    path: impl FnOnce() -> String,
) -> Result<Option<String>, ReadCallsError> {
    let Some(raw) = raw else { return Ok(None) };
    serde_json::from_str(raw.get()).map_err(|err| calls::from_serde(STYLE, path(), err))
}

/// An output item of any type: the fields of a `function_call`, optional so
/// that items of other types read too. They are kept raw, as written, and
/// read as strings only for a `function_call`: other items have fields of
/// the same names in other types (a `tool_search_call`'s `arguments` is an
/// object).
#[derive(Deserialize)]
#[serde(expecting = "an output item object")]
struct Item<'a> {
    /// Borrowed unless escaped; empty when missing.
    #[serde(rename = "type", borrow, default)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    call_id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    name: Option<&'a RawValue>,
    #[serde(default, borrow)]
    arguments: Option<&'a RawValue>,
}
