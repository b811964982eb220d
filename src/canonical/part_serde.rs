//! The wire form of a part: keys `type`, `text`, `mimeType`, `data`, `url`,
//! `name`, absent ones omitted, inline bytes as standard padded base64.
//!
//! Serialising streams the base64 straight into the output (no intermediate
//! string); deserialising decodes it and checks every invariant, so JSON that
//! breaks the contract is an error, never a silently accepted part.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::base64_data::{Base64, decode_base64, decoded_len};
use super::bounded_read::BytesFrom;
use super::part::Body;
use super::part_validation::PartFields;
use super::{ContentPart, MediaSource, PartError, PartKind, PartLimit};

impl Serialize for ContentPart {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = 1 + usize::from(self.name.is_some());
        match &self.body {
            Body::Text(text) => fields += usize::from(!text.is_empty()),
            Body::Media { .. } => fields += 2,
        }
        let mut s = serializer.serialize_struct("ContentPart", fields)?;
        s.serialize_field("type", &self.kind)?;
        match &self.body {
            Body::Text(text) => {
                if text.is_empty() {
                    s.skip_field("text")?;
                } else {
                    s.serialize_field("text", text)?;
                }
            }
            Body::Media { mime_type, source } => {
                s.serialize_field("mimeType", mime_type)?;
                match source {
                    MediaSource::Data(bytes) => s.serialize_field("data", &Base64(bytes))?,
                    MediaSource::Url(url) => s.serialize_field("url", url)?,
                }
            }
        }
        match &self.name {
            Some(name) => s.serialize_field("name", name)?,
            None => s.skip_field("name")?,
        }
        s.end()
    }
}

/// The base64 `data` value, decoded as it is read.
///
/// From a `&str` or `&[u8]` (`serde_json::from_str`, `from_slice`) and from a
/// `&Value`, serde_json lends the string itself (`visit_borrowed_str`): a
/// base64 string never holds an escape, so it is decoded straight from the
/// input, with no copy. A reader cannot lend its bytes, so serde_json copies
/// each string into its scratch buffer first and lends that (`visit_str`);
/// an owned `Value` hands over its `String` (`visit_string`). Either way the
/// size limit is checked from the length of the base64 before any of it is
/// decoded.
struct DataVisitor(PartLimit);

impl<'de> Visitor<'de> for DataVisitor {
    type Value = bytes::Bytes;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a standard padded base64 string")
    }
    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<bytes::Bytes, E> {
        decode_data(text, self.0).map_err(E::custom)
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<bytes::Bytes, E> {
        decode_data(text, self.0).map_err(E::custom)
    }
}

/// A part's `data`, which may be `null` (read as absent), decoded under a
/// limit.
struct DataSeed(PartLimit);

impl<'de> DeserializeSeed<'de> for DataSeed {
    type Value = Option<bytes::Bytes>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        struct OptionVisitor(PartLimit);
        impl<'de> Visitor<'de> for OptionVisitor {
            type Value = Option<bytes::Bytes>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a standard padded base64 string")
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                d.deserialize_str(DataVisitor(self.0)).map(Some)
            }
        }
        deserializer.deserialize_option(OptionVisitor(self.0))
    }
}

/// A part's base64 `data`: its size checked against `limit` from the
/// length of the base64, then decoded from `text` as it stands.
fn decode_data(text: &str, limit: PartLimit) -> Result<bytes::Bytes, PartError> {
    limit.check(BytesFrom::Encoded("the part's `data`"), decoded_len(text))?;
    decode_base64("`data`", text)
}

/// Where a media part read off a foreign wire (an MCP block) holds its
/// content.
#[derive(Clone, Copy)]
pub(crate) enum WireSource<'a> {
    /// Standard padded base64, as the wire holds it (borrowed from the input
    /// where the input allows).
    Base64(&'a str),
    /// A URL.
    Url(&'a str),
}

/// A media part from a foreign wire's fields, by the rules and messages of
/// parsing a canonical part: base64 has its size checked against `limit`
/// from its encoded length, then is decoded
/// straight from the borrowed text with no copy; then every invariant of the
/// part is checked, as for `{"type", "mimeType", "data" | "url", "name"}`.
pub(crate) fn media_part_from_wire(
    kind: PartKind,
    mime_type: &str,
    source: WireSource<'_>,
    name: Option<&str>,
    limit: PartLimit,
) -> Result<ContentPart, PartError> {
    let mut fields = PartFields {
        kind,
        mime_type: Some(mime_type.to_owned()),
        name: name.map(str::to_owned),
        ..PartFields::default()
    };
    match source {
        WireSource::Base64(text) => fields.data = Some(decode_data(text, limit)?),
        WireSource::Url(url) => fields.url = Some(url.to_owned()),
    }
    ContentPart::from_fields(fields)
}

/// A string field that may be null (read as absent).
fn next_string<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<String>, A::Error> {
    map.next_value::<Option<String>>()
}

impl<'de> Deserialize<'de> for ContentPart {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        PartSeed(PartLimit::default()).deserialize(deserializer)
    }
}

