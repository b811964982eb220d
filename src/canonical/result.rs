//! The canonical `ToolResult` (SPEC §1): what transcripts, providers and MCP carry.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::part_serde::PartsSeed;
use super::{ContentPart, PartLimit, Request};

/// What the model is handed back for one tool call: text it reads, whether the
/// call failed, non-text parts, and metadata the model never sees.
///
/// On the wire: `{"output", "isError", "parts"?, "metadata"?}`. Empty parts
/// and absent metadata are omitted, so a text-only result is byte-identical to
/// one from before parts existed. A missing or `null` output reads as `""`.
///
/// `output` stays the description even when parts carry the content: it is
/// what transcripts, compaction, token estimates and text-only providers see.
///
/// # Parsing
///
/// `serde_json::from_str` and `from_slice` take the fast path: the base64 of
/// each part is decoded straight from the borrowed input (it never holds a
/// JSON escape), with no copy. `serde_json::from_reader` cannot: a reader
/// does not lend its bytes, so serde_json copies each string into a scratch
/// buffer before it is decoded, which costs a copy of the base64 (about 1.33x
/// the decoded bytes) in time and peak memory. To read a stored transcript,
/// read the file into memory and parse it with `from_slice`. Every parse
/// checks each part against the size limit (20 MiB by default, another by
/// reading through a [`PartLimit`](super::PartLimit), a
/// `serde::de::DeserializeSeed`) from the length of its base64, before
/// decoding it.
///
/// ```
/// use toolresult::canonical::ToolResult;
///
/// let found = ToolResult::ok("eu-west-1");
/// assert_eq!(serde_json::to_string(&found)?, r#"{"output":"eu-west-1","isError":false}"#);
///
/// let missing = ToolResult::error("No such config key: nope");
/// assert!(missing.is_error);
///
/// let read: ToolResult = serde_json::from_str(r#"{"isError":false}"#)?;
/// assert_eq!(read.output, "");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ToolResult {
    /// The text handed to the model.
    pub output: String,
    /// Whether the call failed (or is suspended). Fed back to the model, not thrown.
    #[serde(rename = "isError")]
    pub is_error: bool,
    /// Non-text output: images, files, audio.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<ContentPart>,
    /// Free-form data for your code; the model never sees it. The key
    /// [`ToolResult::PENDING_KEY`] is reserved for a suspension [`Request`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

impl<'de> Deserialize<'de> for ToolResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        PartLimit::default().deserialize(deserializer)
    }
}

/// A canonical result read with this limit on its parts, in place of the
/// default: the size of a part's data is checked from the length of its
/// base64, before any of it is decoded.
///
/// ```
/// use serde::de::DeserializeSeed;
/// use toolresult::canonical::{PartLimit, ToolResult};
///
/// let json = r#"{"output":"a gif","isError":false,
///     "parts":[{"type":"image","mimeType":"image/gif","data":"R0lGOA=="}]}"#;
/// // Within the default limit.
/// let read: ToolResult = serde_json::from_str(json)?;
/// assert_eq!(read.parts[0].byte_len(), 4);
/// // Over a 3-byte limit: refused before the data is decoded.
/// let err = PartLimit::new(3)
///     .deserialize(&mut serde_json::Deserializer::from_str(json))
///     .unwrap_err();
/// assert!(err.to_string().contains("over the part size limit of 3 bytes"));
/// # Ok::<(), serde_json::Error>(())
/// ```
impl<'de> DeserializeSeed<'de> for PartLimit {
    type Value = ToolResult;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<ToolResult, D::Error> {
        deserializer.deserialize_map(ResultVisitor(self))
    }
}

/// Reads a result's object entries (an object only: an array is refused,
/// where a derived reading would take its elements as fields in order).
struct ResultVisitor(PartLimit);

