//! The Responses stream's events as the reader reads them: only what the
//! calls and items need, the rest skipped unread.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

use crate::provider::stream::ErrorBody;

/// A stream event: only what the calls and items need.
#[derive(Deserialize)]
#[serde(expecting = "a stream event object")]
pub(super) struct Event<'a> {
    #[serde(rename = "type", borrow)]
    pub(super) kind: Cow<'a, str>,
    #[serde(default)]
    pub(super) output_index: Option<u64>,
    #[serde(default)]
    pub(super) item: Option<Map<String, Value>>,
    #[serde(default, borrow)]
    pub(super) arguments: Option<Cow<'a, str>>,
    #[serde(default)]
    pub(super) response: Option<Response>,
    #[serde(default)]
    pub(super) message: Option<Value>,
}

/// What every event is read into first: its type, where it goes, and a
/// delta's text; the rest (an item's or the arguments' whole text) is
/// skipped unread.
#[derive(Deserialize)]
#[serde(expecting = "a stream event object")]
pub(super) struct Head<'a> {
    #[serde(rename = "type", borrow)]
    pub(super) kind: Cow<'a, str>,
    #[serde(default)]
    pub(super) output_index: Option<u64>,
    #[serde(default, borrow)]
    pub(super) item_id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(super) delta: Option<Cow<'a, str>>,
}

/// An `output_item.done` whose call has its arguments already: the item
/// without them.
#[derive(Deserialize)]
pub(super) struct Lean {
    #[serde(default)]
    pub(super) item: Option<Skip>,
}

/// An item object, its `arguments` skipped unread.
pub(super) struct Skip(pub(super) Map<String, Value>);

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SkipVisitor;

        impl<'de> Visitor<'de> for SkipVisitor {
            type Value = Skip;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("an output item object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
                let mut item = Map::new();
                while let Some(key) = map.next_key::<String>()? {
                    if key == "arguments" {
                        map.next_value::<IgnoredAny>()?;
                    } else {
                        let value = map.next_value()?;
                        item.insert(key, value);
                    }
                }
                Ok(Skip(item))
            }
        }

        deserializer.deserialize_map(SkipVisitor)
    }
}

/// The `response` of `response.incomplete` and `response.failed`.
#[derive(Deserialize)]
pub(super) struct Response {
    #[serde(default)]
    pub(super) incomplete_details: Option<IncompleteDetails>,
    #[serde(default)]
    pub(super) error: Option<ErrorBody>,
}

#[derive(Deserialize)]
pub(super) struct IncompleteDetails {
    #[serde(default)]
    pub(super) reason: Option<String>,
}
