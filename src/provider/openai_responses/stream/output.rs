//! The assembled `output` array of a Responses stream, less its calls,
//! and how it is written back.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::provider::Call;
use crate::tool::Arguments;

/// An output item of the assembled turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// Any item but a `function_call`, as its last event gave it.
    Other(Value),
    /// A `function_call` being written: the item as it opened (less its
    /// arguments), the deltas so far, and the whole text once given.
    Open {
        item: Map<String, Value>,
        deltas: String,
        whole: Option<String>,
    },
    /// A whole `function_call`: the item less its call fields, and the
    /// call at this index of the calls.
    Call(Map<String, Value>, usize),
    /// A `function_call` the stream cut (`incomplete`): left out.
    Cut,
}

/// The assembled `output` array, less its calls.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponsesOutput {
    pub(super) items: Vec<Item>,
}

/// An item as the `output` array writes it.
pub(super) struct ItemOut<'a> {
    pub(super) item: &'a Item,
    pub(super) calls: &'a [Call],
}

impl Serialize for ItemOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.item {
            Item::Other(value) => value.serialize(serializer),
            Item::Call(rest, index) => {
                let mut map = serializer.serialize_map(None)?;
                for (key, value) in rest {
                    map.serialize_entry(key, value)?;
                }
                if let Some(call) = self.calls.get(*index) {
                    map.serialize_entry("call_id", &call.id)?;
                    map.serialize_entry("name", &call.name)?;
                    match &call.arguments {
                        Arguments::Text(text) => map.serialize_entry("arguments", text)?,
                        Arguments::Json(value) => {
                            map.serialize_entry("arguments", &value.to_string())?
                        }
                    }
                }
                map.end()
            }
            Item::Open { .. } | Item::Cut => serializer.serialize_unit(),
        }
    }
}
