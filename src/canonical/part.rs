//! `ContentPart` (SPEC §1B): one piece of non-text (or extra text) output,
//! and what can be read from it. It is built in `part_constructors.rs` and
//! checked in `part_validation.rs`.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;

use super::PartKind;

/// Where a non-text part's content is: inline bytes (written to the wire
/// as standard padded base64) or a URL (never `data:`, never `file:`).
/// Read through [`ContentPart::data`] and [`ContentPart::url`].
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum MediaSource {
    Data(Bytes),
    Url(String),
}

#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Body {
    Text(String),
    Media {
        mime_type: String,
        source: MediaSource,
    },
}

/// One piece of a result's content: text, an image, a file or audio.
///
/// Built only through constructors that check the contract, so a part always
/// holds what its kind needs: a non-text part has a mime type and exactly one
/// of inline bytes or a URL, and never a filesystem path. Inline bytes are
/// kept decoded and cheap to clone ([`Bytes`]); they are base64-encoded
/// straight into the output when the part is serialised.
///
/// ```
/// use toolresult::canonical::{ContentPart, PartKind, PartLimit};
///
/// let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())?;
/// assert_eq!(png.kind(), PartKind::Image);
/// assert_eq!(png.describe(), "image (image/png, 82 bytes)");
/// assert_eq!(png.mime_type(), Some("image/png"));
///
/// let json = serde_json::to_string(&png)?;
/// assert!(json.starts_with(r#"{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo"#));
/// let back: ContentPart = serde_json::from_str(&json)?;
/// assert_eq!(back, png);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct ContentPart {
    pub(crate) kind: PartKind,
    pub(crate) body: Body,
    pub(crate) name: Option<String>,
}

impl ContentPart {
    /// The part's kind.
    #[must_use]
    pub fn kind(&self) -> PartKind {
        self.kind
    }

    /// The text of a text part.
    #[must_use]
    pub fn as_text(&self) -> Option<&str> {
        match &self.body {
            Body::Text(text) => Some(text),
            Body::Media { .. } => None,
        }
    }

    /// The mime type of a non-text part.
    #[must_use]
    pub fn mime_type(&self) -> Option<&str> {
        match &self.body {
            Body::Media { mime_type, .. } => Some(mime_type),
            Body::Text(_) => None,
        }
    }

    /// Where a non-text part's content is.
    pub(crate) fn source(&self) -> Option<&MediaSource> {
        match &self.body {
            Body::Media { source, .. } => Some(source),
            Body::Text(_) => None,
        }
    }

    /// The decoded inline bytes, if the part has them.
    #[must_use]
    pub fn data(&self) -> Option<&[u8]> {
        match self.source()? {
            MediaSource::Data(bytes) => Some(bytes),
            MediaSource::Url(_) => None,
        }
    }

    /// The inline bytes as standard padded base64, as they go on the wire.
    ///
    /// ```
    /// let part = toolresult::canonical::ContentPart::from_bytes(b"GIF8".to_vec(), "image/gif")?;
    /// assert_eq!(part.data_base64().as_deref(), Some("R0lGOA=="));
    /// # Ok::<(), toolresult::canonical::PartError>(())
    /// ```
    #[must_use]
    pub fn data_base64(&self) -> Option<String> {
        self.data().map(|bytes| STANDARD.encode(bytes))
    }

    /// The data URL of inline bytes (`data:<mime>;base64,<payload>`).
    #[must_use]
    pub fn data_url(&self) -> Option<String> {
        let data = self.data()?;
        let mime = self.mime_type()?;
        let mut url = String::with_capacity(13 + mime.len() + data.len().div_ceil(3) * 4);
        url.push_str("data:");
        url.push_str(mime);
        url.push_str(";base64,");
        STANDARD.encode_string(data, &mut url);
        Some(url)
    }

    /// The URL of a part that points at its content.
    #[must_use]
    pub fn url(&self) -> Option<&str> {
        match self.source()? {
            MediaSource::Url(url) => Some(url),
            MediaSource::Data(_) => None,
        }
    }

    /// The part's name, if it has one.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The decoded byte count: the inline bytes of a media part, 0 for a URL
    /// part, the UTF-8 length of a text part.
    #[must_use]
    pub fn byte_len(&self) -> usize {
        match &self.body {
            Body::Text(text) => text.len(),
            Body::Media {
                source: MediaSource::Data(bytes),
                ..
            } => bytes.len(),
            Body::Media {
                source: MediaSource::Url(_),
                ..
            } => 0,
        }
    }

    /// The one-line description a result's `output` uses for the part:
    /// `image (image/png, 82 bytes)`; a text part is `text (<n> bytes)`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self.mime_type() {
            Some(mime) => format!("{} ({mime}, {} bytes)", self.kind, self.byte_len()),
            None => format!("{} ({} bytes)", self.kind, self.byte_len()),
        }
    }

    /// The text that stands in for a part a provider cannot carry:
    /// `[unsupported audio part (audio/wav, 41984 bytes)]`.
    #[must_use]
    pub fn unsupported_placeholder(&self) -> String {
        format!(
            "[unsupported {}]",
            self.describe().replacen(' ', " part ", 1)
        )
    }

    /// The token estimate: `max(85, floor(bytes / 750))` for a non-text part;
    /// for a text part, one token per four bytes, rounded up.
    ///
    /// ```
    /// use toolresult::canonical::ContentPart;
    /// assert_eq!(ContentPart::from_bytes(vec![0; 82], "image/png")?.estimated_tokens(), 85);
    /// assert_eq!(ContentPart::from_bytes(vec![0; 750_000], "image/png")?.estimated_tokens(), 1000);
    /// # Ok::<(), toolresult::canonical::PartError>(())
    /// ```
    #[must_use]
    pub fn estimated_tokens(&self) -> usize {
        match self.body {
            Body::Text(ref text) => super::estimate_text_tokens(text),
            Body::Media { .. } => (self.byte_len() / 750).max(85),
        }
    }
}

impl fmt::Debug for ContentPart {
    /// Shows the shape, never megabytes of bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("ContentPart");
        s.field("kind", &self.kind);
        match &self.body {
            Body::Text(text) => s.field("text", text),
            Body::Media { mime_type, source } => {
                s.field("mime_type", mime_type);
                match source {
                    MediaSource::Data(bytes) => s.field("data_bytes", &bytes.len()),
                    MediaSource::Url(url) => s.field("url", url),
                }
            }
        };
        if let Some(name) = &self.name {
            s.field("name", name);
        }
        s.finish()
    }
}

impl fmt::Debug for MediaSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MediaSource::Data(bytes) => write!(f, "Data({} bytes)", bytes.len()),
            MediaSource::Url(url) => f.debug_tuple("Url").field(url).finish(),
        }
    }
}
