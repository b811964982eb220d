//! A provider's call reader on arbitrary bytes (read as lossy UTF-8, as a
//! transport's text would be):
//!
//! - a message read gives the calls the message holds where the provider
//!   documents them, in order: their ids and names are worked out here
//!   from the message's JSON value alone, not with the crate's reader;
//! - those ids and names come back unchanged through the provider's reply
//!   (one answer per call, in order, under its id; Gemini's name, and its
//!   id when there is one; MCP's reply has one result per call, its id
//!   being the JSON-RPC envelope's);
//! - anything else is a [`ReadCallsError`] whose message starts with the
//!   provider style, is at most [`LIMIT`] characters long whatever the
//!   input's size, and says "not JSON" only of text serde_json does not
//!   read as a value.

use serde_json::Value;
use toolresult::canonical::ToolResult;
use toolresult::provider::{Call, CallRef, PartPolicy, ReadCallsError};

use super::providers::{self, Style};

/// The longest a read error's message may be: the style, a path of the
/// reader's own field names and indices, what was wrong, and the
/// offending value cut to 64 characters and then quoted, where a control
/// character is escaped to as many as 10 (`\u{10ffff}`); a duplicate id's
/// message has two paths.
pub const LIMIT: usize = 1024;

/// Panics when the property breaks for `style` and `data`.
pub(super) fn check(style: Style, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match providers::read_calls(style, &text) {
        Ok(calls) => check_read(style, &text, &calls),
        Err(err) => check_error(style, &text, &err),
    }
}

fn check_read(style: Style, text: &str, calls: &[Call]) {
    let read: Vec<(&str, &str)> = calls
        .iter()
        .map(|call| (call.id.as_str(), call.name.as_str()))
        .collect();
    for (id, name) in &read {
        assert!(
            !name.is_empty(),
            "{style:?}: an empty name was read: {text}"
        );
        assert!(
            !id.is_empty() || style == Style::Gemini,
            "{style:?}: an empty id was read: {text}"
        );
    }
    // A message serde_json reads as a value (it refuses some text a
    // reader skips unread: a lone surrogate or a huge number in an
    // ignored field) holds exactly these calls.
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        let expected = documented_calls(style, &value).unwrap_or_else(|| {
            panic!("{style:?} read {read:?} from a message not of its shape: {text}")
        });
        let expected: Vec<(&str, &str)> = expected
            .iter()
            .map(|(i, n)| (i.as_str(), n.as_str()))
            .collect();
        assert_eq!(read, expected, "{style:?}: {text}");
    }

    // Each call answered, the reply carries its id and name back.
    let results: Vec<ToolResult> = (0..calls.len())
        .map(|n| ToolResult::ok(format!("answer {n}")))
        .collect();
    let turn: Vec<(CallRef<'_>, &ToolResult)> = calls
        .iter()
        .zip(&results)
        .map(|(call, result)| (CallRef::new(&call.id, &call.name), result))
        .collect();
    let reply = providers::reply(style, &turn, PartPolicy::Strict);
    let answered = replied_calls(style, &reply)
        .unwrap_or_else(|| panic!("{style:?}: a reply not of its documented shape: {reply}"));
    let expected: Vec<(Option<&str>, Option<&str>)> = read
        .iter()
        .map(|&(id, name)| match style {
            Style::OpenaiChat | Style::OpenaiResponses | Style::Anthropic => (Some(id), None),
            Style::Gemini => (Some(id).filter(|id| !id.is_empty()), Some(name)),
            Style::Mcp => (None, None),
        })
        .collect();
    let answered: Vec<(Option<&str>, Option<&str>)> = answered
        .iter()
        .map(|(id, name)| (id.as_deref(), name.as_deref()))
        .collect();
    assert_eq!(answered, expected, "{style:?} reply {reply} to {text}");
}

