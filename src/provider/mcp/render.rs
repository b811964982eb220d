//! Rendering an MCP `CallToolResult` (the wire shape is on [`Mcp`](crate::provider::Mcp)).

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

/// The `CallToolResult` of one result, with its `structuredContent`.
///
/// MCP's one rule beyond the shape, here for every MCP path (the
/// provider, the rmcp conversions, the server): a success that promised
/// a `structuredContent` it cannot send under its output schema
/// (`withheld`) goes as an error result, since MCP wants a conforming
/// value with every success of a tool that declares an output schema.
pub(crate) fn render<'a>(
    result: &'a ToolResult,
    structured: Option<&'a RawValue>,
    withheld: bool,
) -> CallToolResult<'a> {
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
        is_error: result.is_error || (withheld && structured.is_none()),
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

/// The `CallToolResult`s of a turn.
pub(super) fn reply<A: Answered>(answers: &[A]) -> Vec<CallToolResult<'_>> {
    answers
        .iter()
        .map(|answer| {
            render(
                answer.result(),
                answer.structured_content(),
                answer.structured_content_withheld(),
            )
        })
        .collect()
}
