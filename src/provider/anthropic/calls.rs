//! Reading the tool calls of an Anthropic Messages assistant message.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, SeqAccess, Visitor};
use serde_json::Value;

use crate::provider::calls::{self, Arguments, Call, ReadCallsError, Turn};

const STYLE: &str = "anthropic message";

/// Reads the tool calls of an Anthropic Messages assistant message: the
/// Messages API response (which is the message) or the `assistant` entry
/// of a conversation's `messages`.
///
/// Each `tool_use` content block is one call, in order; its `input` is kept
/// as JSON ([`Arguments::Json`], `{}` when left out). Blocks of other types
/// (`text`, `thinking`, server tool blocks) are skipped; a `content` that is
/// a plain string, or missing, has no calls. Other fields are ignored.
///
/// # Errors
/// [`ReadCallsError`] when the text is not JSON, a field has the wrong
/// type, a block has no `type`, a `tool_use` block has no `id` or `name`,
/// an empty id or name, or the id of an earlier call of the turn.
///
/// ```
/// use serde_json::json;
/// use toolresult::provider::{anthropic, Arguments, Call};
///
/// let calls = anthropic::read_calls(r#"{
///     "role": "assistant",
///     "content": [
///         {"type": "text", "text": "Adding."},
///         {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 1}}
///     ],
///     "stop_reason": "tool_use"
/// }"#)?;
/// assert_eq!(calls, [Call::new("toolu_1", "add", Arguments::Json(json!({"a": 1})))]);
///
/// let err = anthropic::read_calls(r#"{"content":[{"type":"tool_use","id":"toolu_1","name":""}]}"#)
///     .unwrap_err();
/// assert_eq!(err.to_string(), "anthropic message: content[0].name: empty tool name");
/// # Ok::<(), toolresult::provider::ReadCallsError>(())
/// ```
pub fn read_calls(message: &str) -> Result<Vec<Call>, ReadCallsError> {
    let message: Message<'_> = calls::parse_object(STYLE, "", message)?;
    let blocks = message.content.0;
    let uses = blocks
        .iter()
        .filter(|block| block.kind == "tool_use")
        .count();
    let mut turn = Turn::with_capacity(STYLE, uses);
    for (index, block) in blocks.into_iter().enumerate() {
        if block.kind != "tool_use" {
            continue;
        }
        let at = || format!("content[{index}]");
        let id = calls::required(STYLE, block.id, at, "id", "call id")?;
        let name = calls::required(STYLE, block.name, at, "name", "tool name")?;
        let input = block
            .input
            .unwrap_or_else(|| Value::Object(Default::default()));
        turn.push(index, Call::new(id, name, Arguments::Json(input)));
    }
    turn.finish(|index| format!("content[{index}].id"))
}

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow, default)]
    content: Blocks<'a>,
}

/// The content blocks; none when `content` is a plain string.
#[derive(Default)]
struct Blocks<'a>(Vec<Block<'a>>);

/// A content block of any type: the fields of a `tool_use`, optional so
/// that blocks of other types read too.
#[derive(Deserialize)]
#[serde(expecting = "a content block object")]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    input: Option<Value>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Blocks<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BlocksVisitor;

        impl<'de> Visitor<'de> for BlocksVisitor {
            type Value = Blocks<'de>;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("an array of content blocks or a string")
            }

            fn visit_str<E: serde::de::Error>(self, _text: &str) -> Result<Self::Value, E> {
                Ok(Blocks(Vec::new()))
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(Blocks(Vec::new()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut blocks = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(block) = seq.next_element()? {
                    blocks.push(block);
                }
                Ok(Blocks(blocks))
            }
        }

        deserializer.deserialize_any(BlocksVisitor)
    }
}