fn check_error(style: Style, text: &str, err: &ReadCallsError) {
    let shown = err.to_string();
    assert!(
        shown.starts_with(style.error_prefix()),
        "{style:?}: {shown:?} does not name its style"
    );
    assert!(
        shown.chars().count() <= LIMIT,
        "{style:?}: a message of {} characters: {shown}",
        shown.chars().count()
    );
    // serde_json refuses as "not JSON" what it cannot hold as a value (a
    // number out of range, a lone surrogate), even in a field skipped
    // unread; text it reads as a value is JSON.
    if matches!(err, ReadCallsError::NotJson { .. }) {
        assert!(
            serde_json::from_str::<Value>(text).is_err(),
            "{style:?}: JSON reported as not JSON: {shown}: {text}"
        );
    }
}

/// A string field of `value`, if it is one.
fn string(value: &Value, key: &str) -> Option<String> {
    value.get(key)?.as_str().map(str::to_owned)
}

/// The (id, name) of every call `value` holds where the style documents
/// them, in order; `None` when `value` is not of the style's shape.
fn documented_calls(style: Style, value: &Value) -> Option<Vec<(String, String)>> {
    let items = |value: Option<&Value>| -> Option<Vec<Value>> {
        match value {
            None | Some(Value::Null) => Some(Vec::new()),
            Some(Value::Array(items)) => Some(items.clone()),
            Some(_) => None,
        }
    };
    match style {
        Style::OpenaiChat => items(value.get("tool_calls"))?
            .iter()
            .map(|call| Some((string(call, "id")?, string(call.get("function")?, "name")?)))
            .collect(),
        Style::OpenaiResponses => value
            .as_array()?
            .iter()
            .filter(|item| item.get("type").and_then(Value::as_str) == Some("function_call"))
            .map(|item| Some((string(item, "call_id")?, string(item, "name")?)))
            .collect(),
        Style::Anthropic => {
            let blocks = match value.get("content") {
                Some(Value::String(_)) => Vec::new(),
                content => items(content)?,
            };
            blocks
                .iter()
                .filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_use"))
                .map(|block| Some((string(block, "id")?, string(block, "name")?)))
                .collect()
        }
        Style::Gemini => items(value.get("parts"))?
            .iter()
            .filter_map(|part| {
                ["functionCall", "function_call"]
                    .iter()
                    .find_map(|key| part.get(*key).filter(|call| !call.is_null()))
            })
            .map(|call| {
                let id = match call.get("id") {
                    None | Some(Value::Null) => String::new(),
                    Some(id) => id.as_str()?.to_owned(),
                };
                Some((id, string(call, "name")?))
            })
            .collect(),
        Style::Mcp => {
            let id = match value.get("id")? {
                Value::String(id) => id.clone(),
                Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
                _ => return None,
            };
            Some(vec![(id, string(value.get("params")?, "name")?)])
        }
    }
}

/// The (id, name) each answer of a reply carries, as the style documents
/// its reply; `None` for a field the style does not write there.
type Replied = Vec<(Option<String>, Option<String>)>;

/// What each answer of `reply` carries; `None` when the reply is not of
/// the style's shape.
fn replied_calls(style: Style, reply: &Value) -> Option<Replied> {
    let answers = match style {
        Style::OpenaiChat | Style::OpenaiResponses | Style::Mcp => reply.as_array()?,
        Style::Anthropic => reply.get("content")?.as_array()?,
        Style::Gemini => reply.get("parts")?.as_array()?,
    };
    answers
        .iter()
        .map(|answer| {
            Some(match style {
                Style::OpenaiChat => {
                    (answer.get("role")? == "tool").then_some(())?;
                    (Some(string(answer, "tool_call_id")?), None)
                }
                Style::OpenaiResponses => {
                    (answer.get("type")? == "function_call_output").then_some(())?;
                    (Some(string(answer, "call_id")?), None)
                }
                Style::Anthropic => {
                    (answer.get("type")? == "tool_result").then_some(())?;
                    (Some(string(answer, "tool_use_id")?), None)
                }
                Style::Gemini => {
                    let response = answer.get("functionResponse")?;
                    let id = match response.get("id") {
                        None => None,
                        Some(id) => Some(id.as_str()?.to_owned()),
                    };
                    (id, Some(string(response, "name")?))
                }
                Style::Mcp => {
                    answer.get("content")?.as_array()?;
                    (None, None)
                }
            })
        })
        .collect()
}
