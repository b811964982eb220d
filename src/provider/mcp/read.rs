//! Reading an MCP `CallToolResult` into a canonical result, by the shared
//! contract's rules.
//!
//! The JSON is read into the wire structs ([`wire`](super::wire)); the
//! contract's checks then run over them in one fixed order, so a message
//! never depends on the order of keys. Base64 is decoded only then, from
//! the borrowed text, after its size is checked from its encoded length
//! (the canonical part's own path).

use serde_json::Value;

use super::render::UNNAMED_FILE;
use serde::de;

use super::wire::{Block, Blocks, Field, Reply, Str};
use crate::canonical::{
    ContentPart, MediaType, PartKind, PartLimit, ToolResult, WireSource, media_part_from_wire,
    shorten,
};
use crate::provider::ConvertError;

/// The output of an error result with neither text nor parts.
const NO_ERROR_TEXT: &str = "MCP tool returned an error";
/// The mime type of a resource that names none and whose URI has no known extension.
const UNKNOWN_MIME: &str = "application/octet-stream";

/// Reads from JSON text or bytes: UTF-8 is checked once, up front, and the
/// text read as text (serde_json's text reader skips the check per string
/// that its byte reader makes); bytes that are not UTF-8 go to the byte
/// reader for its error, which names where.
pub(super) fn from_bytes(json: &[u8], limit: PartLimit) -> Result<ToolResult, ConvertError> {
    let reply = match std::str::from_utf8(json) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(json),
    }
    .map_err(|source| ConvertError::Json { source })?;
    read(&reply, limit)
}

/// The canonical result of a read `CallToolResult`: every check in one
/// fixed order (`isError`, `content`, each block in turn), whatever the
/// order of the keys.
fn read(reply: &Field<Reply<'_>>, limit: PartLimit) -> Result<ToolResult, ConvertError> {
    let reply = match reply {
        Field::Is(reply) => reply,
        other => return Err(wrong_type("the result", "an object", other.found())),
    };
    let is_error = match &reply.is_error {
        None | Some(Field::Null) => false,
        Some(Field::Is(flag)) => *flag,
        Some(other) => return Err(wrong_type("isError", "a boolean", other.found())),
    };
    let structured = reply.structured_content.as_ref().filter(|v| !v.is_null());
    let content: &[Field<Block<'_>>] = match &reply.content {
        None | Some(Field::Null) => &[],
        Some(Field::Is(Blocks(blocks))) => blocks,
        Some(other) => return Err(wrong_type("content", "an array", other.found())),
    };

    let mut texts: Vec<&str> = Vec::new();
    let mut links: Vec<String> = Vec::new();
    let mut parts = Vec::new();
    for (index, block) in content.iter().enumerate() {
        let at = || format!("content[{index}]");
        let block = match block {
            Field::Is(block) => block,
            other => return Err(wrong_type(&at(), "an object", other.found())),
        };
        let kind = required_str(&block.kind, "type", "a content block", &at)?;
        match kind {
            "text" => texts.push(required_str(&block.text, "text", "a text block", &at)?),
            "image" | "audio" => {
                let (what, kind) = if kind == "image" {
                    ("an image block", PartKind::Image)
                } else {
                    ("an audio block", PartKind::Audio)
                };
                let mime = required_str(&block.mime_type, "mimeType", what, &at)?;
                let data = required_str(&block.data, "data", what, &at)?;
                parts.push(part(
                    kind,
                    mime,
                    WireSource::Base64(data),
                    None,
                    limit,
                    &at,
                )?);
            }
            "resource_link" => {
                let what = "a resource_link block";
                let uri = required_str(&block.uri, "uri", what, &at)?;
                let name = optional_str(&block.name, "name", &at)?;
                if is_file_uri(uri) {
                    // A path on the server's machine: no part may hold it
                    // (a part never names a file of this one), but the
                    // model may still read where it is, as MCP's own
                    // example sends it.
                    links.push(format!("[{}: {uri}]", name.unwrap_or("resource")));
                    continue;
                }
                let mime = mime_of(&block.mime_type, uri, &at)?;
                parts.push(part(
                    PartKind::File,
                    mime,
                    WireSource::Url(uri),
                    name,
                    limit,
                    &at,
                )?);
            }
            "resource" => {
                let what = "a resource block";
                let inner = || format!("{}.resource", at());
                let resource = match &block.resource {
                    Some(Field::Is(resource)) => resource,
                    Some(other) => return Err(wrong_type(&inner(), "an object", other.found())),
                    None => {
                        return Err(ConvertError::MissingField {
                            at: at(),
                            block: what,
                            field: "resource",
                        });
                    }
                };
                if let Some(text) = optional_str(&resource.text, "text", &inner)? {
                    texts.push(text);
                    continue;
                }
                let uri = optional_str(&resource.uri, "uri", &inner)?.unwrap_or_default();
                let blob = required_str(
                    &resource.blob,
                    "blob",
                    "an embedded resource without `text`",
                    &inner,
                )?;
                let mime = mime_of(&resource.mime_type, uri, &inner)?;
                let name = name_of(uri);
                parts.push(part(
                    PartKind::File,
                    mime,
                    WireSource::Base64(blob),
                    Some(&name),
                    limit,
                    &at,
                )?);
            }
            other => {
                return Err(ConvertError::UnknownContentType {
                    at: at(),
                    type_name: shorten(other),
                });
            }
        }
    }

    texts.extend(links.iter().map(String::as_str));
    let output = if is_error {
        let shown: Vec<&str> = texts
            .iter()
            .copied()
            .filter(|t| !t.trim().is_empty())
            .collect();
        if !shown.is_empty() {
            shown.join("\n\n")
        } else if !parts.is_empty() {
            describe(&parts)
        } else {
            NO_ERROR_TEXT.to_owned()
        }
    } else if let Some(structured) = structured {
        // The text block holding the same JSON is `output` as it was
        // written; only without one is the value written out again.
        match texts
            .iter()
            .find(|text| serde_json::from_str::<Value>(text).is_ok_and(|v| &v == structured))
        {
            Some(text) => (*text).to_owned(),
            None => contract_json(structured),
        }
    } else {
        let joined = texts.join("\n");
        if joined.is_empty() && !parts.is_empty() {
            describe(&parts)
        } else {
            joined
        }
    };
    Ok(ToolResult {
        output,
        is_error,
        parts,
        metadata: None,
    })
}

