//! Reading a Gemini `streamGenerateContent` stream (`alt=sse`): each event
//! a `GenerateContentResponse` whose first candidate's parts add to the
//! content; a `functionCall` part is whole, or, on Vertex AI with
//! streamed arguments, grows by its `partialArgs` until `willContinue`
//! is no longer set.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::Gemini;
use crate::provider::Call;
use crate::provider::calls::{self, ReadCallsError};
use crate::provider::stream::{self, Calls, Dialect, StreamEnd, Streamed};
use crate::tool::Arguments;

mod events;
mod partial_args;

use events::{Part0, Response};
use partial_args::apply;

const STYLE: &str = "gemini stream";

/// A Gemini stream read so far.
#[derive(Debug)]
pub struct GeminiReader {
    calls: Calls,
    parts: Vec<Part>,
    end: Option<StreamEnd>,
}

impl Default for GeminiReader {
    fn default() -> Self {
        Self {
            calls: Calls::new(STYLE, |position| {
                format!("parts[{position}].functionCall.id")
            }),
            parts: Vec::new(),
            end: None,
        }
    }
}

/// A part of the assembled content.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Any part but a `functionCall`, as it came (text parts joined).
    Other(Map<String, Value>),
    /// A call whose arguments are still streaming (Vertex AI's
    /// `partialArgs`): its id, name, the part's other fields, the
    /// arguments so far, and the path of a string still growing.
    Open {
        id: String,
        name: String,
        rest: Map<String, Value>,
        args: Value,
        growing: Option<String>,
    },
    /// A whole call: the part's other fields (`thoughtSignature`), and the
    /// call at this index of the calls.
    Call(Map<String, Value>, usize),
}

/// The assembled content's parts, less their calls.
#[derive(Debug, Clone, PartialEq)]
pub struct GeminiContent {
    parts: Vec<Part>,
}

impl Dialect for Gemini {
    type Reader = GeminiReader;
    type Message = GeminiContent;

    fn push_text(
        reader: &mut GeminiReader,
        event: &str,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        reader.read(stream::from_text(STYLE, event)?, ready)
    }

    fn push_value(
        reader: &mut GeminiReader,
        event: &Value,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        reader.read(stream::from_value(STYLE, event)?, ready)
    }

    fn finish(reader: GeminiReader) -> Result<Streamed<Self>, ReadCallsError> {
        let GeminiReader { calls, parts, end } = reader;
        let parts = parts
            .into_iter()
            .filter(|part| !matches!(part, Part::Open { .. }))
            .collect();
        Ok(Streamed::new(
            end.unwrap_or(StreamEnd::Unfinished),
            calls.into_vec(),
            GeminiContent { parts },
        ))
    }

    fn write<S: Serializer>(
        calls: &[Call],
        message: &GeminiContent,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("role", "model")?;
        let parts: Vec<_> = message
            .parts
            .iter()
            .filter(|part| !matches!(part, Part::Open { .. }))
            .map(|part| PartOut { part, calls })
            .collect();
        map.serialize_entry("parts", &parts)?;
        map.end()
    }
}

impl GeminiReader {
    fn read(&mut self, event: Response, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        if self.end.is_some() {
            // The message has ended: what follows changes nothing.
            return Ok(());
        }
        if let Some(error) = event.error {
            self.end = Some(StreamEnd::Failed(error.message()));
            self.parts.retain(|part| !matches!(part, Part::Open { .. }));
            return Ok(());
        }
        if event
            .prompt_feedback
            .is_some_and(|feedback| feedback.block_reason.is_some())
        {
            self.end = Some(StreamEnd::Filtered);
        }
        // Only the first candidate is the content.
        let Some(candidate) = event
            .candidates
            .into_iter()
            .find(|candidate| candidate.index.unwrap_or(0) == 0)
        else {
            return Ok(());
        };
        for Part0(part) in candidate
            .content
            .and_then(|content| content.parts)
            .unwrap_or_default()
        {
            self.part(part, ready)?;
        }
        if let Some(reason) = candidate.finish_reason {
            self.finished(&reason, ready)?;
        }
        Ok(())
    }

