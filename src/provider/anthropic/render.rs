//! Anthropic Messages: a `tool_result` content block.
//!
//! `{"type":"tool_result","tool_use_id":..,"content":..,"is_error":true?}`.
//! A result with no parts has the plain `output` string as `content`;
//! otherwise `content` is a list: text blocks first (the `output`, then the
//! text parts), then, in order, `image` blocks (`image/jpeg`, `image/png`,
//! `image/gif`, `image/webp`) and `document` blocks (PDFs), each with a
//! `base64` or `url` source. Audio and other files become a placeholder or
//! an error ([`PartPolicy`]). `is_error` is written only when true.
//!
//! ```
//! use toolresult::canonical::ToolResult;
//! use toolresult::provider::{anthropic, PartPolicy, ToolCall};
//!
//! let missing = ToolResult::error("No such config key: nope");
//! let block = anthropic::render(ToolCall::new("toolu_1", "config"), &missing, PartPolicy::Strict)?;
//! assert_eq!(
//!     serde_json::to_string(&block)?,
//!     r#"{"type":"tool_result","tool_use_id":"toolu_1","content":"No such config key: nope","is_error":true}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use serde::Serialize;

use crate::canonical::{ContentPart, ToolResult};

use crate::provider::encode::{Base64, Media, Source};
use crate::provider::{Answered, PartPolicy, RenderError, ToolCall};

const STYLE: &str = "Anthropic";
const IMAGES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];
const PDF: &str = "application/pdf";

/// A `tool_result` content block.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename = "tool_result")]
pub struct ToolResultBlock<'a> {
    tool_use_id: &'a str,
    content: Content<'a>,
    #[serde(skip_serializing_if = "crate::provider::encode::is_false")]
    is_error: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
enum Content<'a> {
    Text(&'a str),
    Blocks(Vec<Block<'a>>),
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block<'a> {
    Text { text: Cow<'a, str> },
    Image { source: BlockSource<'a> },
    Document { source: BlockSource<'a> },
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum BlockSource<'a> {
    Base64 {
        media_type: &'a str,
        data: Base64<'a>,
    },
    Url {
        url: &'a str,
    },
}

/// The `tool_result` block answering `call`.
///
/// # Errors
/// Under [`PartPolicy::Strict`], a part a tool result cannot carry.
///
/// ```
/// use toolresult::canonical::{ContentPart, ToolResult};
/// use toolresult::provider::{anthropic, PartPolicy, ToolCall};
///
/// let pdf = ContentPart::from_url("https://example.com/q3.pdf", Some("application/pdf"))?;
/// let report = ToolResult::ok("the Q3 report").with_parts([pdf]);
/// let block = anthropic::render(ToolCall::new("toolu_1", "report"), &report, PartPolicy::Strict)?;
/// let json = serde_json::to_value(&block)?;
/// assert_eq!(
///     json["content"][1],
///     serde_json::json!({"type": "document", "source": {"type": "url", "url": "https://example.com/q3.pdf"}})
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render<'a>(
    call: ToolCall<'a>,
    result: &'a ToolResult,
    policy: PartPolicy,
) -> Result<ToolResultBlock<'a>, RenderError> {
    let content = if result.parts.is_empty() {
        Content::Text(&result.output)
    } else {
        let mut blocks = Vec::with_capacity(result.parts.len() + 1);
        if !result.output.is_empty() {
            blocks.push(Block::Text {
                text: Cow::Borrowed(&result.output),
            });
        }
        blocks.extend(
            result
                .parts
                .iter()
                .filter_map(ContentPart::as_text)
                .map(|text| Block::Text {
                    text: Cow::Borrowed(text),
                }),
        );
        for (index, part) in result.parts.iter().enumerate() {
            let Some(media) = Media::of(part) else {
                continue;
            };
            let block = match block(media) {
                Ok(block) => block,
                Err(reason) => Block::Text {
                    text: Cow::Owned(policy.unsupported(STYLE, call, index, part, reason)?),
                },
            };
            blocks.push(block);
        }
        Content::Blocks(blocks)
    };
    Ok(ToolResultBlock {
        tool_use_id: call.id,
        content,
        is_error: result.is_error,
    })
}

fn block(media: Media<'_>) -> Result<Block<'_>, &'static str> {
    let media = media.not_an_artifact_link()?;
    let source = match media.source {
        Source::Data(data) => BlockSource::Base64 {
            media_type: media.mime_type,
            data: Base64(data),
        },
        Source::Url(url) => BlockSource::Url { url },
    };
    if media.is_one_of(IMAGES) {
        Ok(Block::Image { source })
    } else if media.is_one_of(&[PDF]) {
        Ok(Block::Document { source })
    } else {
        Err("only jpeg, png, gif and webp images and pdf documents are accepted")
    }
}

/// The `user` message answering one assistant turn:
/// `{"role":"user","content":[tool_result, ...]}`, one `tool_result` block
/// per call, in call order, first in the content as the Messages API requires.
#[derive(Debug, Clone, Serialize)]
pub struct AnthropicReply<'a> {
    role: &'static str,
    content: Vec<ToolResultBlock<'a>>,
}

/// The message answering a turn: one [`render`]ed block per answer.
///
/// # Errors
/// Under [`PartPolicy::Strict`], a part Anthropic cannot carry.
///
/// ```
/// use toolresult::canonical::ToolResult;
/// use toolresult::provider::{anthropic, PartPolicy, ToolCall};
///
/// let found = ToolResult::ok("eu-west-1");
/// let missing = ToolResult::error("no such key");
/// let turn = [(ToolCall::new("toolu_1", "lookup"), &found), (ToolCall::new("toolu_2", "lookup"), &missing)];
/// assert_eq!(
///     serde_json::to_string(&anthropic::reply(&turn, PartPolicy::Strict)?)?,
///     r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"eu-west-1"},{"type":"tool_result","tool_use_id":"toolu_2","content":"no such key","is_error":true}]}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn reply<A: Answered>(
    answers: &[A],
    policy: PartPolicy,
) -> Result<AnthropicReply<'_>, RenderError> {
    let content = answers
        .iter()
        .map(|answer| render(answer.call(), answer.result(), policy))
        .collect::<Result<_, _>>()?;
    Ok(AnthropicReply {
        role: "user",
        content,
    })
}
