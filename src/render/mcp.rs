//! MCP: a tool's `CallToolResult`, written and read back.
//!
//! [`render`] writes the MCP JSON shape (camelCase): `content` with a text
//! block first (the `output`; or, when a structured value is given, its
//! JSON), then per part, in order: a `text` block, an `image` or `audio`
//! block (`data`, `mimeType`), an embedded `resource` (`uri`, `mimeType`,
//! `blob`) for an inline file, a `resource_link` (`uri`, `name`,
//! `mimeType`) for any part held by URL; then `structuredContent` when given
//! and `isError`. MCP carries every part, so there is no [`PartPolicy`](super::PartPolicy) here.
//!
//! [`from_value`] reads a `CallToolResult` into a canonical result by the
//! shared contract:
//!
//! - `output`: when `isError`, the non-blank text joined by a blank line;
//!   else the JSON of `structuredContent` when there is one; else the text
//!   joined by `"\n"`. An embedded text resource counts as text, in place.
//!   With no text at all, the parts' describe lines joined by `"\n"` (an
//!   error with neither text nor parts reads `MCP tool returned an error`).
//! - `parts`: every non-text block, always: `image` and `audio` as those
//!   parts, `resource_link` as a file part by URL, an embedded `blob`
//!   resource as an inline file part.
//!
//! What a round trip through MCP cannot keep: text parts (MCP text blocks
//! all read back into `output`), an empty or blank error `output`, an empty
//! `output` beside parts (it reads back as the describe lines), the kind of
//! an image or audio part held by URL (a `resource_link` reads back as a
//! file part), the name of an inline image or audio part (its block has no
//! field for one), all but the last `/` segment of an inline file's name
//! (the name is the embedded resource's `uri`), and `metadata` (not
//! written). Everything else comes back equal, and a second round trip
//! changes nothing.
//!
//! ```
//! use toolresult::canonical::{ContentPart, ToolResult};
//! use toolresult::render::mcp;
//!
//! let png = ContentPart::from_path("tests/fixtures/fixture.png")?;
//! let shot = ToolResult::ok_with_parts(png.describe(), vec![png]);
//! let json = serde_json::to_value(mcp::render(&shot, None))?;
//! assert_eq!(json["content"][0], serde_json::json!({"type": "text", "text": "image (image/png, 82 bytes)"}));
//! assert_eq!(json["content"][1]["type"], "image");
//! assert_eq!(json["isError"], false);
//!
//! assert_eq!(mcp::from_value(&json)?, shot);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use crate::canonical::{ContentPart, ToolResult};

use super::encode::{Base64, Media, Source};

mod read;
#[cfg(feature = "rmcp")]
mod rmcp;
mod structured;

pub use read::from_value;
#[cfg(feature = "rmcp")]
pub use rmcp::to_rmcp;
pub use structured::structured_content;

/// An MCP `CallToolResult`, borrowing from the canonical result.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult<'a> {
    content: Vec<Content<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<&'a Value>,
    is_error: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Content<'a> {
    Text {
        text: Cow<'a, str>,
    },
    Image {
        data: Base64<'a>,
        #[serde(rename = "mimeType")]
        mime_type: &'a str,
    },
    Audio {
        data: Base64<'a>,
        #[serde(rename = "mimeType")]
        mime_type: &'a str,
    },
    Resource {
        resource: BlobResource<'a>,
    },
    ResourceLink {
        uri: &'a str,
        name: &'a str,
        #[serde(rename = "mimeType")]
        mime_type: &'a str,
    },
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct BlobResource<'a> {
    uri: &'a str,
    mime_type: &'a str,
    blob: Base64<'a>,
}

/// The MCP `CallToolResult` of a result; `structured`, when given, becomes
/// `structuredContent` and its JSON the first text block (in place of
/// `output`).
///
/// An embedded file resource's `uri` is the part's name (empty when it has
/// none): a part holds no path, so there is nothing better to name it by.
///
/// ```
/// use serde_json::json;
/// use toolresult::canonical::ToolResult;
/// use toolresult::render::mcp;
///
/// let value = json!({"region": "eu-west-1"});
/// let result = ToolResult::ok(value.to_string());
/// assert_eq!(
///     serde_json::to_string(&mcp::render(&result, Some(&value)))?,
///     r#"{"content":[{"type":"text","text":"{\"region\":\"eu-west-1\"}"}],"structuredContent":{"region":"eu-west-1"},"isError":false}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[must_use]
pub fn render<'a>(result: &'a ToolResult, structured: Option<&'a Value>) -> CallToolResult<'a> {
    let mut content = Vec::with_capacity(result.parts.len() + 1);
    match structured {
        Some(value) => content.push(Content::Text {
            text: Cow::Owned(contract_json(value)),
        }),
        None if !result.output.is_empty() || result.parts.is_empty() => {
            content.push(Content::Text {
                text: Cow::Borrowed(&result.output),
            });
        }
        None => {}
    }
    content.extend(result.parts.iter().map(block));
    CallToolResult {
        content,
        structured_content: structured,
        is_error: result.is_error,
    }
}

fn block(part: &ContentPart) -> Content<'_> {
    let Some(media) = Media::of(part) else {
        return Content::Text {
            text: Cow::Borrowed(part.as_text().unwrap_or_default()),
        };
    };
    let mime_type = media.mime_type;
    match media.source {
        Source::Url(uri) => Content::ResourceLink {
            uri,
            name: part.name().unwrap_or_default(),
            mime_type,
        },
        Source::Data(data) => match part.kind() {
            crate::canonical::PartKind::Image => Content::Image {
                data: Base64(data),
                mime_type,
            },
            crate::canonical::PartKind::Audio => Content::Audio {
                data: Base64(data),
                mime_type,
            },
            _ => Content::Resource {
                resource: BlobResource {
                    uri: part.name().unwrap_or_default(),
                    mime_type,
                    blob: Base64(data),
                },
            },
        },
    }
}

/// The JSON text of a structured value as every port of the contract writes
/// it: compact, with `<`, `>`, `&`, U+2028 and U+2029 escaped.
pub(crate) fn contract_json(value: &Value) -> String {
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