impl<'de> Visitor<'de> for ResultVisitor {
    type Value = ToolResult;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tool result object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ToolResult, A::Error> {
        let mut output: Option<String> = None;
        let mut is_error: Option<bool> = None;
        let mut parts: Option<Vec<ContentPart>> = None;
        let mut metadata: Option<Option<Map<String, Value>>> = None;
        while let Some(key) = map.next_key::<ResultKey>()? {
            match key {
                ResultKey::Output if output.is_some() => {
                    return Err(de::Error::duplicate_field("output"));
                }
                ResultKey::Output => {
                    output = Some(map.next_value::<Option<String>>()?.unwrap_or_default());
                }
                ResultKey::IsError if is_error.is_some() => {
                    return Err(de::Error::duplicate_field("isError"));
                }
                ResultKey::IsError => is_error = Some(map.next_value()?),
                ResultKey::Parts if parts.is_some() => {
                    return Err(de::Error::duplicate_field("parts"));
                }
                ResultKey::Parts => parts = Some(map.next_value_seed(PartsSeed(self.0))?),
                ResultKey::Metadata if metadata.is_some() => {
                    return Err(de::Error::duplicate_field("metadata"));
                }
                ResultKey::Metadata => metadata = Some(map.next_value()?),
                ResultKey::Other => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(ToolResult {
            output: output.unwrap_or_default(),
            is_error: is_error.unwrap_or_default(),
            parts: parts.unwrap_or_default(),
            metadata: metadata.flatten(),
        })
    }
}

/// A key of a result's object.
enum ResultKey {
    Output,
    IsError,
    Parts,
    Metadata,
    Other,
}

impl<'de> Deserialize<'de> for ResultKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = ResultKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("field identifier")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<ResultKey, E> {
                Ok(match key {
                    "output" => ResultKey::Output,
                    "isError" => ResultKey::IsError,
                    "parts" => ResultKey::Parts,
                    "metadata" => ResultKey::Metadata,
                    _ => ResultKey::Other,
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

impl ToolResult {
    /// The metadata key that turns a result into a suspension: it holds
    /// the [`Request`] the call is parked on.
    pub const PENDING_KEY: &str = "pending";

    /// A success.
    #[must_use]
    pub fn ok(output: impl Into<String>) -> Self {
        Self {
            output: output.into(),
            ..Self::default()
        }
    }

    /// A failure the model can read and recover from.
    #[must_use]
    pub fn error(output: impl Into<String>) -> Self {
        Self {
            output: output.into(),
            is_error: true,
            ..Self::default()
        }
    }

    /// A suspension: the call cannot finish until `request` is answered.
    ///
    /// `isError` is true (a parked call has no answer yet), `output` is the
    /// prompt (then a newline and the url, if there is one), and an empty id
    /// is filled with a fresh UUID.
    ///
    /// ```
    /// use toolresult::canonical::{Request, ToolResult};
    /// let parked = ToolResult::pending(Request::input("Which environment?"));
    /// assert!(parked.is_error);
    /// let request = parked.pending_request().unwrap();
    /// assert_eq!(request.kind, "input");
    /// assert!(!request.id.is_empty());
    /// ```
    #[must_use]
    pub fn pending(mut request: Request) -> Self {
        if request.id.is_empty() {
            request.id = uuid::Uuid::new_v4().to_string();
        }
        let mut output = request.prompt.clone();
        if let Some(url) = request.url.as_deref().filter(|u| !u.is_empty()) {
            output.push('\n');
            output.push_str(url);
        }
        let mut metadata = Map::new();
        // `Request`'s derived `Serialize` (strings and a JSON map) cannot fail.
        let request = serde_json::to_value(&request).unwrap_or(Value::Null);
        metadata.insert(Self::PENDING_KEY.to_owned(), request);
        Self {
            output,
            is_error: true,
            parts: Vec::new(),
            metadata: Some(metadata),
        }
    }

    /// A suspension asking for a login at `url`; `prompt` defaults to
    /// `Authorization required to continue` when `None` or empty.
    ///
    /// ```
    /// use toolresult::canonical::ToolResult;
    /// let auth = ToolResult::auth_required("https://example.com/login", None);
    /// assert_eq!(auth.output, "Authorization required to continue\nhttps://example.com/login");
    /// assert_eq!(auth.pending_request().unwrap().kind, "authorization");
    /// ```
    #[must_use]
    pub fn auth_required(url: impl Into<String>, prompt: Option<&str>) -> Self {
        let mut request = Request::authorization(url);
        if let Some(prompt) = prompt.filter(|p| !p.is_empty()) {
            request.prompt = prompt.to_owned();
        }
        Self::pending(request)
    }

    /// The request this result is suspended on, if it is one: `metadata.pending`
    /// holds an object that reads as a [`Request`] with an id or a kind.
    #[must_use]
    pub fn pending_request(&self) -> Option<Request> {
        let value = self.metadata.as_ref()?.get(Self::PENDING_KEY)?;
        let request = Request::deserialize(value).ok()?;
        (!request.id.is_empty() || !request.kind.is_empty()).then_some(request)
    }

    /// Gives the request this result is suspended on an id, if it has
    /// none (a result built by hand, or forwarded, with only a `kind`), as
    /// [`pending`](Self::pending) does: an answer is matched to its request
    /// by id, so a request without one could never be answered.
    pub(crate) fn name_pending_request(&mut self) {
        if self.metadata.is_none()
            || self
                .pending_request()
                .is_none_or(|request| !request.id.is_empty())
        {
            return;
        }
        if let Some(request) = self.pending_object_mut() {
            request.insert(
                "id".to_owned(),
                Value::String(uuid::Uuid::new_v4().to_string()),
            );
        }
    }

    /// The JSON object of the request this result is suspended on, to
    /// edit in place (name it, seal it) without reading it whole.
    pub(crate) fn pending_object_mut(&mut self) -> Option<&mut Map<String, Value>> {
        self.metadata
            .as_mut()
            .and_then(|metadata| metadata.get_mut(Self::PENDING_KEY))
            .and_then(Value::as_object_mut)
    }

    /// Whether this result is a suspension.
    #[must_use]
    pub fn is_pending(&self) -> bool {
        self.pending_request().is_some()
    }

    /// The same result with `parts` appended.
    #[must_use]
    pub fn with_parts(mut self, parts: impl IntoIterator<Item = ContentPart>) -> Self {
        self.parts.extend(parts);
        self
    }

    /// The same result with one metadata entry set.
    ///
    /// ```
    /// use toolresult::canonical::ToolResult;
    /// let res = ToolResult::ok("2 hits").with_meta("count", 2);
    /// assert_eq!(res.meta("count"), Some(&serde_json::json!(2)));
    /// ```
    #[must_use]
    pub fn with_meta(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.metadata
            .get_or_insert_with(Map::new)
            .insert(key.into(), value.into());
        self
    }

    /// One metadata entry.
    #[must_use]
    pub fn meta(&self, key: &str) -> Option<&Value> {
        self.metadata.as_ref()?.get(key)
    }

    /// The token estimate: one per four bytes of output, rounded up, plus
    /// each part's [`ContentPart::estimated_tokens`].
    #[must_use]
    pub fn estimated_tokens(&self) -> usize {
        estimate_text_tokens(&self.output)
            + self
                .parts
                .iter()
                .map(ContentPart::estimated_tokens)
                .sum::<usize>()
    }
}

/// The cheap token estimate of text, the one formula every estimate of
/// text uses (outputs, text parts, output budgets): one token per four
/// bytes of UTF-8, rounded up.
pub(crate) fn estimate_text_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}
