//! Lazy wire encodings shared by the renderings: base64 and data URLs that
//! are written straight into the serialiser's output, never held as a copy.

use std::fmt;

use base64::display::Base64Display;
use base64::engine::general_purpose::STANDARD;
use serde::{Serialize, Serializer};

pub(crate) use crate::canonical::Base64;
use crate::canonical::{ContentPart, MediaSource};

/// `data:<mime>;base64,<payload>`, written through `collect_str`.
#[derive(Clone, Copy)]
pub(crate) struct DataUrl<'a> {
    pub(crate) mime_type: &'a str,
    pub(crate) data: &'a [u8],
}

impl fmt::Display for DataUrl<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "data:{};base64,{}",
            self.mime_type,
            Base64Display::new(self.data, &STANDARD)
        )
    }
}

impl Serialize for DataUrl<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Debug for DataUrl<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DataUrl({}, {} bytes)", self.mime_type, self.data.len())
    }
}

/// A URL value: inline bytes as a data URL, or a remote URL as it is.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(untagged)]
pub(crate) enum UrlRef<'a> {
    Data(DataUrl<'a>),
    Remote(&'a str),
}

/// The media view of a non-text part: its mime type and where its bytes are.
#[derive(Clone, Copy)]
pub(crate) struct Media<'a> {
    pub(crate) mime_type: &'a str,
    pub(crate) source: Source<'a>,
}

/// Why a part is not rendered as media: it is a budget's artifact link.
pub(crate) const ARTIFACT_LINK: &str =
    "an artifact link is for the agent to read, not the provider";

/// Where a media part's content is, borrowed.
#[derive(Clone, Copy)]
pub(crate) enum Source<'a> {
    Data(&'a [u8]),
    Url(&'a str),
}

impl<'a> Media<'a> {
    /// The media view of `part`; `None` for a text part.
    pub(crate) fn of(part: &'a ContentPart) -> Option<Self> {
        let mime_type = part.mime_type()?;
        let source = match part.source()? {
            MediaSource::Data(bytes) => Source::Data(bytes),
            MediaSource::Url(url) => Source::Url(url),
        };
        Some(Self { mime_type, source })
    }

    /// The content as a URL: a data URL for inline bytes.
    pub(crate) fn url(self) -> UrlRef<'a> {
        match self.source {
            Source::Data(data) => UrlRef::Data(DataUrl {
                mime_type: self.mime_type,
                data,
            }),
            Source::Url(url) => UrlRef::Remote(url),
        }
    }

    /// `Err(ARTIFACT_LINK)` for a budget's link to the whole of a result it
    /// cut (an `artifact://` URL), which no provider but MCP can fetch: the
    /// policy renders it as a line naming it.
    pub(crate) fn not_an_artifact_link(self) -> Result<Self, &'static str> {
        match self.source {
            Source::Url(url) if url.starts_with(crate::budget::ARTIFACT_SCHEME) => {
                Err(ARTIFACT_LINK)
            }
            _ => Ok(self),
        }
    }

    /// Whether the mime type is one of `allowed` (ASCII case-insensitive).
    pub(crate) fn is_one_of(self, allowed: &[&str]) -> bool {
        allowed
            .iter()
            .any(|m| m.eq_ignore_ascii_case(self.mime_type))
    }
}

/// For serde's `skip_serializing_if`, which passes a reference: a flag
/// written only when it is true.
#[allow(clippy::trivially_copy_pass_by_ref)]
pub(crate) fn is_false(value: &bool) -> bool {
    !*value
}
