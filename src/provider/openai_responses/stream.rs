//! Reading a Responses stream: `response.output_item.added` opens an item,
//! `response.function_call_arguments.delta` adds to a call's arguments,
//! `.done` and `response.output_item.done` give it whole;
//! `response.completed` ends it.

use std::borrow::Cow;

use serde::Serializer;
use serde_json::{Map, Value};

use super::OpenAiResponses;
use crate::provider::Call;
use crate::provider::calls::{self, ReadCallsError};
use crate::provider::stream::{self, Calls, Data, Dialect, ErrorBody, StreamEnd, Streamed};
use crate::tool::Arguments;

mod events;
mod output;

use events::{Event, Head, Lean, Skip};
use output::ItemOut;
pub use output::{Item, ResponsesOutput};

const STYLE: &str = "openai responses stream";

/// A Responses stream read so far.
#[derive(Debug)]
pub struct ResponsesReader {
    calls: Calls,
    /// The output items in the order they opened, with their
    /// `output_index` and item `id`.
    items: Vec<(Option<u64>, Option<String>, Item)>,
    end: Option<StreamEnd>,
}

impl Default for ResponsesReader {
    fn default() -> Self {
        Self {
            calls: Calls::new(STYLE, |position| format!("output[{position}].call_id")),
            items: Vec::new(),
            end: None,
        }
    }
}

impl Dialect for OpenAiResponses {
    type Reader = ResponsesReader;
    type Message = ResponsesOutput;

    fn push_text(
        reader: &mut ResponsesReader,
        event: &str,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        reader.push(event, ready)
    }

    fn push_value(
        reader: &mut ResponsesReader,
        event: &Value,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        reader.push(event, ready)
    }

    fn finish(reader: ResponsesReader) -> Result<Streamed<Self>, ReadCallsError> {
        let ResponsesReader { calls, items, end } = reader;
        let items = items
            .into_iter()
            .map(|(_, _, item)| item)
            .filter(|item| !matches!(item, Item::Open { .. } | Item::Cut))
            .collect();
        Ok(Streamed::new(
            end.unwrap_or(StreamEnd::Unfinished),
            calls.into_vec(),
            ResponsesOutput { items },
        ))
    }

    fn write<S: Serializer>(
        calls: &[Call],
        message: &ResponsesOutput,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(message.items.iter().map(|item| ItemOut { item, calls }))
    }
}

