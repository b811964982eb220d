//! The tool calls of one assistant turn, as every provider's reader gives
//! them, and why a message could not be read.

use std::collections::HashMap;

use serde::Deserialize;
use serde::de::{Deserializer, Visitor};
use serde_json::error::Category;

use crate::canonical::{clip_echoes, shorten};

/// One tool call the model made: the provider's id for it, the tool's name
/// and the arguments as the provider sent them.
///
/// Each provider's `read_calls` gives the calls of a turn in the order the
/// model made them; the answers go back in that order, under these ids.
///
/// ```
/// use toolresult::provider::{Call, OpenAiChat, Provider};
/// use toolresult::tool::Arguments;
///
/// let calls = OpenAiChat::read_calls(
///     r#"{"role":"assistant","tool_calls":[{"id":"call_1","type":"function",
///         "function":{"name":"add","arguments":"{\"a\":2,\"b\":40}"}}]}"#,
/// )?;
/// assert_eq!(calls, [Call::new("call_1", "add", Arguments::Text(r#"{"a":2,"b":40}"#.into()))]);
/// # Ok::<(), toolresult::provider::ReadCallsError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Call {
    /// The provider's id for the call (`tool_calls[].id`, `call_id`, a
    /// `tool_use` block's `id`, a Gemini `functionCall.id`, the JSON-RPC
    /// `id`). Empty only for a Gemini call that has no id.
    pub id: String,
    /// The name of the tool the model called; never empty.
    pub name: String,
    /// The arguments, as the provider sent them.
    pub arguments: Arguments,
}

impl Call {
    /// A call with this id, tool name and arguments: what a reader gives,
    /// and what a scripted turn or a test writes by hand.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolresult::provider::Call;
    /// use toolresult::tool::Arguments;
    ///
    /// let call = Call::new("toolu_1", "get_weather", Arguments::Json(json!({"city": "Oslo"})));
    /// assert_eq!((call.id.as_str(), call.name.as_str()), ("toolu_1", "get_weather"));
    /// ```
    #[must_use]
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Arguments) -> Self {
        Self {
            id: id.into(),
            name: name.into(),
            arguments,
        }
    }
}

use crate::tool::Arguments;

/// A message that is not what the provider documents. Every message names
/// the provider style, where in the message (`tool_calls[1].function.name`),
/// what was expected, and the offending value (cut to 64 characters, with `…`).
///
/// ```
/// use toolresult::provider::{OpenAiChat, Provider, ReadCallsError};
///
/// let err = OpenAiChat::read_calls(r#"{"tool_calls":[{"id":7}]}"#).unwrap_err();
/// assert!(matches!(err, ReadCallsError::Invalid { .. }));
/// assert_eq!(
///     err.to_string(),
///     "openai chat message: tool_calls[0].id: invalid type: integer `7`, expected a string"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadCallsError {
    /// The message is not JSON, or is cut short.
    #[error("{style}: not JSON: {reason}")]
    NotJson {
        /// The provider style, e.g. `openai chat message`.
        style: &'static str,
        /// What the JSON parser found, with its line and column.
        reason: String,
    },
    /// The message is JSON, but not of the shape the provider documents:
    /// a wrong type, a missing field, an empty name or id, an unsupported
    /// call type, another JSON-RPC method.
    #[error("{style}: {}{reason}", at(path))]
    Invalid {
        /// The provider style, e.g. `openai chat message`.
        style: &'static str,
        /// Where in the message: `tool_calls[1].function.name`; empty for
        /// the message as a whole.
        path: String,
        /// What was wrong, and with what value.
        reason: String,
    },
    /// Two calls of one turn share an id, so their answers could not be
    /// told apart.
    #[error("{style}: {path}: duplicate call id {}, first at {first}", quote(id))]
    DuplicateId {
        /// The provider style, e.g. `anthropic message`.
        style: &'static str,
        /// The id both calls have.
        id: String,
        /// Where the second call's id is.
        path: String,
        /// Where the first call's id is.
        first: String,
    },
}

