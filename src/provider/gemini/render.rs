//! Rendering Gemini `functionResponse` parts (the wire shape is on [`Gemini`](crate::provider::Gemini)).

use std::borrow::Cow;

use serde::Serialize;

use crate::canonical::{ContentPart, ToolResult};

use crate::provider::encode::{Base64, Media, Source};
use crate::provider::{Answered, CallRef, PartPolicy, RenderError};

const STYLE: &str = "Gemini";
const MEDIA: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/heic",
    "image/heif",
    "audio/wav",
    "audio/mp3",
    "audio/mpeg",
    "audio/aiff",
    "audio/aac",
    "audio/ogg",
    "audio/flac",
    "application/pdf",
    "text/plain",
];

/// One Gemini content part of a rendered result: `{"functionResponse":{..}}`
/// (the result itself), `{"text":..}` (a text part or a placeholder),
/// `{"inlineData":{"mimeType","data"}}` (inline media) or
/// `{"fileData":{"mimeType","fileUri"}}` (media by URL).
#[derive(Debug, Clone, Serialize)]
pub(super) struct GeminiPart<'a>(Part<'a>);

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
enum Part<'a> {
    /// `{"functionResponse":{..}}`: the result itself.
    FunctionResponse(FunctionResponse<'a>),
    /// `{"text":..}`: a text part or a placeholder.
    Text(Cow<'a, str>),
    /// `{"inlineData":{"mimeType","data"}}`: inline media.
    InlineData(InlineData<'a>),
    /// `{"fileData":{"mimeType","fileUri"}}`: media by URL.
    FileData(FileData<'a>),
}

/// The `functionResponse` of a result.
#[derive(Debug, Clone, Serialize)]
struct FunctionResponse<'a> {
    #[serde(skip_serializing_if = "str::is_empty")]
    id: &'a str,
    name: &'a str,
    response: Response<'a>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "lowercase")]
enum Response<'a> {
    Output(&'a str),
    Error(&'a str),
}

/// Inline media: `{"mimeType","data"}`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct InlineData<'a> {
    mime_type: &'a str,
    data: Base64<'a>,
}

/// Media by URL: `{"mimeType","fileUri"}`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct FileData<'a> {
    mime_type: &'a str,
    file_uri: &'a str,
}

/// The parts of one call.
pub(super) fn render<'a>(
    call: CallRef<'a>,
    result: &'a ToolResult,
    policy: PartPolicy,
) -> Result<Vec<GeminiPart<'a>>, RenderError> {
    let response = if result.is_error {
        Response::Error(&result.output)
    } else {
        Response::Output(&result.output)
    };
    let mut parts = Vec::with_capacity(result.parts.len() + 1);
    parts.push(GeminiPart(Part::FunctionResponse(FunctionResponse {
        id: call.id,
        name: call.name,
        response,
    })));
    for (index, part) in result.parts.iter().enumerate() {
        let rendered = match rendered(part) {
            Ok(rendered) => rendered,
            Err(reason) => Part::Text(Cow::Owned(
                policy.unsupported(STYLE, call, index, part, reason)?,
            )),
        };
        parts.push(GeminiPart(rendered));
    }
    Ok(parts)
}

fn rendered(part: &ContentPart) -> Result<Part<'_>, &'static str> {
    let Some(media) = Media::of(part) else {
        return Ok(Part::Text(Cow::Borrowed(
            part.as_text().unwrap_or_default(),
        )));
    };
    let media = media.not_an_artifact_link()?;
    if !media.is_one_of(MEDIA) {
        return Err("the mime type is not one Gemini accepts");
    }
    Ok(match media.source {
        Source::Data(data) => Part::InlineData(InlineData {
            mime_type: media.mime_type,
            data: Base64(data),
        }),
        Source::Url(url) => Part::FileData(FileData {
            mime_type: media.mime_type,
            file_uri: url,
        }),
    })
}

/// The content answering one model turn:
/// `{"role":"user","parts":[...]}`, each call's `functionResponse` (and its
/// media parts after it) in call order.
#[derive(Debug, Clone, Serialize)]
pub(super) struct GeminiReply<'a> {
    role: &'static str,
    parts: Vec<GeminiPart<'a>>,
}

/// The content of a turn.
pub(super) fn reply<A: Answered>(
    answers: &[A],
    policy: PartPolicy,
) -> Result<GeminiReply<'_>, RenderError> {
    let mut parts = Vec::with_capacity(answers.len());
    for answer in answers {
        parts.extend(render(answer.call(), answer.result(), policy)?);
    }
    Ok(GeminiReply {
        role: "user",
        parts,
    })
}
