//! Reading a Chat Completions stream: `chat.completion.chunk` events whose
//! `delta.tool_calls[]` fragments, keyed by `index`, make up the calls.

use std::borrow::Cow;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use super::OpenAiChat;
use crate::provider::Call;
use crate::provider::calls::{self, ReadCallsError};
use crate::provider::stream::{self, Calls, Dialect, ErrorBody, StreamEnd, Streamed};
use crate::tool::Arguments;

const STYLE: &str = "openai chat stream";

/// A Chat Completions stream read so far.
#[derive(Debug)]
pub struct ChatReader {
    calls: Calls,
    /// The calls being written, in the order they opened.
    open: Vec<Open>,
    content: Option<String>,
    refusal: Option<String>,
    end: Option<StreamEnd>,
}

impl Default for ChatReader {
    fn default() -> Self {
        Self {
            calls: Calls::new(STYLE, |position| format!("tool_calls[{position}].id")),
            open: Vec::new(),
            content: None,
            refusal: None,
            end: None,
        }
    }
}

/// A call being written.
#[derive(Debug)]
struct Open {
    index: Option<u64>,
    id: String,
    name: String,
    arguments: String,
}

/// The assembled message's text.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatMessage {
    content: Option<String>,
    refusal: Option<String>,
}

impl Dialect for OpenAiChat {
    type Reader = ChatReader;
    type Message = ChatMessage;

    fn push_text(
        reader: &mut ChatReader,
        event: &str,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        if event.trim() == "[DONE]" {
            return Ok(());
        }
        reader.read(stream::from_text(STYLE, event)?, ready)
    }

    fn push_value(
        reader: &mut ChatReader,
        event: &Value,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        if event.as_str().is_some_and(|text| text.trim() == "[DONE]") {
            return Ok(());
        }
        reader.read(stream::from_value(STYLE, event)?, ready)
    }

    fn finish(reader: ChatReader) -> Result<Streamed<Self>, ReadCallsError> {
        let ChatReader {
            calls,
            content,
            refusal,
            end,
            ..
        } = reader;
        let message = ChatMessage { content, refusal };
        Ok(Streamed::new(
            end.unwrap_or(StreamEnd::Unfinished),
            calls.into_vec(),
            message,
        ))
    }

    fn write<S: Serializer>(
        calls: &[Call],
        message: &ChatMessage,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("role", "assistant")?;
        map.serialize_entry("content", &message.content)?;
        if let Some(refusal) = &message.refusal {
            map.serialize_entry("refusal", refusal)?;
        }
        if !calls.is_empty() {
            let calls: Vec<_> = calls.iter().map(ToolCallOut::from).collect();
            map.serialize_entry("tool_calls", &calls)?;
        }
        map.end()
    }
}

