//! Rendering Chat Completions `tool` and `user` messages (the wire shape is on [`OpenAiChat`](crate::provider::OpenAiChat)).

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;
use serde::ser::SerializeStruct;

use crate::canonical::{ContentPart, ToolResult};

use crate::provider::encode::{Base64, DataUrl, Media, Source, UrlRef};
use crate::provider::{Answered, CallRef, PartPolicy, RenderError};

const STYLE: &str = "OpenAI Chat Completions";
const IMAGES: &[&str] = &["image/png", "image/jpeg", "image/webp", "image/gif"];
const PDF: &str = "application/pdf";
const DEFAULT_FILENAME: &str = "file.pdf";

/// One Chat Completions message of a rendered turn: a `tool` message
/// (`{"role":"tool","tool_call_id":..,"content":..}`) or the `user` message
/// carrying the turn's non-text parts (`{"role":"user","content":[..]}`).
#[derive(Debug, Clone, Serialize)]
pub(super) struct ChatMessage<'a>(Message<'a>);

/// The messages answering one call: its `tool` message, then, when its
/// result has non-text parts, the `user` message carrying them.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
pub(super) struct ChatBlock<'a>(Vec<ChatMessage<'a>>);

#[derive(Debug, Clone)]
enum Message<'a> {
    Tool(ToolMessage<'a>),
    User(UserMessage<'a>),
}

// By hand, not `#[serde(tag = "role")]`: the same bytes, with the role
// written as a field rather than through serde's tagging serializer, on
// the path of every tool message.
impl Serialize for Message<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Message::Tool(tool) => {
                let mut message = serializer.serialize_struct("ToolMessage", 3)?;
                message.serialize_field("role", "tool")?;
                message.serialize_field("tool_call_id", tool.tool_call_id)?;
                message.serialize_field("content", &tool.content)?;
                message.end()
            }
            Message::User(user) => {
                let mut message = serializer.serialize_struct("UserMessage", 2)?;
                message.serialize_field("role", "user")?;
                message.serialize_field("content", &user.content)?;
                message.end()
            }
        }
    }
}

/// A `tool` message: one result's text.
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone)]
struct UserMessage<'a> {
    content: Cow<'a, [ChatItem<'a>]>,
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
fn tool_message<'a>(call: CallRef<'a>, result: &'a ToolResult) -> ToolMessage<'a> {
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

/// The messages of a turn: a `tool` message per answer, written as the
/// turn is serialized (no list of them is built), then the `user` message
/// of the turn's non-text parts, gathered (and refused) up front.
pub(super) struct Reply<'a, A> {
    answers: &'a [A],
    relocated: Vec<ChatItem<'a>>,
}

/// The messages of a turn.
pub(super) fn reply<A: Answered>(
    answers: &[A],
    policy: PartPolicy,
) -> Result<Reply<'_, A>, RenderError> {
    let mut relocated = Vec::new();
    for answer in answers {
        relocate(answer.call(), answer.result(), policy, &mut relocated)?;
    }
    Ok(Reply { answers, relocated })
}

impl<A: Answered> Reply<'_, A> {
    fn messages(&self) -> impl Iterator<Item = ChatMessage<'_>> {
        let tools = self
            .answers
            .iter()
            .map(|answer| ChatMessage(Message::Tool(tool_message(answer.call(), answer.result()))));
        let user = (!self.relocated.is_empty()).then(|| {
            ChatMessage(Message::User(UserMessage {
                content: Cow::Borrowed(&self.relocated),
            }))
        });
        tools.chain(user)
    }
}

impl<A: Answered> Serialize for Reply<'_, A> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.messages())
    }
}

impl<A: Answered> fmt::Debug for Reply<'_, A> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.debug_list().entries(self.messages()).finish()
    }
}

/// The messages answering one call, as [`reply`] writes them for a turn of
/// one call.
pub(super) fn render<'a>(
    call: CallRef<'a>,
    result: &'a ToolResult,
    policy: PartPolicy,
) -> Result<ChatBlock<'a>, RenderError> {
    let mut relocated = Vec::new();
    relocate(call, result, policy, &mut relocated)?;
    let tool = ChatMessage(Message::Tool(tool_message(call, result)));
    Ok(ChatBlock(if relocated.is_empty() {
        vec![tool]
    } else {
        vec![
            tool,
            ChatMessage(Message::User(UserMessage {
                content: Cow::Owned(relocated),
            })),
        ]
    }))
}

/// Appends a result's non-text parts, after its label, to the user message.
fn relocate<'a>(
    call: CallRef<'a>,
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