/// `path: `, or nothing for the message as a whole.
fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("{path}: ")
    }
}

/// A value for a message: cut to 64 characters with `…`, then quoted.
pub(crate) fn quote(value: &str) -> String {
    format!("{:?}", shorten(value))
}

/// Reads a provider's message into its serde structs: the one place every
/// reader turns serde's errors into a [`ReadCallsError`]. `root` names the
/// message in paths (`output` for a Responses output array, else empty).
pub(crate) fn parse<'de, T: Deserialize<'de>>(
    style: &'static str,
    root: &'static str,
    message: &'de str,
) -> Result<T, ReadCallsError> {
    // A message that reads is read once; only a bad one is read again,
    // tracking the path, to say where it went wrong.
    if let Ok(value) = serde_json::from_str(message) {
        return Ok(value);
    }
    let mut de = serde_json::Deserializer::from_str(message);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = path_of(root, &err.path().to_string());
        from_serde(style, path, err.into_inner())
    })?;
    de.end()
        .map_err(|err| from_serde(style, root.to_owned(), err))?;
    Ok(value)
}

/// [`parse`] for a message that must be a JSON object ([`Object`]). A
/// message that opens with `{` reads straight into `T`, as [`Object`]
/// would read it; any other, and one that does not read, goes through
/// [`Object`], to be refused or to say where it went wrong.
pub(crate) fn parse_object<'de, T: Deserialize<'de>>(
    style: &'static str,
    root: &'static str,
    message: &'de str,
) -> Result<T, ReadCallsError> {
    let first = message
        .bytes()
        .find(|byte| !matches!(byte, b' ' | b'\n' | b'\t' | b'\r'));
    if first == Some(b'{')
        && let Ok(value) = serde_json::from_str(message)
    {
        return Ok(value);
    }
    parse_other(style, root, message)
}

/// [`parse_object`]'s rare path: a message that is not an object, or does
/// not read.
#[cold]
#[inline(never)]
fn parse_other<'de, T: Deserialize<'de>>(
    style: &'static str,
    root: &'static str,
    message: &'de str,
) -> Result<T, ReadCallsError> {
    parse(style, root, message).map(|Object(value)| value)
}

/// A value that must be a JSON object: serde's derived structs also read
/// arrays, field by field, so `[]` would read as a message without calls
/// and `["call_1", "function", ...]` as a call. `T` reads as it would on
/// its own (at the same cost), except that an array is refused with `T`'s
/// own `expecting`.
pub(crate) struct Object<T>(pub(crate) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(MapOnly(deserializer)).map(Object)
    }
}

/// A deserializer that reads a struct as a map only (serde_json's
/// `deserialize_struct` takes an array too).
struct MapOnly<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for MapOnly<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

/// serde_path_to_error's path (`.` for the root) under the message's root name.
fn path_of(root: &str, path: &str) -> String {
    match path {
        "." => root.to_owned(),
        _ if root.is_empty() || path.starts_with('[') => format!("{root}{path}"),
        _ => format!("{root}.{path}"),
    }
}

pub(crate) fn from_serde(
    style: &'static str,
    path: String,
    err: serde_json::Error,
) -> ReadCallsError {
    let text = err.to_string();
    match err.classify() {
        Category::Syntax | Category::Eof | Category::Io => ReadCallsError::NotJson {
            style,
            reason: text,
        },
        Category::Data => {
            // serde_json ends a data error with where it stopped; the path
            // says where better.
            let position = format!(" at line {} column {}", err.line(), err.column());
            let reason = text.strip_suffix(&position).unwrap_or(&text);
            ReadCallsError::Invalid {
                style,
                path,
                reason: clip_echoes(reason),
            }
        }
    }
}

/// An [`ReadCallsError::Invalid`] built by a reader, for what serde cannot see.
pub(crate) fn invalid(
    style: &'static str,
    path: String,
    reason: impl Into<String>,
) -> ReadCallsError {
    ReadCallsError::Invalid {
        style,
        path,
        reason: reason.into(),
    }
}

