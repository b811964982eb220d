//! Rendering an OpenAI Responses `function_call_output` item (the wire shape is on [`OpenAiResponses`](crate::provider::OpenAiResponses)).

use std::borrow::Cow;

use serde::Serialize;

use crate::canonical::{ContentPart, ToolResult};

use crate::provider::encode::{DataUrl, Media, Source, UrlRef};
use crate::provider::{Answered, CallRef, PartPolicy, RenderError};

const STYLE: &str = "OpenAI Responses";
const IMAGES: &[&str] = &["image/png", "image/jpeg", "image/webp", "image/gif"];
const PDF: &str = "application/pdf";
const DEFAULT_FILENAME: &str = "file.pdf";

/// A `function_call_output` input item.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename = "function_call_output")]
pub(super) struct FunctionCallOutput<'a> {
    call_id: &'a str,
    output: Output<'a>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
enum Output<'a> {
    Text(&'a str),
    Items(Vec<OutputItem<'a>>),
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type")]
enum OutputItem<'a> {
    #[serde(rename = "input_text")]
    Text { text: Cow<'a, str> },
    #[serde(rename = "input_image")]
    Image { image_url: UrlRef<'a> },
    #[serde(rename = "input_file")]
    File {
        #[serde(skip_serializing_if = "Option::is_none")]
        filename: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        file_data: Option<DataUrl<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        file_url: Option<&'a str>,
    },
}

/// The item of one call.
pub(super) fn render<'a>(
    call: CallRef<'a>,
    result: &'a ToolResult,
    policy: PartPolicy,
) -> Result<FunctionCallOutput<'a>, RenderError> {
    if result.parts.is_empty() {
        return Ok(FunctionCallOutput {
            call_id: call.id,
            output: Output::Text(&result.output),
        });
    }
    let mut items = Vec::with_capacity(result.parts.len() + 1);
    if !result.output.is_empty() {
        items.push(OutputItem::Text {
            text: Cow::Borrowed(&result.output),
        });
    }
    for (index, part) in result.parts.iter().enumerate() {
        let item = match item(part) {
            Ok(item) => item,
            Err(reason) => OutputItem::Text {
                text: Cow::Owned(policy.unsupported(STYLE, call, index, part, reason)?),
            },
        };
        items.push(item);
    }
    Ok(FunctionCallOutput {
        call_id: call.id,
        output: Output::Items(items),
    })
}

fn item(part: &ContentPart) -> Result<OutputItem<'_>, &'static str> {
    let Some(media) = Media::of(part) else {
        return Ok(OutputItem::Text {
            text: Cow::Borrowed(part.as_text().unwrap_or_default()),
        });
    };
    let media = media.not_an_artifact_link()?;
    if media.is_one_of(IMAGES) {
        return Ok(OutputItem::Image {
            image_url: media.url(),
        });
    }
    if media.is_one_of(&[PDF]) {
        return Ok(match media.source {
            Source::Data(data) => OutputItem::File {
                filename: Some(part.name().unwrap_or(DEFAULT_FILENAME)),
                file_data: Some(DataUrl {
                    mime_type: media.mime_type,
                    data,
                }),
                file_url: None,
            },
            Source::Url(url) => OutputItem::File {
                filename: part.name(),
                file_data: None,
                file_url: Some(url),
            },
        });
    }
    if media
        .mime_type
        .get(..6)
        .is_some_and(|top| top.eq_ignore_ascii_case("audio/"))
    {
        return Err("a function call output has no audio input");
    }
    Err("only png, jpeg, webp and gif images and pdf files are accepted")
}

/// The items of a turn.
pub(super) fn reply<A: Answered>(
    answers: &[A],
    policy: PartPolicy,
) -> Result<Vec<FunctionCallOutput<'_>>, RenderError> {
    answers
        .iter()
        .map(|answer| render(answer.call(), answer.result(), policy))
        .collect()
}
