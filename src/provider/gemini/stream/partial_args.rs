//! Vertex AI's streamed arguments: a call's `partialArgs`, each a value
//! at a JSON path, applied as they come.

use serde_json::{Map, Value};

use super::STYLE;
use crate::provider::calls::{self, ReadCallsError};

/// Applies one of Vertex AI's `partialArgs`, `{jsonPath, stringValue |
/// numberValue | boolValue | nullValue, willContinue}`: the value is set at
/// its path; a string whose last piece said `willContinue` grows by the
/// next piece at the same path.
pub(super) fn apply(
    args: &mut Value,
    growing: &mut Option<String>,
    partial: Value,
    at: impl Fn() -> String,
) -> Result<(), ReadCallsError> {
    let Value::Object(mut partial) = partial else {
        return Err(calls::invalid(
            STYLE,
            at(),
            "invalid type: expected a partial argument object",
        ));
    };
    let Some(Value::String(path)) = partial.remove("jsonPath") else {
        return Err(calls::invalid(STYLE, at(), "missing field `jsonPath`"));
    };
    let continues = partial.get("willContinue").and_then(Value::as_bool) == Some(true);
    let value = if let Some(value) = partial.remove("stringValue") {
        value
    } else if let Some(value) = partial.remove("numberValue") {
        value
    } else if let Some(value) = partial.remove("boolValue") {
        value
    } else if partial.contains_key("nullValue") {
        Value::Null
    } else {
        // No value: nothing to add.
        return Ok(());
    };
    let Some(slot) = place(args, &path) else {
        return Err(calls::invalid(
            STYLE,
            at(),
            format!(
                "a JSON path this reader cannot follow: {}",
                calls::quote(&path)
            ),
        ));
    };
    match (slot, value) {
        (Value::String(text), Value::String(more)) if growing.as_deref() == Some(path.as_str()) => {
            text.push_str(&more);
        }
        (slot, value) => *slot = value,
    }
    *growing = continues.then_some(path);
    Ok(())
}

/// The place at a JSON path (`$.a.b[0]`, `$['a']`), made as it is
/// followed: a missing member is added, an array grows by one at its end.
fn place<'a>(mut at: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    let mut rest = path.strip_prefix('$')?;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            let (key, next) = after.split_at(end);
            at = member(at, key)?;
            rest = next;
        } else if let Some(after) = rest.strip_prefix("['") {
            let end = after.find("']")?;
            let (key, next) = after.split_at(end);
            at = member(at, key)?;
            rest = next.get(2..)?;
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            let (number, next) = after.split_at(end);
            let index: usize = number.parse().ok()?;
            if at.is_null() {
                *at = Value::Array(Vec::new());
            }
            let Value::Array(list) = at else { return None };
            if index == list.len() {
                list.push(Value::Null);
            }
            at = list.get_mut(index)?;
            rest = next.get(1..)?;
        } else {
            return None;
        }
    }
    Some(at)
}

fn member<'a>(at: &'a mut Value, key: &str) -> Option<&'a mut Value> {
    if key.is_empty() {
        return None;
    }
    if at.is_null() {
        *at = Value::Object(Map::new());
    }
    let Value::Object(map) = at else { return None };
    Some(map.entry(key).or_insert(Value::Null))
}
