//! Reading the function calls of a Responses API turn.

use std::borrow::Cow;

use serde::Deserialize;

use crate::provider::calls::{self, Call, ReadCallsError, Turn};
use crate::tool::Arguments;

const STYLE: &str = "openai responses";

pub(super) fn read_calls(output: &str) -> Result<Vec<Call>, ReadCallsError> {
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
