//! OpenAI Chat Completions: `tool` messages, and one `user` message that
//! carries the turn's non-text parts.
//!
//! A `tool` message carries text only, so a result becomes
//! `{"role":"tool","tool_call_id":..,"content":..}` with its `output` (and
//! its text parts), and every non-text part of every result answering one
//! assistant turn moves, in call order, into one `user` message after the
//! last tool message. Each result's parts there follow the text item
//! `Output of tool <name> (<call_id>):`.
//!
//! Carried: images (`image/png`, `image/jpeg`, `image/webp`, `image/gif`,
//! inline or by URL) as `image_url`; inline PDFs as `file` with `file_data`
//! and `filename` (the part's name, else `file.pdf`); inline WAV and MP3
//! audio as `input_audio`. Anything else becomes a placeholder or an error
//! ([`PartPolicy`]).
//!
//! ```
//! use toolresult::canonical::{ContentPart, ToolResult};
//! use toolresult::provider::{openai_chat, PartPolicy, ToolCall};
//!
//! let found = ToolResult::ok("eu-west-1");
//! let png = ContentPart::from_path("tests/fixtures/fixture.png")?;
//! let shot = ToolResult::ok(png.describe()).with_parts([png]);
//! let turn = [
//!     (ToolCall::new("call_1", "region"), &found),
//!     (ToolCall::new("call_2", "screenshot"), &shot),
//! ];
//! let messages = openai_chat::reply(&turn, PartPolicy::Placeholder)?;
//! let json = serde_json::to_value(&messages)?;
//! assert_eq!(json[0]["content"], "eu-west-1");
//! assert_eq!(json[1]["content"], "image (image/png, 82 bytes)");
//! assert_eq!(json[2]["role"], "user");
//! assert_eq!(json[2]["content"][0]["text"], "Output of tool screenshot (call_2):");
//! assert_eq!(json[2]["content"][1]["type"], "image_url");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use serde::Serialize;

use crate::canonical::{ContentPart, ToolResult};

use crate::provider::encode::{Base64, DataUrl, Media, Source, UrlRef};
use crate::provider::{Answered, PartPolicy, RenderError, ToolCall};

const STYLE: &str = "OpenAI Chat Completions";
const IMAGES: &[&str] = &["image/png", "image/jpeg", "image/webp", "image/gif"];
const PDF: &str = "application/pdf";
const DEFAULT_FILENAME: &str = "file.pdf";

