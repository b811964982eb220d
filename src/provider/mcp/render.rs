//! MCP: a tool's `CallToolResult`, written and read back.
//!
//! [`render`] writes the MCP JSON shape (camelCase): `content` with a text
//! block first (`output`, byte for byte), then per part, in order: a `text`
//! block, an `image` or `audio` block (`data`, `mimeType`), an embedded
//! `resource` (`uri`, `mimeType`, `blob`) for an inline file, a
//! `resource_link` (`uri`, `name`, `mimeType`) for any part held by URL;
//! then `structuredContent` when the result has one
//! ([`Lowered::structured_content`](crate::Lowered::structured_content):
//! the JSON object of a typed success, the same bytes as `output`) and
//! `isError`. MCP carries every part, so there is no
//! [`PartPolicy`](crate::provider::PartPolicy) here.
//!
//! An embedded file's `uri` is `file:///` and its name, percent-encoded
//! (`file:///attachment` for a part without a name): MCP requires an
//! absolute URI there, and a part holds no path, only a name.
//!
//! [`from_str`] and [`from_slice`] read a `CallToolResult` from its JSON
//! text or bytes into a canonical result; [`from_value`] reads one a caller
//! already holds as a [`serde_json::Value`]. The first two are the fast
//! path: they build no `Value`, borrow every string without an escape
//! straight from the input, and decode image, audio and blob base64 from
//! it in place, after checking its size against the part size limit
//! ([`PartLimit::parse`](crate::canonical::PartLimit::parse)) from the
//! length of the base64. Reading text through a `Value` first costs a copy
//! of every string. All three read alike, by the shared contract, with the
//! same messages:
//!
//! - `output`: when `isError`, the non-blank text joined by a blank line;
//!   else, when there is `structuredContent`, the text block that holds the
//!   same JSON (so a round trip keeps `output` byte for byte), or failing
//!   that the JSON of `structuredContent`; else the text joined by `"\n"`.
//!   An embedded text resource counts as text, in place. With no text at
//!   all, the parts' describe lines joined by `"\n"` (an error with neither
//!   text nor parts reads `MCP tool returned an error`).
//! - `parts`: every non-text block, always: `image` and `audio` as those
//!   parts, `resource_link` as a file part by URL, an embedded `blob`
//!   resource as an inline file part named from its `file:///` URI (or the
//!   last segment of any other URI; `attachment` when the URI names
//!   nothing, so an embedded file always reads back named).
//!
//! What a round trip through MCP cannot keep: text parts (MCP text blocks
//! all read back into `output`), an empty or blank error `output`, an empty
//! `output` beside parts (it reads back as the describe lines), the kind of
//! an image or audio part held by URL (a `resource_link` reads back as a
//! file part), the name of an inline image or audio part (its block has no
//! field for one), all but the last `/` segment of an inline file's name,
//! the missing name of an inline file (it reads back as `attachment`), and
//! `metadata` (not written). Everything else comes back
//! equal, and a second round trip changes nothing.
//!
//! ```
//! use toolresult::canonical::{ContentPart, ToolResult};
//! use toolresult::provider::mcp;
//!
//! let png = ContentPart::from_path("tests/fixtures/fixture.png")?;
//! let shot = ToolResult::ok(png.describe()).with_parts([png]);
//! let json = serde_json::to_value(mcp::render(&shot, None))?;
//! assert_eq!(json["content"][0], serde_json::json!({"type": "text", "text": "image (image/png, 82 bytes)"}));
//! assert_eq!(json["content"][1]["type"], "image");
//! assert_eq!(json["isError"], false);
//!
//! assert_eq!(mcp::from_value(&json)?, shot);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::canonical::{ContentPart, PartKind, ToolResult};
use crate::provider::Answered;
use crate::provider::encode::{Base64, Media, Source};

/// The name of an inline file part that has none, as its `uri` says it
/// and as it reads back.
pub(super) const UNNAMED_FILE: &str = "attachment";
/// The `uri` of an inline file part that has no name: `file:///` and
/// [`UNNAMED_FILE`].
const UNNAMED_FILE_URI: &str = "file:///attachment";

/// An MCP `CallToolResult`, borrowing from the canonical result.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult<'a> {
    content: Vec<Content<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<&'a RawValue>,
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
    uri: Cow<'a, str>,
    mime_type: &'a str,
    blob: Base64<'a>,
}

/// The MCP `CallToolResult` of a result, with `structured` (from
/// [`Lowered::structured_content`](crate::Lowered::structured_content)) as
/// its `structuredContent`. The text block is `output` as it is.
///
/// ```
/// use toolresult::provider::mcp;
/// use toolresult::{IntoToolResult, ToolResult};
///
/// #[derive(serde::Serialize)]
/// struct Weather { city: &'static str, celsius: f32 }
///
/// let lowered = ToolResult::<_>::ok(Weather { city: "Oslo", celsius: -3.5 }).lower();
/// let answer = mcp::render(&lowered.result, lowered.structured_content());
/// assert_eq!(
///     serde_json::to_string(&answer)?,
///     r#"{"content":[{"type":"text","text":"{\"city\":\"Oslo\",\"celsius\":-3.5}"}],"structuredContent":{"city":"Oslo","celsius":-3.5},"isError":false}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[must_use]
pub fn render<'a>(result: &'a ToolResult, structured: Option<&'a RawValue>) -> CallToolResult<'a> {
    let mut content = Vec::with_capacity(result.parts.len() + 1);
    if !result.output.is_empty() || result.parts.is_empty() {
        content.push(Content::Text {
            text: Cow::Borrowed(&result.output),
        });
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
            PartKind::Image => Content::Image {
                data: Base64(data),
                mime_type,
            },
            PartKind::Audio => Content::Audio {
                data: Base64(data),
                mime_type,
            },
            _ => Content::Resource {
                resource: BlobResource {
                    uri: file_uri(part.name()),
                    mime_type,
                    blob: Base64(data),
                },
            },
        },
    }
}

/// `file:///<name>`, the name percent-encoded byte by byte outside RFC
/// 3986's unreserved characters.
fn file_uri(name: Option<&str>) -> Cow<'static, str> {
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        return Cow::Borrowed(UNNAMED_FILE_URI);
    };
    let mut uri = String::with_capacity("file:///".len() + name.len());
    uri.push_str("file:///");
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            uri.push(char::from(byte));
        } else {
            let _ = write!(uri, "%{byte:02X}");
        }
    }
    Cow::Owned(uri)
}

/// The `CallToolResult`s answering a turn's `tools/call` requests, one per
/// answer in order, each with its `structuredContent`. Each is the `result`
/// of the JSON-RPC response to its request, whose envelope (and `id`) the
/// MCP server writes.
///
/// ```
/// use toolresult::provider::mcp;
/// use toolresult::provider::ToolCall;
/// use toolresult::canonical::ToolResult;
///
/// let found = ToolResult::ok("eu-west-1");
/// let turn = [(ToolCall::new("7", "lookup"), &found)];
/// let answers = mcp::reply(&turn);
/// assert_eq!(
///     serde_json::to_string(&answers)?,
///     r#"[{"content":[{"type":"text","text":"eu-west-1"}],"isError":false}]"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[must_use]
pub fn reply<A: Answered>(answers: &[A]) -> Vec<CallToolResult<'_>> {
    answers
        .iter()
        .map(|answer| render(answer.result(), answer.structured_content()))
        .collect()
}
