//! Reading an MCP `CallToolResult` into a canonical result.

use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::canonical::{ContentPart, MediaType, ToolResult};
use crate::provider::ConvertError;
use crate::provider::convert_error::type_name;

/// The output of an error result with neither text nor parts.
const NO_ERROR_TEXT: &str = "MCP tool returned an error";
/// The mime type of a resource that names none and whose URI has no known extension.
const UNKNOWN_MIME: &str = "application/octet-stream";

/// Reads an MCP `CallToolResult` (its JSON) into a canonical result, by
/// the shared contract (see the [module docs](super)).
///
/// A resource that names no mime type gets one from its URI's extension
/// (the fixed media table), else `application/octet-stream`. An embedded
/// blob's part name is the last segment of its URI, never a path.
///
/// # Errors
/// A value that is not an object, a field of the wrong type, a block
/// without a field it needs, an unknown block type, or a block that breaks
/// the part contract (bad base64, an invalid mime type, a `file:` URL).
///
/// ```
/// use serde_json::json;
/// use toolresult::provider::mcp;
///
/// let result = mcp::from_value(&json!({
///     "content": [{"type": "text", "text": "3 rows"}],
///     "structuredContent": {"rows": 3},
///     "isError": false
/// }))?;
/// assert_eq!(result.output, r#"{"rows":3}"#);
///
/// let failed = mcp::from_value(&json!({
///     "content": [{"type": "text", "text": "no such table"}, {"type": "text", "text": "  "}],
///     "isError": true
/// }))?;
/// assert!(failed.is_error);
/// assert_eq!(failed.output, "no such table");
/// # Ok::<(), toolresult::provider::ConvertError>(())
/// ```
pub fn from_value(value: &Value) -> Result<ToolResult, ConvertError> {
    let Some(object) = value.as_object() else {
        return Err(wrong_type("the result", "an object", value));
    };
    let is_error = match object.get("isError") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(flag)) => *flag,
        Some(other) => return Err(wrong_type("isError", "a boolean", other)),
    };
    let structured = object.get("structuredContent").filter(|v| !v.is_null());
    let content: &[Value] = match object.get("content") {
        None | Some(Value::Null) => &[],
        Some(Value::Array(blocks)) => blocks,
        Some(other) => return Err(wrong_type("content", "an array", other)),
    };

    let mut texts: Vec<&str> = Vec::new();
    let mut parts = Vec::new();
    for (index, block) in content.iter().enumerate() {
        let at = || format!("content[{index}]");
        let Some(block) = block.as_object() else {
            return Err(wrong_type(&at(), "an object", block));
        };
        let kind = required_str(block, "type", "a content block", &at)?;
        match kind {
            "text" => texts.push(required_str(block, "text", "a text block", &at)?),
            "image" | "audio" => {
                let what = if kind == "image" {
                    "an image block"
                } else {
                    "an audio block"
                };
                let fields = json!({
                    "type": kind,
                    "mimeType": required_str(block, "mimeType", what, &at)?,
                    "data": required_str(block, "data", what, &at)?,
                });
                parts.push(part(&fields, &at)?);
            }
            "resource_link" => {
                let what = "a resource_link block";
                let uri = required_str(block, "uri", what, &at)?;
                let mut fields = Map::new();
                fields.insert("type".into(), "file".into());
                fields.insert("mimeType".into(), mime_of(block, uri, &at)?.into());
                fields.insert("url".into(), uri.into());
                if let Some(name) = optional_str(block, "name", &at)? {
                    fields.insert("name".into(), name.into());
                }
                parts.push(part(&Value::Object(fields), &at)?);
            }
            "resource" => {
                let what = "a resource block";
                let resource = match block.get("resource") {
                    Some(Value::Object(resource)) => resource,
                    Some(other) => {
                        return Err(wrong_type(
                            &format!("{}.resource", at()),
                            "an object",
                            other,
                        ));
                    }
                    None => {
                        return Err(ConvertError::MissingField {
                            at: at(),
                            block: what,
                            field: "resource",
                        });
                    }
                };
                let inner = || format!("{}.resource", at());
                if let Some(text) = optional_str(resource, "text", &inner)? {
                    texts.push(text);
                    continue;
                }
                let uri = optional_str(resource, "uri", &inner)?.unwrap_or_default();
                let blob = required_str(
                    resource,
                    "blob",
                    "an embedded resource without `text`",
                    &inner,
                )?;
                let mut fields = Map::new();
                fields.insert("type".into(), "file".into());
                fields.insert("mimeType".into(), mime_of(resource, uri, &inner)?.into());
                fields.insert("data".into(), blob.into());
                let name = name_of(uri);
                if !name.is_empty() {
                    fields.insert("name".into(), name.into());
                }
                parts.push(part(&Value::Object(fields), &at)?);
            }
            other => {
                return Err(ConvertError::UnknownContentType {
                    at: at(),
                    type_name: other.to_owned(),
                });
            }
        }
    }

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
/// those), else the last `/` segment of any other URI; never a path.
fn name_of(uri: &str) -> String {
    let Some(path) = uri.strip_prefix("file:///") else {
        return uri.rsplit('/').next().unwrap_or_default().to_owned();
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
        None => "attachment".to_owned(),
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

fn part(fields: &Value, at: &dyn Fn() -> String) -> Result<ContentPart, ConvertError> {
    ContentPart::deserialize(fields)
        .map_err(|source| ConvertError::InvalidPart { at: at(), source })
}

fn wrong_type(at: &str, expected: &'static str, found: &Value) -> ConvertError {
    ConvertError::WrongType {
        at: at.to_owned(),
        expected,
        found: type_name(found),
    }
}

fn required_str<'v>(
    object: &'v Map<String, Value>,
    field: &'static str,
    block: &'static str,
    at: &dyn Fn() -> String,
) -> Result<&'v str, ConvertError> {
    optional_str(object, field, at)?.ok_or_else(|| ConvertError::MissingField {
        at: at(),
        block,
        field,
    })
}

/// A string field; absent or `null` is `None`.
fn optional_str<'v>(
    object: &'v Map<String, Value>,
    field: &'static str,
    at: &dyn Fn() -> String,
) -> Result<Option<&'v str>, ConvertError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(other) => Err(wrong_type(&format!("{}.{field}", at()), "a string", other)),
    }
}

/// The resource's `mimeType`, else the one its URI's extension gives.
fn mime_of<'v>(
    object: &'v Map<String, Value>,
    uri: &str,
    at: &dyn Fn() -> String,
) -> Result<&'v str, ConvertError> {
    if let Some(mime) = optional_str(object, "mimeType", at)?.filter(|m| !m.is_empty()) {
        return Ok(mime);
    }
    let path = uri.split(['?', '#']).next().unwrap_or_default();
    Ok(MediaType::from_path(path).map_or(UNKNOWN_MIME, |media| media.mime_type))
}