/// A required string field of a reader's lenient struct: present and not empty.
pub(crate) fn required(
    style: &'static str,
    value: Option<impl Into<String>>,
    at: impl Fn() -> String,
    field: &str,
    what: &str,
) -> Result<String, ReadCallsError> {
    match value {
        None => Err(invalid(style, at(), format!("missing field `{field}`"))),
        Some(value) => not_empty(style, value.into(), || format!("{}.{field}", at()), what),
    }
}

/// A name or id that must not be empty.
pub(crate) fn not_empty(
    style: &'static str,
    value: String,
    at: impl FnOnce() -> String,
    what: &str,
) -> Result<String, ReadCallsError> {
    if value.is_empty() {
        Err(invalid(style, at(), format!("empty {what}")))
    } else {
        Ok(value)
    }
}

/// The calls of a turn as a reader finds them, each with where its id is,
/// so that a duplicate id can name both places.
pub(crate) struct FoundCalls {
    style: &'static str,
    calls: Vec<Call>,
    /// The item index of each call, kept only once one differs from the
    /// call's position (a message whose every item is a call needs none):
    /// `None` until then.
    id_paths: Option<Vec<usize>>,
}

impl FoundCalls {
    /// A turn of `calls` calls: the list is made at its length once.
    pub(crate) fn with_capacity(style: &'static str, calls: usize) -> Self {
        Self {
            style,
            calls: Vec::with_capacity(calls),
            id_paths: None,
        }
    }

    /// Adds the call found at item `index` of the message.
    pub(crate) fn push(&mut self, index: usize, call: Call) {
        let position = self.calls.len();
        match &mut self.id_paths {
            Some(paths) => paths.push(index),
            // Every call so far was at its own position.
            None if index != position => {
                self.id_paths = Some((0..position).chain([index]).collect())
            }
            None => {}
        }
        self.calls.push(call);
    }

    /// The calls in order, once no two share a non-empty id; `id_path`
    /// says where the id of the call at an item index is.
    pub(crate) fn finish(
        self,
        id_path: impl Fn(usize) -> String,
    ) -> Result<Vec<Call>, ReadCallsError> {
        let Self {
            style,
            calls,
            id_paths,
        } = self;
        distinct_ids(style, calls, |position| {
            id_path(
                id_paths
                    .as_ref()
                    .and_then(|paths| paths.get(position).copied())
                    .unwrap_or(position),
            )
        })
    }
}

/// `calls` in order, once no two share a non-empty id; `id_path` says where
/// the id of the call at a position is (for a reader whose every item is a
/// call).
#[inline]
pub(crate) fn distinct_ids(
    style: &'static str,
    calls: Vec<Call>,
    id_path: impl Fn(usize) -> String,
) -> Result<Vec<Call>, ReadCallsError> {
    if calls.len() < 2 {
        return Ok(calls);
    }
    match duplicate(&calls) {
        None => Ok(calls),
        Some((position, first)) => Err(ReadCallsError::DuplicateId {
            style,
            id: calls
                .get(position)
                .map(|call| call.id.clone())
                .unwrap_or_default(),
            path: id_path(position),
            first: id_path(first),
        }),
    }
}

/// The positions of the first call whose non-empty id an earlier call has,
/// and of that earlier call.
fn duplicate(calls: &[Call]) -> Option<(usize, usize)> {
    // A turn of a few calls compares ids pairwise; a map pays off only for
    // long turns.
    let mut seen: Option<HashMap<&str, usize>> = None;
    for (position, call) in calls.iter().enumerate() {
        if call.id.is_empty() {
            continue;
        }
        let earlier = if calls.len() <= 16 {
            calls
                .iter()
                .take(position)
                .position(|other| other.id == call.id)
        } else {
            seen.get_or_insert_with(HashMap::new)
                .insert(&call.id, position)
        };
        if let Some(first) = earlier {
            return Some((position, first));
        }
    }
    None
}
