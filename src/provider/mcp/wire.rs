//! The wire structs an MCP `CallToolResult` is read into: each field kept
//! as what it must be (a string borrowed from the input where the input
//! allows) or as the JSON type it was instead, so that the contract's
//! checks ([`read`](super::read)) run over them in one fixed order and a
//! message never depends on the order of keys.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// A JSON value read as what a field must be, or the type it was instead.
pub(super) enum Field<T> {
    /// `null`.
    Null,
    /// A value of the type the field must have.
    Is(T),
    /// A value of another type, named for messages (`a number`, ...).
    Not(&'static str),
}

impl<T> Field<T> {
    /// The JSON type name of a value that is not a `T`, for messages.
    pub(super) fn found(&self) -> &'static str {
        match self {
            Field::Null => "null",
            Field::Is(_) => "the expected type",
            Field::Not(found) => found,
        }
    }
}

/// What a field holds when its JSON type is the one it must have, read
/// straight off the deserializer. Each method reads one JSON type; `None`
/// says "not this type" (the value has been read past).
pub(super) trait Shape<'de>: Sized {
    fn string(_text: Cow<'de, str>) -> Option<Self> {
        None
    }
    fn boolean(_flag: bool) -> Option<Self> {
        None
    }
    fn array<A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn object<A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

impl<'de, T: Shape<'de>> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FieldVisitor(PhantomData))
    }
}

struct FieldVisitor<T>(PhantomData<T>);

impl<T> FieldVisitor<T> {
    fn or_not(value: Option<T>, found: &'static str) -> Field<T> {
        value.map_or(Field::Not(found), Field::Is)
    }
}

impl<'de, T: Shape<'de>> Visitor<'de> for FieldVisitor<T> {
    type Value = Field<T>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Field<T>, E> {
        Ok(Field::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Field<T>, E> {
        Ok(Field::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Field<T>, D::Error> {
        Field::deserialize(deserializer)
    }
    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<Field<T>, E> {
        Ok(Self::or_not(T::boolean(flag), "a boolean"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Field<T>, E> {
        Ok(Field::Not("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Field<T>, E> {
        Ok(Field::Not("a number"))
    }
    fn visit_i128<E: de::Error>(self, _: i128) -> Result<Field<T>, E> {
        Ok(Field::Not("a number"))
    }
    fn visit_u128<E: de::Error>(self, _: u128) -> Result<Field<T>, E> {
        Ok(Field::Not("a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Field<T>, E> {
        Ok(Field::Not("a number"))
    }
    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Field<T>, E> {
        Ok(Self::or_not(T::string(Cow::Borrowed(text)), "a string"))
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<Field<T>, E> {
        Ok(Self::or_not(
            T::string(Cow::Owned(text.to_owned())),
            "a string",
        ))
    }
    fn visit_string<E: de::Error>(self, text: String) -> Result<Field<T>, E> {
        Ok(Self::or_not(T::string(Cow::Owned(text)), "a string"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Field<T>, A::Error> {
        Ok(Self::or_not(T::array(seq)?, "an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Field<T>, A::Error> {
        Ok(Self::or_not(T::object(map)?, "an object"))
    }
}

/// A string field: borrowed from the input unless it held an escape.
pub(super) type Str<'de> = Option<Field<Cow<'de, str>>>;

impl<'de> Shape<'de> for Cow<'de, str> {
    fn string(text: Cow<'de, str>) -> Option<Self> {
        Some(text)
    }
}

impl Shape<'_> for bool {
    fn boolean(flag: bool) -> Option<Self> {
        Some(flag)
    }
}

/// The keys the reader knows, on any object of the result.
pub(super) enum Key {
    Content,
    StructuredContent,
    IsError,
    Type,
    Text,
    MimeType,
    Data,
    Uri,
    Name,
    Resource,
    Blob,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    "content" => Key::Content,
                    "structuredContent" => Key::StructuredContent,
                    "isError" => Key::IsError,
                    "type" => Key::Type,
                    "text" => Key::Text,
                    "mimeType" => Key::MimeType,
                    "data" => Key::Data,
                    "uri" => Key::Uri,
                    "name" => Key::Name,
                    "resource" => Key::Resource,
                    "blob" => Key::Blob,
                    _ => Key::Other,
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// A `CallToolResult`. A repeated key keeps its last value, as a [`Value`]
/// does.
#[derive(Default)]
pub(super) struct Reply<'de> {
    pub(super) content: Option<Field<Blocks<'de>>>,
    pub(super) structured_content: Option<Value>,
    pub(super) is_error: Option<Field<bool>>,
}

impl<'de> Shape<'de> for Reply<'de> {
    fn object<A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut reply = Reply::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Content => reply.content = Some(map.next_value()?),
                Key::StructuredContent => reply.structured_content = map.next_value()?,
                Key::IsError => reply.is_error = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Some(reply))
    }
}

/// The `content` array.
pub(super) struct Blocks<'de>(pub(super) Vec<Field<Block<'de>>>);

impl<'de> Shape<'de> for Blocks<'de> {
    fn array<A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self>, A::Error> {
        let mut blocks = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(block) = seq.next_element()? {
            blocks.push(block);
        }
        Ok(Some(Blocks(blocks)))
    }
}

/// A content block, every field any block type reads.
#[derive(Default)]
pub(super) struct Block<'de> {
    pub(super) kind: Str<'de>,
    pub(super) text: Str<'de>,
    pub(super) mime_type: Str<'de>,
    pub(super) data: Str<'de>,
    pub(super) uri: Str<'de>,
    pub(super) name: Str<'de>,
    pub(super) resource: Option<Field<Resource<'de>>>,
}

impl<'de> Shape<'de> for Block<'de> {
    fn object<A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut block = Block::default();
        while let Some(key) = map.next_key::<Key>()? {
            let field = match key {
                Key::Type => &mut block.kind,
                Key::Text => &mut block.text,
                Key::MimeType => &mut block.mime_type,
                Key::Data => &mut block.data,
                Key::Uri => &mut block.uri,
                Key::Name => &mut block.name,
                Key::Resource => {
                    block.resource = Some(map.next_value()?);
                    continue;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *field = Some(map.next_value()?);
        }
        Ok(Some(block))
    }
}

/// The `resource` of an embedded resource block.
#[derive(Default)]
pub(super) struct Resource<'de> {
    pub(super) text: Str<'de>,
    pub(super) uri: Str<'de>,
    pub(super) mime_type: Str<'de>,
    pub(super) blob: Str<'de>,
}

impl<'de> Shape<'de> for Resource<'de> {
    fn object<A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut resource = Resource::default();
        while let Some(key) = map.next_key::<Key>()? {
            let field = match key {
                Key::Text => &mut resource.text,
                Key::Uri => &mut resource.uri,
                Key::MimeType => &mut resource.mime_type,
                Key::Blob => &mut resource.blob,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *field = Some(map.next_value()?);
        }
        Ok(Some(resource))
    }
}