    fn part(
        &mut self,
        mut part: Map<String, Value>,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError> {
        let call = part
            .remove("functionCall")
            .or_else(|| part.remove("function_call"));
        let Some(call) = call else {
            self.other(part);
            return Ok(());
        };
        let position = self.parts.len();
        let at = || format!("parts[{position}].functionCall");
        let Value::Object(mut call) = call else {
            return Err(calls::invalid(
                STYLE,
                at(),
                "invalid type: expected a function call object",
            ));
        };
        let text = |call: &mut Map<String, Value>, field: &str| match call.remove(field) {
            Some(Value::String(text)) => Ok(text),
            Some(Value::Null) | None => Ok(String::new()),
            Some(_) => Err(calls::invalid(
                STYLE,
                format!("{}.{field}", at()),
                "invalid type: expected a string",
            )),
        };
        let id = text(&mut call, "id")?;
        let name = text(&mut call, "name")?;
        let continues = call.get("willContinue").and_then(Value::as_bool) == Some(true);
        let partial = match call.remove("partialArgs") {
            Some(Value::Array(partial)) => partial,
            _ => Vec::new(),
        };
        // A part that goes on a call still streaming: no name of its own,
        // or the open call's.
        let open = match self.parts.last() {
            Some(Part::Open { name: open, .. }) if name.is_empty() || name == *open => {
                self.parts.len().checked_sub(1)
            }
            _ => None,
        };
        let at = match open {
            Some(at) => at,
            None => {
                // Parts stream one after another: a call still open has ended.
                for before in 0..self.parts.len() {
                    self.close(before, ready)?;
                }
                if !continues && partial.is_empty() {
                    // A whole call.
                    let name =
                        calls::not_empty(STYLE, name, || format!("{}.name", at()), "tool name")?;
                    let args = call
                        .remove("args")
                        .filter(|args| !args.is_null())
                        .unwrap_or_else(|| Value::Object(Map::new()));
                    let index = self.calls.close(
                        position,
                        Call::new(id, name, Arguments::Json(args)),
                        false,
                        ready,
                    )?;
                    self.parts.push(Part::Call(part, index));
                    return Ok(());
                }
                let args = call
                    .remove("args")
                    .filter(|args| !args.is_null())
                    .unwrap_or_else(|| Value::Object(Map::new()));
                self.parts.push(Part::Open {
                    id: String::new(),
                    name,
                    rest: Map::new(),
                    args,
                    growing: None,
                });
                position
            }
        };
        if let Some(Part::Open {
            id: open_id,
            rest,
            args,
            growing,
            ..
        }) = self.parts.get_mut(at)
        {
            if open_id.is_empty() {
                *open_id = id;
            }
            rest.extend(part);
            for partial in partial {
                apply(args, growing, partial, || {
                    format!("parts[{at}].functionCall.partialArgs")
                })?;
            }
        }
        if !continues {
            self.close(at, ready)?;
        }
        Ok(())
    }

    /// A part that is not a call: a text part joins the one before it when
    /// both are of the same kind and the one before has no signature.
    fn other(&mut self, part: Map<String, Value>) {
        let is_plain_text = |part: &Map<String, Value>| {
            part.get("text").is_some_and(Value::is_string)
                && part
                    .keys()
                    .all(|key| matches!(key.as_str(), "text" | "thought" | "thoughtSignature"))
        };
        if is_plain_text(&part)
            && let Some(Part::Other(last)) = self.parts.last_mut()
            && is_plain_text(last)
            && !last.contains_key("thoughtSignature")
            && last.get("thought") == part.get("thought")
        {
            let mut part = part;
            if let (Some(Value::String(text)), Some(Value::String(more))) =
                (last.get_mut("text"), part.remove("text"))
            {
                text.push_str(&more);
            }
            last.extend(part);
            return;
        }
        self.parts.push(Part::Other(part));
    }

    fn close(&mut self, at: usize, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        let Some(Part::Open { .. }) = self.parts.get(at) else {
            return Ok(());
        };
        let Some(Part::Open {
            id,
            name,
            rest,
            args,
            ..
        }) = self
            .parts
            .get_mut(at)
            .map(|part| std::mem::replace(part, Part::Other(Map::new())))
        else {
            return Ok(());
        };
        let name = calls::not_empty(
            STYLE,
            name,
            || format!("parts[{at}].functionCall.name"),
            "tool name",
        )?;
        let index =
            self.calls
                .close(at, Call::new(id, name, Arguments::Json(args)), false, ready)?;
        if let Some(part) = self.parts.get_mut(at) {
            *part = Part::Call(rest, index);
        }
        Ok(())
    }

    fn finished(&mut self, reason: &str, ready: &mut Vec<Call>) -> Result<(), ReadCallsError> {
        let end = match reason {
            "STOP" => StreamEnd::Finished,
            "MAX_TOKENS" => StreamEnd::Length,
            "SAFETY"
            | "RECITATION"
            | "BLOCKLIST"
            | "PROHIBITED_CONTENT"
            | "SPII"
            | "IMAGE_SAFETY"
            | "IMAGE_PROHIBITED_CONTENT"
            | "IMAGE_RECITATION" => StreamEnd::Filtered,
            other => StreamEnd::Other(crate::canonical::shorten(other)),
        };
        if end == StreamEnd::Finished {
            for at in 0..self.parts.len() {
                self.close(at, ready)?;
            }
            self.calls.release(ready);
        } else {
            self.parts.retain(|part| !matches!(part, Part::Open { .. }));
        }
        self.end = Some(end);
        Ok(())
    }
}

/// A part as the content writes it.
struct PartOut<'a> {
    part: &'a Part,
    calls: &'a [Call],
}

impl Serialize for PartOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.part {
            Part::Other(part) => part.serialize(serializer),
            Part::Call(rest, index) => {
                let mut map = serializer.serialize_map(None)?;
                if let Some(call) = self.calls.get(*index) {
                    map.serialize_entry("functionCall", &CallOut(call))?;
                }
                for (key, value) in rest {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
            Part::Open { .. } => serializer.serialize_unit(),
        }
    }
}

struct CallOut<'a>(&'a Call);

impl Serialize for CallOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let call = self.0;
        let mut map = serializer.serialize_map(None)?;
        if !call.id.is_empty() {
            map.serialize_entry("id", &call.id)?;
        }
        map.serialize_entry("name", &call.name)?;
        match &call.arguments {
            Arguments::Json(args) => map.serialize_entry("args", args)?,
            Arguments::Text(text) => map.serialize_entry("args", text)?,
        }
        map.end()
    }
}