impl ChatReader {
    fn read(&mut self, chunk: Chunk<'_>, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        if self.end.is_some() {
            // The message has ended: what follows changes nothing.
            return Ok(());
        }
        if let Some(error) = chunk.error {
            self.end = Some(StreamEnd::Failed(error.message()));
            self.open.clear();
            return Ok(());
        }
        // Only the first choice is the message (`n` > 1 streams others).
        for choice in chunk.choices.into_iter().filter(|choice| choice.index == 0) {
            if let Some(delta) = choice.delta {
                append(&mut self.content, delta.content);
                append(&mut self.refusal, delta.refusal);
                for fragment in delta.tool_calls.unwrap_or_default() {
                    self.fragment(fragment, ready)?;
                }
            }
            if let Some(reason) = choice.finish_reason {
                self.finished(&reason, ready)?;
            }
        }
        Ok(())
    }

    /// Adds a `tool_calls[]` fragment to its call, opening one when it is
    /// the first of a call.
    fn fragment(
        &mut self,
        fragment: Fragment<'_>,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        let id = fragment.id.filter(|id| !id.is_empty());
        let function = fragment.function.unwrap_or_default();
        let name = function.name.filter(|name| !name.is_empty());
        let arguments = function.arguments.filter(|text| !text.is_empty());
        if let Some(kind) = fragment.kind.filter(|kind| kind != "function") {
            return Err(calls::invalid(
                STYLE,
                format!("tool_calls[{}].type", self.calls.len() + self.open.len()),
                format!("expected \"function\", found {}", calls::quote(&kind)),
            ));
        }
        let open = match self.find(fragment.index, id.as_deref(), name.as_deref()) {
            Some(open) => open,
            None => {
                if id.is_none() && name.is_none() && arguments.is_none() {
                    // An empty fragment changes nothing, even with an index.
                    return Ok(());
                }
                // A new call: the ones before it are whole.
                self.close_open(ready)?;
                self.open.push(Open {
                    index: fragment.index,
                    id: String::new(),
                    name: String::new(),
                    arguments: String::new(),
                });
                self.open.len() - 1
            }
        };
        let Some(call) = self.open.get_mut(open) else {
            return Ok(());
        };
        if let Some(id) = id {
            call.id = id.into_owned();
        }
        if let Some(name) = name {
            call.name = name.into_owned();
        }
        if let Some(text) = arguments {
            call.arguments.push_str(&text);
        }
        Ok(())
    }

    /// The open call a fragment adds to: by index, unless it brings another
    /// id or another name (a new call at a used index); without an index,
    /// by id, else the call being written.
    fn find(&self, index: Option<u64>, id: Option<&str>, name: Option<&str>) -> Option<usize> {
        let same = |open: &Open| {
            id.is_none_or(|id| open.id.is_empty() || open.id == id)
                && name.is_none_or(|name| open.name.is_empty() || open.name == name)
        };
        match (index, id) {
            (Some(index), _) => self
                .open
                .iter()
                .rposition(|open| open.index == Some(index))
                .filter(|&at| self.open.get(at).is_some_and(same)),
            (None, Some(id)) => self.open.iter().rposition(|open| open.id == id),
            (None, None) => self
                .open
                .len()
                .checked_sub(1)
                .filter(|&at| self.open.get(at).is_some_and(same)),
        }
    }

    /// Closes every open call, in order: each is whole.
    fn close_open(&mut self, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        for open in std::mem::take(&mut self.open) {
            let position = self.calls.len();
            let at = || format!("tool_calls[{position}]");
            let id = calls::not_empty(STYLE, open.id, || format!("{}.id", at()), "call id")?;
            let name = calls::not_empty(
                STYLE,
                open.name,
                || format!("{}.function.name", at()),
                "tool name",
            )?;
            let mut arguments = open.arguments;
            arguments.shrink_to_fit();
            let held = !stream::is_whole(&arguments);
            let call = Call::new(id, name, Arguments::Text(arguments));
            self.calls.close(position, call, held, ready)?;
        }
        Ok(())
    }

    /// A `finish_reason`: the open calls are whole when the message
    /// finished, and cut otherwise.
    fn finished(&mut self, reason: &str, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        let end = match reason {
            "stop" | "tool_calls" | "function_call" => StreamEnd::Finished,
            "length" => StreamEnd::Length,
            "content_filter" => StreamEnd::Filtered,
            other => StreamEnd::Other(crate::canonical::shorten(other)),
        };
        if end == StreamEnd::Finished {
            self.close_open(ready)?;
            self.calls.release(ready);
        } else {
            self.open.clear();
        }
        self.end = Some(end);
        Ok(())
    }
}

/// Appends a text fragment; an empty or `null` one changes nothing.
fn append(text: &mut Option<String>, fragment: Option<Cow<'_, str>>) {
    match fragment {
        Some(fragment) if !fragment.is_empty() => {
            text.get_or_insert_with(String::new).push_str(&fragment)
        }
        _ => {}
    }
}

/// One `tool_calls` entry of the message.
#[derive(Serialize)]
struct ToolCallOut<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    function: FunctionOut<'a>,
}

#[derive(Serialize)]
struct FunctionOut<'a> {
    name: &'a str,
    arguments: Cow<'a, str>,
}

impl<'a> From<&'a Call> for ToolCallOut<'a> {
    fn from(call: &'a Call) -> Self {
        let arguments = match &call.arguments {
            Arguments::Text(text) => Cow::Borrowed(text.as_str()),
            Arguments::Json(value) => Cow::Owned(value.to_string()),
        };
        Self {
            id: &call.id,
            kind: "function",
            function: FunctionOut {
                name: &call.name,
                arguments,
            },
        }
    }
}

/// A `chat.completion.chunk`: only what the calls and text need.
#[derive(Deserialize)]
#[serde(expecting = "a chat completion chunk object")]
struct Chunk<'a> {
    #[serde(default, borrow)]
    choices: Vec<Choice<'a>>,
    #[serde(default)]
    error: Option<ErrorBody>,
}

#[derive(Deserialize)]
#[serde(expecting = "a choice object")]
struct Choice<'a> {
    #[serde(default)]
    index: u64,
    #[serde(default, borrow)]
    delta: Option<Delta<'a>>,
    #[serde(default, borrow)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
#[serde(expecting = "a delta object")]
struct Delta<'a> {
    #[serde(default, borrow)]
    content: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    refusal: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    tool_calls: Option<Vec<Fragment<'a>>>,
}

#[derive(Deserialize)]
#[serde(expecting = "a tool call fragment object")]
struct Fragment<'a> {
    #[serde(default)]
    index: Option<u64>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(rename = "type", default, borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    function: Option<FunctionFragment<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(expecting = "a function fragment object")]
struct FunctionFragment<'a> {
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    arguments: Option<Cow<'a, str>>,
}
