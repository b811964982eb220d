//! Rendering an MCP `CallToolResult` (the wire shape is on [`Mcp`](crate::provider::Mcp)).

use std::borrow::Cow;

use std::fmt::Write as _;

use serde::{Serialize, Serializer};
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

/// An MCP `CallToolResult`, borrowing from the canonical result: what
/// [`render`] decided, which its `Serialize` writes as JSON and the `rmcp`
/// conversion builds rmcp's type from, block for block.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult<'a> {
    pub(super) content: Blocks<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) structured_content: Option<&'a RawValue>,
    pub(super) is_error: bool,
}

/// The content blocks of a [`CallToolResult`], made one at a time as they
/// are written or built (no list of them is held): the text block of
/// `output` first, when there is one, then a block per part.
#[derive(Debug, Clone, Copy)]
pub(super) struct Blocks<'a> {
    lead: Option<&'a str>,
    parts: &'a [ContentPart],
}

impl<'a> Blocks<'a> {
    /// Each block, in order.
    pub(super) fn iter(self) -> impl ExactSizeIterator<Item = Content<'a>> {
        let lead = self.lead.map(|text| Content::Text { text });
        EachBlock {
            lead,
            parts: self.parts.iter(),
        }
    }
}

/// The iterator of [`Blocks::iter`]: an exact size, so the JSON array and
/// rmcp's list are sized once.
struct EachBlock<'a> {
    lead: Option<Content<'a>>,
    parts: std::slice::Iter<'a, ContentPart>,
}

impl<'a> Iterator for EachBlock<'a> {
    type Item = Content<'a>;

    fn next(&mut self) -> Option<Content<'a>> {
        self.lead.take().or_else(|| self.parts.next().map(block))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = usize::from(self.lead.is_some()) + self.parts.len();
        (len, Some(len))
    }
}

impl ExactSizeIterator for EachBlock<'_> {}

impl Serialize for Blocks<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// One content block of a [`CallToolResult`].
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum Content<'a> {
    Text {
        text: &'a str,
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

/// The `resource` of an embedded file: its bytes as a blob.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct BlobResource<'a> {
    pub(super) uri: Cow<'a, str>,
    pub(super) mime_type: &'a str,
    pub(super) blob: Base64<'a>,
}

/// The `CallToolResult` of one result, with its `structuredContent`: the
/// one decision of which content blocks go, whether `structuredContent`
/// goes and `isError`, for every MCP path (the provider's JSON, the rmcp
/// conversions, the server).
///
/// It carries no `resultType`: the JSON has no peer's protocol version,
/// and an absent `resultType` is read as `"complete"` by every revision's
/// client, where the 2025 revisions never had the field. The rmcp
/// conversion adds `"complete"`, which rmcp's server keeps for a
/// 2026-07-28 request and strips for an older peer.
///
/// MCP's one rule beyond the shape: a success that promised
/// a `structuredContent` it cannot send under its output schema
/// (`withheld`) goes as an error result, since MCP wants a conforming
/// value with every success of a tool that declares an output schema.
pub(crate) fn render<'a>(
    result: &'a ToolResult,
    structured: Option<&'a RawValue>,
    withheld: bool,
) -> CallToolResult<'a> {
    let lead = (!result.output.is_empty() || result.parts.is_empty()).then_some(&*result.output);
    CallToolResult {
        content: Blocks {
            lead,
            parts: &result.parts,
        },
        structured_content: structured,
        is_error: result.is_error || (withheld && structured.is_none()),
    }
}

fn block(part: &ContentPart) -> Content<'_> {
    let Some(media) = Media::of(part) else {
        return Content::Text {
            text: part.as_text().unwrap_or_default(),
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
