//! Rendering an Anthropic `tool_result` block (the wire shape is on [`Anthropic`](crate::provider::Anthropic)).

use std::borrow::Cow;

use serde::Serialize;

use crate::canonical::{ContentPart, ToolResult};

use crate::provider::encode::{Base64, Media, Source};
use crate::provider::{Answered, CallRef, PartPolicy, RenderError};

const STYLE: &str = "Anthropic";
const IMAGES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];
const PDF: &str = "application/pdf";
/// The content of an error result that says nothing: the Messages API
/// refuses an empty one ("content cannot be empty if `is_error` is true").
const SILENT_ERROR: &str = "the tool failed without saying why";

/// A `tool_result` content block.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename = "tool_result")]
pub(super) struct ToolResultBlock<'a> {
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

/// The block of one call.
pub(super) fn render<'a>(
    call: CallRef<'a>,
    result: &'a ToolResult,
    policy: PartPolicy,
) -> Result<ToolResultBlock<'a>, RenderError> {
    let content = if result.parts.is_empty() {
        if result.is_error && is_blank(&result.output) {
            Content::Text(SILENT_ERROR)
        } else {
            Content::Text(&result.output)
        }
    } else {
        let mut blocks = Vec::with_capacity(result.parts.len() + 1);
        // The Messages API refuses a text block with no visible text.
        if !is_blank(&result.output) {
            blocks.push(Block::Text {
                text: Cow::Borrowed(&result.output),
            });
        }
        blocks.extend(
            result
                .parts
                .iter()
                .filter_map(ContentPart::as_text)
                .filter(|text| !is_blank(text))
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
        match (blocks.is_empty(), result.is_error) {
            (true, true) => Content::Text(SILENT_ERROR),
            (true, false) => Content::Text(""),
            (false, _) => Content::Blocks(blocks),
        }
    };
    Ok(ToolResultBlock {
        tool_use_id: call.id,
        content,
        is_error: result.is_error,
    })
}

/// Text the Messages API counts as empty: none, or only whitespace.
fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
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
pub(super) struct AnthropicReply<'a> {
    role: &'static str,
    content: Vec<ToolResultBlock<'a>>,
}

/// The reply of a turn.
pub(super) fn reply<A: Answered>(
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
