//! Reading an Anthropic Messages stream: `content_block_start` opens a
//! block, `content_block_delta`s add to it, `content_block_stop` closes it;
//! `message_delta` says why the message ended.

use std::borrow::Cow;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

use super::Anthropic;
use crate::provider::Call;
use crate::provider::calls::{self, ReadCallsError};
use crate::provider::stream::{self, Calls, Dialect, ErrorBody, StreamEnd, Streamed};
use crate::tool::Arguments;

const STYLE: &str = "anthropic stream";

/// An Anthropic stream read so far.
#[derive(Debug)]
pub struct AnthropicReader {
    calls: Calls,
    /// The blocks in the order they opened; a `tool_use` block still
    /// being written is `Open`, and one the stream cut is left out.
    blocks: Vec<(Option<u64>, Block)>,
    end: Option<StreamEnd>,
}

impl Default for AnthropicReader {
    fn default() -> Self {
        Self {
            calls: Calls::new(STYLE, |position| format!("content[{position}].id")),
            blocks: Vec::new(),
            end: None,
        }
    }
}

/// A content block of the assembled message.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// Any block but a client `tool_use`: as it started, with the text its
    /// deltas add (`text`, `thinking`, `signature`, a server tool's input).
    Other {
        block: Map<String, Value>,
        /// The growing text of the block's one text field, and its name.
        text: Option<(&'static str, String)>,
        /// A server tool's `partial_json`.
        json: String,
    },
    /// A `tool_use` being written: its id, name, input at the start, and
    /// the `partial_json` text so far.
    Open {
        id: String,
        name: String,
        input: Option<Value>,
        json: String,
    },
    /// A whole `tool_use`: the call at this index of the calls.
    Call(usize),
}

/// The assembled message's blocks, less their calls.
#[derive(Debug, Clone, PartialEq)]
pub struct AnthropicMessage {
    blocks: Vec<Block>,
}

impl Dialect for Anthropic {
    type Reader = AnthropicReader;
    type Message = AnthropicMessage;

    fn push_text(
        reader: &mut AnthropicReader,
        event: &str,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        reader.read(stream::from_text(STYLE, event)?, ready)
    }

    fn push_value(
        reader: &mut AnthropicReader,
        event: &Value,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        reader.read(stream::from_value(STYLE, event)?, ready)
    }

    fn finish(reader: AnthropicReader) -> Result<Streamed<Self>, ReadCallsError> {
        let AnthropicReader {
            calls, blocks, end, ..
        } = reader;
        let blocks = blocks
            .into_iter()
            .map(|(_, block)| block)
            .filter(|block| !matches!(block, Block::Open { .. }))
            .collect();
        Ok(Streamed::new(
            end.unwrap_or(StreamEnd::Unfinished),
            calls.into_vec(),
            AnthropicMessage { blocks },
        ))
    }

    fn write<S: Serializer>(
        calls: &[Call],
        message: &AnthropicMessage,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("role", "assistant")?;
        let blocks: Vec<_> = message
            .blocks
            .iter()
            .map(|block| BlockOut { block, calls })
            .collect();
        map.serialize_entry("content", &blocks)?;
        map.end()
    }
}

