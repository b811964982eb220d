//! Reading the tool calls of an Anthropic Messages assistant message.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, SeqAccess, Visitor};
use serde_json::Value;

use crate::provider::calls::{self, Call, FoundCalls, Object, ReadCallsError};
use crate::tool::Arguments;

const STYLE: &str = "anthropic message";

pub(super) fn read_calls(message: &str) -> Result<Vec<Call>, ReadCallsError> {
    let message: Message<'_> = calls::parse_object(STYLE, "", message)?;
    let blocks = message.content.0;
    let uses = blocks
        .iter()
        .filter(|block| block.kind == "tool_use")
        .count();
    let mut turn = FoundCalls::with_capacity(STYLE, uses);
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
#[serde(expecting = "a JSON object")]
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
                // Each block an object: a derived struct would also read
                // an array, field by field.
                while let Some(Object(block)) = seq.next_element()? {
                    blocks.push(block);
                }
                Ok(Blocks(blocks))
            }
        }

        deserializer.deserialize_any(BlocksVisitor)
    }
}