/// One part, its data read under a limit.
pub(crate) struct PartSeed(pub(crate) PartLimit);

impl<'de> DeserializeSeed<'de> for PartSeed {
    type Value = ContentPart;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<ContentPart, D::Error> {
        struct PartVisitor(PartLimit);
        impl<'de> Visitor<'de> for PartVisitor {
            type Value = ContentPart;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a content part object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ContentPart, A::Error> {
                let mut kind: Option<String> = None;
                let mut fields = PartFields::default();
                while let Some(key) = map.next_key::<PartKey>()? {
                    let duplicate = match key {
                        PartKey::Type => kind.replace(map.next_value()?).is_some(),
                        PartKey::Text => fields.text.replace_some(next_string(&mut map)?),
                        PartKey::MimeType => fields.mime_type.replace_some(next_string(&mut map)?),
                        PartKey::Url => fields.url.replace_some(next_string(&mut map)?),
                        PartKey::Name => fields.name.replace_some(next_string(&mut map)?),
                        PartKey::Data => {
                            let data = map.next_value_seed(DataSeed(self.0))?;
                            fields.data.replace_some(data)
                        }
                        PartKey::Other => {
                            map.next_value::<de::IgnoredAny>()?;
                            false
                        }
                    };
                    if duplicate {
                        return Err(de::Error::custom(format_args!(
                            "duplicate field `{}`",
                            key.wire_name()
                        )));
                    }
                }
                let kind = kind.ok_or_else(|| de::Error::missing_field("type"))?;
                fields.kind = PartKind::from_wire(&kind).map_err(de::Error::custom)?;
                ContentPart::from_fields(fields).map_err(de::Error::custom)
            }
        }
        deserializer.deserialize_map(PartVisitor(self.0))
    }
}

/// A result's `parts`, which may be `null` (read as none), each read under
/// a limit.
pub(crate) struct PartsSeed(pub(crate) PartLimit);

impl<'de> DeserializeSeed<'de> for PartsSeed {
    type Value = Vec<ContentPart>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        struct Parts(PartLimit);
        impl<'de> Visitor<'de> for Parts {
            type Value = Vec<ContentPart>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut parts = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
                while let Some(part) = seq.next_element_seed(PartSeed(self.0))? {
                    parts.push(part);
                }
                Ok(parts)
            }
        }
        struct OrNull(PartLimit);
        impl<'de> Visitor<'de> for OrNull {
            type Value = Vec<ContentPart>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Vec::new())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Vec::new())
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                d.deserialize_seq(Parts(self.0))
            }
        }
        deserializer.deserialize_option(OrNull(self.0))
    }
}

/// Sets an option from a value read off the wire, reporting a duplicate.
trait ReplaceSome<T> {
    fn replace_some(&mut self, value: Option<T>) -> bool;
}

impl<T> ReplaceSome<T> for Option<T> {
    fn replace_some(&mut self, value: Option<T>) -> bool {
        match value {
            Some(value) => self.replace(value).is_some(),
            None => false,
        }
    }
}

#[derive(Clone, Copy)]
enum PartKey {
    Type,
    Text,
    MimeType,
    Data,
    Url,
    Name,
    Other,
}

impl PartKey {
    fn wire_name(self) -> &'static str {
        match self {
            PartKey::Type => "type",
            PartKey::Text => "text",
            PartKey::MimeType => "mimeType",
            PartKey::Data => "data",
            PartKey::Url => "url",
            PartKey::Name => "name",
            PartKey::Other => "?",
        }
    }
}

impl<'de> Deserialize<'de> for PartKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = PartKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a content part key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<PartKey, E> {
                Ok(match key {
                    "type" => PartKey::Type,
                    "text" => PartKey::Text,
                    "mimeType" => PartKey::MimeType,
                    "data" => PartKey::Data,
                    "url" => PartKey::Url,
                    "name" => PartKey::Name,
                    _ => PartKey::Other,
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}