impl AnthropicReader {
    fn read(&mut self, event: Event<'_>, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        if self.end.is_some() {
            // The message has ended: what follows changes nothing.
            return Ok(());
        }
        match event.kind.as_ref() {
            "content_block_start" => {
                let Some(block) = event.content_block else {
                    return Err(calls::invalid(
                        STYLE,
                        String::new(),
                        "missing field `content_block`",
                    ));
                };
                self.start(event.index, block)?;
            }
            "content_block_delta" => {
                if let Some(delta) = event.delta {
                    self.delta(event.index, delta);
                }
            }
            "content_block_stop" => self.stop(event.index, ready)?,
            "message_delta" => {
                let reason = event.delta.and_then(|delta| delta.stop_reason);
                if let Some(reason) = reason {
                    self.finished(&reason, ready)?;
                }
            }
            "error" => {
                let error = event.error.unwrap_or_default();
                self.end = Some(StreamEnd::Failed(error.message()));
                self.drop_open();
            }
            // `message_start`, `message_stop`, `ping` and events Anthropic
            // may add change nothing.
            _ => {}
        }
        Ok(())
    }

    fn start(
        &mut self,
        index: Option<u64>,
        block: Map<String, Value>,
    ) -> Result<(), ReadCallsError> {
        let Some(kind) = block.get("type").and_then(Value::as_str) else {
            // The message could not be read back without it.
            let at = format!("content[{}]", self.blocks.len());
            return Err(calls::invalid(STYLE, at, "missing field `type`"));
        };
        let opened = if kind == "tool_use" {
            let text = |field: &str| {
                block
                    .get(field)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .unwrap_or_default()
            };
            Block::Open {
                id: text("id"),
                name: text("name"),
                input: block.get("input").filter(|input| !input.is_null()).cloned(),
                json: String::new(),
            }
        } else {
            let field = match kind {
                "text" => Some("text"),
                "thinking" => Some("thinking"),
                _ => None,
            };
            let text = field.map(|field| {
                let start = block.get(field).and_then(Value::as_str).unwrap_or_default();
                (field, start.to_owned())
            });
            Block::Other {
                block,
                text,
                json: String::new(),
            }
        };
        self.blocks.push((index, opened));
        Ok(())
    }

    /// The block an event is for: by index, else the last one opened.
    fn block(&mut self, index: Option<u64>) -> Option<&mut Block> {
        match index {
            Some(index) => self
                .blocks
                .iter_mut()
                .rev()
                .find(|(at, _)| *at == Some(index))
                .map(|(_, block)| block),
            None => self.blocks.last_mut().map(|(_, block)| block),
        }
    }

    fn delta(&mut self, index: Option<u64>, delta: Delta<'_>) {
        let Some(block) = self.block(index) else {
            return;
        };
        match block {
            Block::Open { json, .. } => {
                if let Some(part) = nonempty(delta.partial_json) {
                    json.push_str(&part);
                }
            }
            Block::Other { block, text, json } => {
                if let Some(part) = nonempty(delta.partial_json) {
                    json.push_str(&part);
                }
                let added = nonempty(delta.text).or(nonempty(delta.thinking));
                if let (Some((_, text)), Some(added)) = (text.as_mut(), added) {
                    text.push_str(&added);
                }
                if let Some(signature) = nonempty(delta.signature) {
                    block.insert("signature".into(), Value::String(signature.into_owned()));
                }
                if let Some(citation) = delta.citation.filter(|citation| !citation.is_null()) {
                    let citations = block
                        .entry("citations")
                        .or_insert_with(|| Value::Array(Vec::new()));
                    if let Value::Array(list) = citations {
                        list.push(citation);
                    } else {
                        *citations = Value::Array(vec![citation]);
                    }
                }
            }
            Block::Call(_) => {}
        }
    }

    fn stop(&mut self, index: Option<u64>, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        let position = match index {
            Some(index) => self.blocks.iter().rposition(|(at, _)| *at == Some(index)),
            None => self.blocks.len().checked_sub(1),
        };
        match position {
            Some(position) => self.stop_at(position, ready),
            None => Ok(()),
        }
    }

    /// Stops the block at `position`: blocks stream one after another, so
    /// the calls before it have ended too, and are closed first, in order.
    fn stop_at(&mut self, position: usize, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        if matches!(self.blocks.get(position), Some((_, Block::Open { .. }))) {
            for before in 0..position {
                if matches!(self.blocks.get(before), Some((_, Block::Open { .. }))) {
                    self.stop_at(before, ready)?;
                }
            }
        }
        let Some((_, block)) = self.blocks.get_mut(position) else {
            return Ok(());
        };
        match block {
            Block::Open { .. } => {
                let Block::Open {
                    id,
                    name,
                    input,
                    json,
                } = std::mem::replace(block, Block::Call(0))
                else {
                    return Ok(());
                };
                let at = || format!("content[{position}]");
                let id = calls::not_empty(STYLE, id, || format!("{}.id", at()), "call id")?;
                let name = calls::not_empty(STYLE, name, || format!("{}.name", at()), "tool name")?;
                // The start's `input` counts only when no text followed it.
                let (arguments, held) = if json.trim().is_empty() {
                    let input = input.unwrap_or_else(|| Value::Object(Map::new()));
                    (Arguments::Json(input), false)
                } else {
                    let json = shrunk(json);
                    match serde_json::from_str(&json) {
                        // The text goes before the call is copied out.
                        Ok(input) => (Arguments::Json(input), false),
                        Err(_) => (Arguments::Text(json), true),
                    }
                };
                let call =
                    self.calls
                        .close(position, Call::new(id, name, arguments), held, ready)?;
                if let Some((_, block)) = self.blocks.get_mut(position) {
                    *block = Block::Call(call);
                }
            }
            Block::Other { block, text, json } => {
                if let Some((field, text)) = text.take() {
                    block.insert(field.into(), Value::String(shrunk(text)));
                }
                if !json.trim().is_empty() {
                    let input = serde_json::from_str(json)
                        .unwrap_or_else(|_| Value::String(std::mem::take(json)));
                    block.insert("input".into(), input);
                }
                json.clear();
                json.shrink_to_fit();
            }
            Block::Call(_) => {}
        }
        Ok(())
    }

    fn finished(&mut self, reason: &str, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        let end = match reason {
            "end_turn" | "tool_use" | "stop_sequence" => StreamEnd::Finished,
            "max_tokens" | "model_context_window_exceeded" => StreamEnd::Length,
            "refusal" => StreamEnd::Filtered,
            other => StreamEnd::Other(crate::canonical::shorten(other)),
        };
        if end == StreamEnd::Finished {
            // A block the stream never stopped is whole at the finish.
            for position in 0..self.blocks.len() {
                self.stop_at(position, ready)?;
            }
            self.calls.release(ready);
        } else {
            self.drop_open();
        }
        self.end = Some(end);
        Ok(())
    }

    /// Leaves out the calls the stream cut.
    fn drop_open(&mut self) {
        self.blocks
            .retain(|(_, block)| !matches!(block, Block::Open { .. }));
    }
}