/// The part name an embedded resource's `uri` gives: the last `/` segment
/// of the percent-decoded path of a `file:///` URI (the crate writes
/// those), else the last `/` segment of any other URI; never a path, and
/// never empty: a URI with nothing after its last `/` (or none at all)
/// names the file [`UNNAMED_FILE`], as the crate writes an unnamed file,
/// so a second trip through MCP keeps the name the first one read.
fn name_of(uri: &str) -> String {
    let Some(path) = uri.strip_prefix("file:///") else {
        return match uri.rsplit('/').next().filter(|last| !last.is_empty()) {
            Some(last) => last.to_owned(),
            None => UNNAMED_FILE.to_owned(),
        };
    };
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        let escaped = (byte == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(value) => {
                decoded.push(value);
                i += 3;
            }
            None => {
                decoded.push(byte);
                i += 1;
            }
        }
    }
    let name = String::from_utf8_lossy(&decoded);
    // A name is never a path: of a decoded `a/b.pdf`, only `b.pdf`; a
    // name with nothing after its last `/` is unnamed, as the crate writes
    // an unnamed file.
    match name.rsplit('/').next().filter(|last| !last.is_empty()) {
        Some(last) => last.to_owned(),
        None => UNNAMED_FILE.to_owned(),
    }
}

/// The JSON text of a structured value as every port of the contract writes
/// it: compact, with `<`, `>`, `&`, U+2028 and U+2029 escaped.
fn contract_json(value: &Value) -> String {
    let plain = value.to_string();
    if !plain.contains(['<', '>', '&', '\u{2028}', '\u{2029}']) {
        return plain;
    }
    let mut out = String::with_capacity(plain.len() + 16);
    for c in plain.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

fn describe(parts: &[ContentPart]) -> String {
    parts
        .iter()
        .map(ContentPart::describe)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A media part from a block's fields, through the canonical part's own
/// checks; a part that breaks the contract names the block.
fn part(
    kind: PartKind,
    mime_type: &str,
    source: WireSource<'_>,
    name: Option<&str>,
    limit: PartLimit,
    at: &dyn Fn() -> String,
) -> Result<ContentPart, ConvertError> {
    media_part_from_wire(kind, mime_type, source, name, limit).map_err(|err| {
        ConvertError::InvalidPart {
            at: at(),
            source: de::Error::custom(err),
        }
    })
}

fn wrong_type(at: &str, expected: &'static str, found: &'static str) -> ConvertError {
    ConvertError::WrongType {
        at: at.to_owned(),
        expected,
        found,
    }
}

fn required_str<'v>(
    field: &'v Str<'_>,
    name: &'static str,
    block: &'static str,
    at: &dyn Fn() -> String,
) -> Result<&'v str, ConvertError> {
    optional_str(field, name, at)?.ok_or_else(|| ConvertError::MissingField {
        at: at(),
        block,
        field: name,
    })
}

/// A string field; absent or `null` is `None`.
fn optional_str<'v>(
    field: &'v Str<'_>,
    name: &'static str,
    at: &dyn Fn() -> String,
) -> Result<Option<&'v str>, ConvertError> {
    match field {
        None | Some(Field::Null) => Ok(None),
        Some(Field::Is(text)) => Ok(Some(text)),
        Some(other) => Err(wrong_type(
            &format!("{}.{name}", at()),
            "a string",
            other.found(),
        )),
    }
}

/// The resource's `mimeType`, else the one its URI's extension gives.
fn mime_of<'v>(
    mime_type: &'v Str<'_>,
    uri: &str,
    at: &dyn Fn() -> String,
) -> Result<&'v str, ConvertError> {
    if let Some(mime) = optional_str(mime_type, "mimeType", at)?.filter(|m| !m.is_empty()) {
        return Ok(mime);
    }
    let path = uri.split(['?', '#']).next().unwrap_or_default();
    Ok(MediaType::from_path(path).map_or(UNKNOWN_MIME, |media| media.mime_type))
}

/// Whether `uri` is a `file:` URI: a path on the server's machine.
fn is_file_uri(uri: &str) -> bool {
    uri.get(..5)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("file:"))
}
