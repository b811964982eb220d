//! Reading the tool calls of a Chat Completions assistant message.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::provider::calls::{self, Arguments, Call, Object, ReadCallsError, Turn};

const STYLE: &str = "openai chat message";

/// Reads the tool calls of a Chat Completions assistant message: the
/// `message` of a choice (`choices[0].message`), as the next request's
/// `messages` holds it, not the whole completion.
///
/// Each `tool_calls` entry is one call, in order; its `function.arguments`
/// text is kept as it came ([`Arguments::Text`]). A message with no
/// `tool_calls` (or `null`) has no calls. Other fields are ignored.
///
/// # Errors
/// [`ReadCallsError`] when the text is not JSON, a field has the wrong type,
/// a call has no `id`, `type` or name, an empty id or name, a `type` other
/// than `function`, or the id of an earlier call of the turn; and when the
/// text is a whole completion (`choices`) rather than its message.
///
/// ```
/// use toolresult::provider::{openai_chat, Arguments, Call};
///
/// let calls = openai_chat::read_calls(r#"{
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
/// let err = openai_chat::read_calls(
///     r#"{"tool_calls":[{"id":"call_1","type":"custom","custom":{"name":"sql","input":"1"}}]}"#,
/// ).unwrap_err();
/// assert_eq!(err.to_string(), r#"openai chat message: tool_calls[0].type: expected "function", found "custom""#);
/// # Ok::<(), toolresult::provider::ReadCallsError>(())
/// ```
pub fn read_calls(message: &str) -> Result<Vec<Call>, ReadCallsError> {
    let Object(message): Object<Message<'_>> = calls::parse(STYLE, "", message)?;
    if message.choices.is_some() {
        return Err(calls::invalid(
            STYLE,
            String::new(),
            "expected an assistant message (a completion's `choices[0].message`), found a whole completion",
        ));
    }
    let tool_calls = message.tool_calls.unwrap_or_default();
    let mut turn = Turn::with_capacity(STYLE, tool_calls.len());
    for (index, call) in tool_calls.into_iter().enumerate() {
        let at = || format!("tool_calls[{index}]");
        if call.kind != "function" {
            return Err(calls::invalid(
                STYLE,
                format!("{}.type", at()),
                format!("expected \"function\", found {}", calls::quote(&call.kind)),
            ));
        }
        let Some(function) = call.function else {
            return Err(calls::invalid(STYLE, at(), "missing field `function`"));
        };
        let id = calls::not_empty(STYLE, call.id, || format!("{}.id", at()), "call id")?;
        let name = calls::not_empty(
            STYLE,
            function.name,
            || format!("{}.function.name", at()),
            "tool name",
        )?;
        turn.push(
            index,
            Call::new(id, name, Arguments::Text(function.arguments)),
        );
    }
    turn.finish(|index| format!("tool_calls[{index}].id"))
}

/// An assistant message: only what reading its calls needs.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow, default)]
    tool_calls: Option<Vec<ToolCall<'a>>>,
    /// Present only when the whole completion was passed.
    #[serde(default)]
    choices: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(expecting = "a tool call object")]
struct ToolCall<'a> {
    id: String,
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    /// Optional here so that another `type` is reported as such.
    #[serde(default)]
    function: Option<Function>,
}

#[derive(Deserialize)]
#[serde(expecting = "a function object")]
struct Function {
    name: String,
    arguments: String,
}