/// A fragment that adds something: not empty, not `null`.
fn nonempty(text: Option<Cow<'_, str>>) -> Option<Cow<'_, str>> {
    text.filter(|text| !text.is_empty())
}

fn shrunk(mut text: String) -> String {
    text.shrink_to_fit();
    text
}

/// A block as the message writes it.
struct BlockOut<'a> {
    block: &'a Block,
    calls: &'a [Call],
}

impl Serialize for BlockOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.block {
            Block::Other { block, text, .. } => {
                let mut map = serializer.serialize_map(None)?;
                for (key, value) in block {
                    if text.as_ref().is_some_and(|(field, _)| field == key) {
                        continue;
                    }
                    map.serialize_entry(key, value)?;
                }
                if let Some((field, text)) = text {
                    map.serialize_entry(field, text)?;
                }
                map.end()
            }
            Block::Call(index) => {
                let mut map = serializer.serialize_map(Some(4))?;
                map.serialize_entry("type", "tool_use")?;
                if let Some(call) = self.calls.get(*index) {
                    map.serialize_entry("id", &call.id)?;
                    map.serialize_entry("name", &call.name)?;
                    match &call.arguments {
                        Arguments::Json(input) => map.serialize_entry("input", input)?,
                        Arguments::Text(text) => {
                            map.serialize_entry("input", &InvalidJson { invalid: text })?
                        }
                    }
                }
                map.end()
            }
            Block::Open { .. } => serializer.serialize_unit(),
        }
    }
}

/// Input that never became JSON, as Anthropic asks to send it back.
#[derive(Serialize)]
struct InvalidJson<'a> {
    #[serde(rename = "INVALID_JSON")]
    invalid: &'a str,
}

/// A stream event: only what the calls and blocks need.
#[derive(Deserialize)]
#[serde(expecting = "a stream event object")]
struct Event<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    index: Option<u64>,
    #[serde(default)]
    content_block: Option<Map<String, Value>>,
    #[serde(default, borrow)]
    delta: Option<Delta<'a>>,
    #[serde(default)]
    error: Option<ErrorBody>,
}

/// A `content_block_delta`'s or `message_delta`'s `delta`.
#[derive(Deserialize)]
#[serde(expecting = "a delta object")]
struct Delta<'a> {
    #[serde(default, borrow)]
    partial_json: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    thinking: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    signature: Option<Cow<'a, str>>,
    #[serde(default)]
    citation: Option<Value>,
    #[serde(default, borrow)]
    stop_reason: Option<Cow<'a, str>>,
}
