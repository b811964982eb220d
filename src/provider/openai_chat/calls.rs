//! Reading the tool calls of a Chat Completions assistant message.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, SeqAccess, Visitor};

use crate::provider::calls::{self, Call, Object, ReadCallsError};
use crate::tool::Arguments;

const STYLE: &str = "openai chat message";

pub(super) fn read_calls(message: &str) -> Result<Vec<Call>, ReadCallsError> {
    let message: Message = calls::parse_object(STYLE, "", message)?;
    if message.choices.is_some() {
        return Err(calls::invalid(
            STYLE,
            String::new(),
            "expected an assistant message (a completion's `choices[0].message`), found a whole completion",
        ));
    }
    let Some(tool_calls) = message.tool_calls else {
        return Ok(Vec::new());
    };
    if let Some(invalid) = tool_calls.invalid {
        return Err(*invalid);
    }
    calls::distinct_ids(STYLE, tool_calls.calls, |index| {
        format!("tool_calls[{index}].id")
    })
}

/// The `tool_calls` array, read straight into the turn's calls. A call
/// serde reads but this reader refuses (another `type`, an empty id) is
/// kept as the first such error while the rest of the message is read, so
/// that a malformed message is still reported as such first.
struct ToolCalls {
    calls: Vec<Call>,
    invalid: Option<Box<ReadCallsError>>,
}

impl<'de> Deserialize<'de> for ToolCalls {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(ToolCallsVisitor)
    }
}

struct ToolCallsVisitor;

impl<'de> Visitor<'de> for ToolCallsVisitor {
    type Value = ToolCalls;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ToolCalls, A::Error> {
        // Most turns make one call.
        let mut read = ToolCalls {
            calls: Vec::with_capacity(1),
            invalid: None,
        };
        let mut index = 0;
        // Each call, and its function, an object: a derived struct would
        // also read an array, field by field.
        while let Some(Object(call)) = seq.next_element::<Object<CallRef<'de>>>()? {
            if read.invalid.is_none() {
                match checked(index, call) {
                    Ok(call) => read.calls.push(call),
                    Err(invalid) => read.invalid = Some(invalid),
                }
            }
            index += 1;
        }
        Ok(read)
    }
}

/// The call at `index` of `tool_calls`, once its type, id and name are
/// what Chat Completions documents.
fn checked(index: usize, call: CallRef<'_>) -> Result<Call, Box<ReadCallsError>> {
    let at = || format!("tool_calls[{index}]");
    if call.kind != "function" {
        return Err(Box::new(calls::invalid(
            STYLE,
            format!("{}.type", at()),
            format!("expected \"function\", found {}", calls::quote(&call.kind)),
        )));
    }
    let Some(Object(function)) = call.function else {
        return Err(Box::new(calls::invalid(
            STYLE,
            at(),
            "missing field `function`",
        )));
    };
    if call.id.is_empty() {
        return Err(Box::new(calls::invalid(
            STYLE,
            format!("{}.id", at()),
            "empty call id",
        )));
    }
    if function.name.is_empty() {
        return Err(Box::new(calls::invalid(
            STYLE,
            format!("{}.function.name", at()),
            "empty tool name",
        )));
    }
    Ok(Call {
        id: call.id,
        name: function.name,
        arguments: Arguments::Text(function.arguments),
    })
}

/// An assistant message: only what reading its calls needs.
#[derive(Deserialize)]
#[serde(expecting = "a JSON object")]
struct Message {
    #[serde(default)]
    tool_calls: Option<ToolCalls>,
    /// Present only when the whole completion was passed.
    #[serde(default)]
    choices: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(expecting = "a tool call object")]
struct CallRef<'a> {
    id: String,
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    /// Optional here so that another `type` is reported as such.
    #[serde(default)]
    function: Option<Object<Function>>,
}

#[derive(Deserialize)]
#[serde(expecting = "a function object")]
struct Function {
    name: String,
    arguments: String,
}
