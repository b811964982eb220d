//! OpenAI Responses: a `function_call_output` input item.
//!
//! `{"type":"function_call_output","call_id":..,"output":..}`. A result with
//! no parts has the plain `output` string; otherwise `output` is a list of
//! `input_text` (the result's `output`, then its text parts), `input_image`
//! (`image/png`, `image/jpeg`, `image/webp`, `image/gif`; `image_url` a data
//! URL or the part's URL) and `input_file` items (PDFs: `file_data` data URL
//! and `filename`, the part's name or `file.pdf`; or `file_url`). Audio and
//! other files become a placeholder or an error ([`PartPolicy`]).
//!
//! ```
//! use toolresult::canonical::ToolResult;
//! use toolresult::provider::{openai_responses, PartPolicy, ToolCall};
//!
//! let result = ToolResult::ok("eu-west-1");
//! let item = openai_responses::render(ToolCall::new("call_1", "region"), &result, PartPolicy::Strict)?;
//! assert_eq!(
//!     serde_json::to_string(&item)?,
//!     r#"{"type":"function_call_output","call_id":"call_1","output":"eu-west-1"}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use serde::Serialize;

use crate::canonical::{ContentPart, ToolResult};

use crate::provider::encode::{DataUrl, Media, Source, UrlRef};
use crate::provider::{Answered, PartPolicy, RenderError, ToolCall};

const STYLE: &str = "OpenAI Responses";
const IMAGES: &[&str] = &["image/png", "image/jpeg", "image/webp", "image/gif"];
const PDF: &str = "application/pdf";
const DEFAULT_FILENAME: &str = "file.pdf";

/// A `function_call_output` input item.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename = "function_call_output")]
pub struct FunctionCallOutput<'a> {
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

/// The `function_call_output` item answering `call`.
///
/// # Errors
/// Under [`PartPolicy::Strict`], a part a function call output cannot carry.
///
/// ```
/// use toolresult::canonical::{ContentPart, ToolResult};
/// use toolresult::provider::{openai_responses, PartPolicy, ToolCall};
///
/// let png = ContentPart::from_path("tests/fixtures/fixture.png")?;
/// let shot = ToolResult::ok(png.describe()).with_parts([png]);
/// let item = openai_responses::render(ToolCall::new("call_1", "shot"), &shot, PartPolicy::Strict)?;
/// let json = serde_json::to_value(&item)?;
/// assert_eq!(json["output"][0], serde_json::json!({"type": "input_text", "text": "image (image/png, 82 bytes)"}));
/// assert_eq!(json["output"][1]["type"], "input_image");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render<'a>(
    call: ToolCall<'a>,
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

/// The input items answering one turn: a [`render`]ed
/// `function_call_output` per answer, in call order, to send after the
/// response's output items.
///
/// # Errors
/// Under [`PartPolicy::Strict`], a part the Responses API cannot carry.
///
/// See [`Answered`] for an example.
pub fn reply<A: Answered>(
    answers: &[A],
    policy: PartPolicy,
) -> Result<Vec<FunctionCallOutput<'_>>, RenderError> {
    answers
        .iter()
        .map(|answer| render(answer.call(), answer.result(), policy))
        .collect()
}