impl ResponsesReader {
    /// Reads an event lean first: a delta needs no more, and a call's
    /// `.done` events need their whole text only when no delta came.
    fn push<'de>(
        &mut self,
        data: impl Data<'de>,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        let head: Head<'de> = data.parse(STYLE)?;
        if self.end.is_some() {
            // The message has ended: what follows changes nothing.
            return Ok(());
        }
        let at = self.position(head.output_index, head.item_id.as_deref());
        let has_text = at
            .and_then(|at| self.items.get(at))
            .is_some_and(|(_, _, item)| {
                matches!(item, Item::Open { deltas, .. } if !deltas.is_empty())
                    || matches!(item, Item::Call(..))
            });
        match head.kind.as_ref() {
            "response.function_call_arguments.delta" => {
                if let Some(delta) = head.delta.filter(|delta| !delta.is_empty())
                    && let Some(Item::Open { deltas, .. }) = at.and_then(|at| self.get(at))
                {
                    deltas.push_str(&delta);
                }
                Ok(())
            }
            "response.function_call_arguments.done" => {
                if !has_text {
                    let event: Event<'de> = data.parse(STYLE)?;
                    if let Some(Item::Open { whole, .. }) = at.and_then(|at| self.get(at)) {
                        *whole = event.arguments.map(Cow::into_owned);
                    }
                }
                match at {
                    Some(at) => self.close(at, false, ready),
                    None => Ok(()),
                }
            }
            "response.output_item.done" if has_text => {
                let Lean { item } = data.parse(STYLE)?;
                self.done(
                    head.output_index,
                    item.map(|Skip(item)| item).unwrap_or_default(),
                    ready,
                )
            }
            _ => self.read(data.parse(STYLE)?, ready),
        }
    }

    fn read(&mut self, event: Event<'_>, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        match event.kind.as_ref() {
            "response.output_item.added" => {
                let item = event.item.unwrap_or_default();
                self.open(event.output_index, item);
            }
            "response.output_item.done" => {
                let item = event.item.unwrap_or_default();
                self.done(event.output_index, item, ready)?;
            }
            "response.completed" => self.finished(StreamEnd::Finished, ready)?,
            "response.incomplete" => {
                let reason = event
                    .response
                    .and_then(|response| response.incomplete_details)
                    .and_then(|details| details.reason);
                let end = match reason.as_deref() {
                    Some("max_output_tokens") => StreamEnd::Length,
                    Some("content_filter") => StreamEnd::Filtered,
                    Some(other) => StreamEnd::Other(crate::canonical::shorten(other)),
                    None => StreamEnd::Other("incomplete".into()),
                };
                self.finished(end, ready)?;
            }
            "response.failed" => {
                let error = event.response.and_then(|response| response.error);
                let end = StreamEnd::Failed(error.unwrap_or_default().message());
                self.finished(end, ready)?;
            }
            "error" => {
                let error = ErrorBody::from_message(event.message);
                self.finished(StreamEnd::Failed(error.message()), ready)?;
            }
            // Text, reasoning and built-in tools' deltas: their items'
            // `output_item.done` gives them whole.
            _ => {}
        }
        Ok(())
    }

    fn open(&mut self, output_index: Option<u64>, item: Map<String, Value>) {
        let id = item.get("id").and_then(Value::as_str).map(str::to_owned);
        self.items.push((output_index, id, opened(item)));
    }

    /// Where the item an event is for is: by `output_index`, else by item
    /// id, else the last one opened.
    fn position(&self, output_index: Option<u64>, item_id: Option<&str>) -> Option<usize> {
        match (output_index, item_id) {
            (Some(index), _) => self.items.iter().rposition(|(at, _, _)| *at == Some(index)),
            (None, Some(id)) => self
                .items
                .iter()
                .rposition(|(_, item, _)| item.as_deref() == Some(id)),
            (None, None) => self.items.len().checked_sub(1),
        }
    }

    fn get(&mut self, position: usize) -> Option<&mut Item> {
        self.items.get_mut(position).map(|(_, _, item)| item)
    }

    /// An `output_item.done`: the item as it ends.
    fn done(
        &mut self,
        output_index: Option<u64>,
        mut item: Map<String, Value>,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        let id = item.get("id").and_then(Value::as_str);
        let Some(at) = self.position(output_index, id) else {
            // An item never opened opens and ends here.
            self.open(output_index, item);
            let at = self.items.len().saturating_sub(1);
            return self.close(at, true, ready);
        };
        match self.get(at) {
            Some(Item::Open {
                item: open,
                deltas,
                whole,
            }) => {
                // The whole text counts only when no delta came.
                match item.remove("arguments") {
                    Some(Value::String(text)) if deltas.is_empty() => *whole = Some(text),
                    _ => {}
                }
                // An item opened as a call stays one.
                item.remove("type");
                open.extend(item);
                self.close(at, true, ready)
            }
            Some(Item::Call(rest, _)) => {
                // A whole call stays the call it was.
                for key in ["type", "call_id", "name", "arguments"] {
                    item.remove(key);
                }
                rest.extend(item);
                Ok(())
            }
            Some(Item::Other(Value::Object(other))) => {
                // An item keeps the type it opened with.
                match other.get("type").cloned() {
                    Some(kind) => item.insert("type".into(), kind),
                    None => item.remove("type"),
                };
                *other = item;
                Ok(())
            }
            // A cut call stays left out.
            Some(Item::Cut) => Ok(()),
            Some(other) => {
                *other = Item::Other(Value::Object(item));
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// Closes the call at `position` once its arguments are whole JSON, or,
    /// at its item's end (`ended`), as they are; an item the stream marks
    /// `incomplete` stays open: it was cut.
    fn close(
        &mut self,
        position: usize,
        ended: bool,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        if !matches!(self.get(position), Some(Item::Open { .. })) {
            return Ok(());
        }
        // Items stream one after another: the calls before this one have
        // ended, and are closed first, in order; one still open was cut.
        for before in 0..position {
            self.close(before, true, ready)?;
            if let Some(item @ Item::Open { .. }) = self.get(before) {
                *item = Item::Cut;
            }
        }
        let Some(Item::Open {
            item,
            deltas,
            whole,
        }) = self.get(position)
        else {
            return Ok(());
        };
        if item.get("status").and_then(Value::as_str) == Some("incomplete") {
            return Ok(());
        }
        let arguments = if deltas.is_empty() {
            whole.as_deref().unwrap_or_default()
        } else {
            deltas.as_str()
        };
        let json = stream::is_whole(arguments);
        if !json && !ended {
            return Ok(());
        }
        let Some(Item::Open {
            mut item,
            deltas,
            whole,
        }) = self
            .get(position)
            .map(|item| std::mem::replace(item, Item::Other(Value::Null)))
        else {
            return Ok(());
        };
        let mut arguments = if deltas.is_empty() {
            whole.unwrap_or_default()
        } else {
            deltas
        };
        arguments.shrink_to_fit();
        let at = || format!("output[{position}]");
        let field = |item: &mut Map<String, Value>, field: &str, what: &str| {
            let value = match item.remove(field) {
                Some(Value::String(text)) => Some(text),
                Some(Value::Null) | None => None,
                Some(other) => {
                    return Err(calls::invalid(
                        STYLE,
                        format!("{}.{field}", at()),
                        format!("invalid type: {}, expected a string", kind(&other)),
                    ));
                }
            };
            calls::required(STYLE, value, at, field, what)
        };
        let id = field(&mut item, "call_id", "call id")?;
        let name = field(&mut item, "name", "tool name")?;
        let call = Call::new(id, name, Arguments::Text(arguments));
        let index = self.calls.close(position, call, !json, ready)?;
        if let Some(slot) = self.get(position) {
            *slot = Item::Call(item, index);
        }
        Ok(())
    }

    fn finished(&mut self, end: StreamEnd, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        if end == StreamEnd::Finished {
            for at in 0..self.items.len() {
                if matches!(self.get(at), Some(Item::Open { .. })) {
                    self.close(at, true, ready)?;
                }
            }
            self.calls.release(ready);
        }
        self.end = Some(end);
        Ok(())
    }
}

/// An item as it opens: a `function_call` open for its arguments (those
/// it opens with count only when no delta or whole text follows), any
/// other kept as it is.
fn opened(mut item: Map<String, Value>) -> Item {
    if item.get("type").and_then(Value::as_str) != Some("function_call") {
        return Item::Other(Value::Object(item));
    }
    let start = match item.remove("arguments") {
        Some(Value::String(text)) => text,
        _ => String::new(),
    };
    Item::Open {
        item,
        deltas: String::new(),
        whole: Some(start).filter(|start| !start.is_empty()),
    }
}

/// What a JSON value is, as serde says it.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "sequence",
        Value::Object(_) => "map",
    }
}