/// One Chat Completions message of a rendered turn: a `tool` message
/// (`{"role":"tool","tool_call_id":..,"content":..}`) or the `user` message
/// carrying the turn's non-text parts (`{"role":"user","content":[..]}`).
#[derive(Debug, Clone, Serialize)]
pub struct ChatMessage<'a>(Message<'a>);

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "role", rename_all = "lowercase")]
enum Message<'a> {
    Tool(ToolMessage<'a>),
    User(UserMessage<'a>),
}

/// A `tool` message: one result's text.
#[derive(Debug, Clone, Serialize)]
struct ToolMessage<'a> {
    tool_call_id: &'a str,
    content: ToolContent<'a>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
enum ToolContent<'a> {
    Text(&'a str),
    Items(Vec<ChatItem<'a>>),
}

/// The synthetic `user` message carrying a turn's non-text parts.
#[derive(Debug, Clone, Serialize)]
struct UserMessage<'a> {
    content: Vec<ChatItem<'a>>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ChatItem<'a> {
    Text { text: Cow<'a, str> },
    ImageUrl { image_url: ImageUrl<'a> },
    File { file: FileData<'a> },
    InputAudio { input_audio: InputAudio<'a> },
}

#[derive(Debug, Clone, Serialize)]
struct ImageUrl<'a> {
    url: UrlRef<'a>,
}

#[derive(Debug, Clone, Serialize)]
struct FileData<'a> {
    filename: &'a str,
    file_data: DataUrl<'a>,
}

#[derive(Debug, Clone, Serialize)]
struct InputAudio<'a> {
    data: Base64<'a>,
    format: &'static str,
}

/// The `tool` message for one result: its `output` and text parts only.
/// With no text parts, `content` is the plain `output` string, so the
/// message is byte-identical to a plain string tool message.
fn tool_message<'a>(call: ToolCall<'a>, result: &'a ToolResult) -> ToolMessage<'a> {
    let mut texts = result
        .parts
        .iter()
        .filter_map(ContentPart::as_text)
        .peekable();
    let content = if texts.peek().is_none() {
        ToolContent::Text(&result.output)
    } else {
        let lead = (!result.output.is_empty()).then_some(result.output.as_str());
        ToolContent::Items(
            lead.into_iter()
                .chain(texts)
                .map(|text| ChatItem::Text {
                    text: Cow::Borrowed(text),
                })
                .collect(),
        )
    };
    ToolMessage {
        tool_call_id: call.id,
        content,
    }
}

/// All the messages answering one assistant turn: a `tool` message per
/// result, in call order, then (when any result has non-text parts) one
/// `user` message carrying them. A `tool` message carries `output` and the
/// text parts; with no text parts its `content` is the plain `output`
/// string.
///
/// # Errors
/// Under [`PartPolicy::Strict`], a part Chat Completions cannot carry.
///
/// ```
/// use toolresult::canonical::{ContentPart, ToolResult};
/// use toolresult::provider::{openai_chat, PartPolicy, ToolCall};
///
/// let pdf = ContentPart::from_bytes(b"%PDF".to_vec(), "application/pdf")?.with_name("q3.pdf");
/// let report = ToolResult::ok(pdf.describe()).with_parts([pdf]);
/// let turn = [(ToolCall::new("call_1", "report"), &report)];
/// let json = serde_json::to_value(openai_chat::reply(&turn, PartPolicy::Strict)?)?;
/// assert_eq!(json[1]["content"][1]["file"]["filename"], "q3.pdf");
/// assert_eq!(json[1]["content"][1]["file"]["file_data"], "data:application/pdf;base64,JVBERg==");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn reply<A: Answered>(
    answers: &[A],
    policy: PartPolicy,
) -> Result<Vec<ChatMessage<'_>>, RenderError> {
    let mut messages = Vec::with_capacity(answers.len() + 1);
    let mut relocated = Vec::new();
    for answer in answers {
        let (call, result) = (answer.call(), answer.result());
        messages.push(ChatMessage(Message::Tool(tool_message(call, result))));
        relocate(call, result, policy, &mut relocated)?;
    }
    if !relocated.is_empty() {
        messages.push(ChatMessage(Message::User(UserMessage {
            content: relocated,
        })));
    }
    Ok(messages)
}

/// Appends a result's non-text parts, after its label, to the user message.
fn relocate<'a>(
    call: ToolCall<'a>,
    result: &'a ToolResult,
    policy: PartPolicy,
    out: &mut Vec<ChatItem<'a>>,
) -> Result<(), RenderError> {
    let mut labelled = false;
    for (index, part) in result.parts.iter().enumerate() {
        let Some(media) = Media::of(part) else {
            continue;
        };
        if !labelled {
            labelled = true;
            out.push(ChatItem::Text {
                text: Cow::Owned(format!("Output of tool {} ({}):", call.name, call.id)),
            });
        }
        let item = match item(part, media) {
            Ok(item) => item,
            Err(reason) => ChatItem::Text {
                text: Cow::Owned(policy.unsupported(STYLE, call, index, part, reason)?),
            },
        };
        out.push(item);
    }
    Ok(())
}

fn item<'a>(part: &'a ContentPart, media: Media<'a>) -> Result<ChatItem<'a>, &'static str> {
    let media = media.not_an_artifact_link()?;
    if media.is_one_of(IMAGES) {
        return Ok(ChatItem::ImageUrl {
            image_url: ImageUrl { url: media.url() },
        });
    }
    if media.is_one_of(&[PDF]) {
        let Source::Data(data) = media.source else {
            return Err("a file must be inline data, not a URL");
        };
        return Ok(ChatItem::File {
            file: FileData {
                filename: part.name().unwrap_or(DEFAULT_FILENAME),
                file_data: DataUrl {
                    mime_type: media.mime_type,
                    data,
                },
            },
        });
    }
    if let Some(format) = audio_format(media.mime_type) {
        let Source::Data(data) = media.source else {
            return Err("audio must be inline data, not a URL");
        };
        return Ok(ChatItem::InputAudio {
            input_audio: InputAudio {
                data: Base64(data),
                format,
            },
        });
    }
    Err("only png, jpeg, webp and gif images, pdf files and wav and mp3 audio are accepted")
}

/// The `input_audio` format of an audio mime type, if Chat Completions takes it.
fn audio_format(mime_type: &str) -> Option<&'static str> {
    let is = |names: &[&str]| names.iter().any(|n| n.eq_ignore_ascii_case(mime_type));
    if is(&["audio/wav", "audio/x-wav", "audio/wave"]) {
        Some("wav")
    } else if is(&["audio/mpeg", "audio/mp3"]) {
        Some("mp3")
    } else {
        None
    }
}
