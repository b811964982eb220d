//! `ContentPart` (SPEC §1B): one piece of non-text (or extra text) output.

use std::fmt;
use std::io::Read;
use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;

use super::base64_data::{decode_base64, decoded_len};
use super::drain::{Drained, shown};
use super::part_error::shorten;
use super::{MediaType, PartError, PartLimit};

/// What a part is: the wire `type`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum PartKind {
    /// Text.
    #[default]
    Text,
    /// An image (`image/*`).
    Image,
    /// Any other file, a PDF say.
    File,
    /// Audio (`audio/*`).
    Audio,
}

impl PartKind {
    /// The wire name: `text`, `image`, `file` or `audio`.
    ///
    /// ```
    /// assert_eq!(toolresult::canonical::PartKind::Audio.as_str(), "audio");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            PartKind::Text => "text",
            PartKind::Image => "image",
            PartKind::File => "file",
            PartKind::Audio => "audio",
        }
    }

    pub(crate) fn from_wire(name: &str) -> Result<Self, PartError> {
        match name {
            "text" => Ok(PartKind::Text),
            "image" => Ok(PartKind::Image),
            "file" => Ok(PartKind::File),
            "audio" => Ok(PartKind::Audio),
            other => Err(PartError::UnknownType {
                type_name: shorten(other),
            }),
        }
    }
}

impl fmt::Display for PartKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a non-text part's content is: inline bytes or a URL.
#[derive(Clone, PartialEq, Eq)]
pub enum MediaSource {
    /// The decoded bytes (written to the wire as standard padded base64).
    Data(Bytes),
    /// A URL the content can be fetched from (never `data:`, never `file:`).
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
/// use toolresult::canonical::{ContentPart, PartKind};
///
/// let png = ContentPart::from_path("tests/fixtures/fixture.png")?;
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
    /// A text part.
    ///
    /// ```
    /// let part = toolresult::canonical::ContentPart::text("hello");
    /// assert_eq!(part.as_text(), Some("hello"));
    /// ```
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            kind: PartKind::Text,
            body: Body::Text(text.into()),
            name: None,
        }
    }

    /// A part from a file, with the default size limit ([`PartLimit::default`]).
    ///
    /// The mime type comes from the extension alone (see [`MediaType`]); a PDF
    /// keeps its base name in `name`. The file's size is checked from its
    /// metadata before it is read.
    ///
    /// # Errors
    /// An unknown or missing extension, a path that cannot be read or is not a
    /// file, a non-UTF-8 file name, or a file over the limit.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Self, PartError> {
        PartLimit::default().part_from_path(path)
    }

    /// A part from bytes with an explicit mime type, with the default size limit.
    ///
    /// The mime type's `type/subtype` is written in lower case (`Image/PNG`
    /// is `image/png`); parameters after a `;` stay as given.
    ///
    /// Takes anything that converts into [`Bytes`] (a `Vec<u8>` moves in
    /// without a copy); for a borrowed slice use `Bytes::copy_from_slice`.
    ///
    /// ```
    /// use toolresult::canonical::{ContentPart, PartKind};
    /// let wav = ContentPart::from_bytes(vec![0u8; 41984], "audio/wav")?;
    /// assert_eq!(wav.kind(), PartKind::Audio);
    /// assert_eq!(wav.unsupported_placeholder(), "[unsupported audio part (audio/wav, 41984 bytes)]");
    /// # Ok::<(), toolresult::canonical::PartError>(())
    /// ```
    ///
    /// # Errors
    /// An empty or malformed mime type, or bytes over the limit (for more,
    /// see [`PartLimit::part_from_reader`]).
    pub fn from_bytes(bytes: impl Into<Bytes>, mime_type: &str) -> Result<Self, PartError> {
        let bytes = bytes.into();
        let (kind, mime_type) = new_media_type(mime_type)?;
        PartLimit::default().check(Drained::Data, bytes.len() as u64)?;
        Ok(Self {
            kind,
            body: Body::Media {
                mime_type,
                source: MediaSource::Data(bytes),
            },
            name: None,
        })
    }

    /// A part drained from any reader, with an explicit mime type and the
    /// default size limit. The reader stays the caller's.
    ///
    /// ```
    /// use toolresult::canonical::ContentPart;
    /// let part = ContentPart::from_reader(&b"%PDF-1.7"[..], "application/pdf")?;
    /// assert_eq!(part.byte_len(), 8);
    /// # Ok::<(), toolresult::canonical::PartError>(())
    /// ```
    ///
    /// # Errors
    /// An empty or malformed mime type, a failing reader, or more bytes than the limit.
    pub fn from_reader(reader: impl Read, mime_type: &str) -> Result<Self, PartError> {
        PartLimit::default().part_from_reader(reader, mime_type)
    }

    /// A part from a URL, with the default size limit.
    ///
    /// A `data:<mime>;base64,<payload>` URL is decoded into inline bytes with
    /// its own mime type, parameters dropped (`data:text/plain;charset=utf-8;base64,..`
    /// gives `text/plain`); an explicit `mime_type`, if given, must agree,
    /// parameters aside. Any other URL is kept as a URL and needs `mime_type`.
    ///
    /// ```
    /// use toolresult::canonical::ContentPart;
    /// let inline = ContentPart::from_url("data:image/gif;base64,R0lGOA==", None)?;
    /// assert_eq!(inline.data(), Some(&b"GIF8"[..]));
    /// assert_eq!(inline.url(), None);
    ///
    /// let remote = ContentPart::from_url("https://example.com/a.png", Some("image/png"))?;
    /// assert_eq!(remote.describe(), "image (image/png, 0 bytes)");
    /// # Ok::<(), toolresult::canonical::PartError>(())
    /// ```
    ///
    /// # Errors
    /// A malformed data: URL or invalid base64, a URL without a scheme or a
    /// `file:` URL, a missing or mismatched mime type, or data over the limit.
    pub fn from_url(url: &str, mime_type: Option<&str>) -> Result<Self, PartError> {
        let explicit = mime_type.filter(|m| !m.is_empty());
        if let Some((mime, bytes)) = parse_data_url(url, PartLimit::default())? {
            if let Some(explicit) = explicit
                && !essence(explicit).eq_ignore_ascii_case(&mime)
            {
                return Err(PartError::MimeTypeMismatch {
                    mime_type: shorten(explicit),
                    data_url_mime_type: shorten(&mime),
                });
            }
            return Self::from_bytes(bytes, &mime);
        }
        let Some(mime) = explicit else {
            return Err(PartError::UrlWithoutMimeType { url: shorten(url) });
        };
        check_url(url)?;
        let (kind, mime_type) = new_media_type(mime)?;
        Ok(Self {
            kind,
            body: Body::Media {
                mime_type,
                source: MediaSource::Url(url.to_owned()),
            },
            name: None,
        })
    }

    /// The same part with `name` set (a file name shown to the model, never a path).
    ///
    /// ```
    /// use toolresult::canonical::ContentPart;
    /// let pdf = ContentPart::from_bytes(b"%PDF".to_vec(), "application/pdf")?.with_name("q3.pdf");
    /// assert_eq!(pdf.name(), Some("q3.pdf"));
    /// # Ok::<(), toolresult::canonical::PartError>(())
    /// ```
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        let name = name.into();
        self.name = (!name.is_empty()).then_some(name);
        self
    }

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
    #[must_use]
    pub fn source(&self) -> Option<&MediaSource> {
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

    /// Builds a part from its wire fields, checking every invariant. The one
    /// place the contract of a part is enforced.
    pub(crate) fn from_fields(fields: PartFields) -> Result<Self, PartError> {
        let kind = fields.kind;
        let name = fields.name.filter(|n| !n.is_empty());
        if kind == PartKind::Text {
            let unexpected = |field| Err(PartError::UnexpectedField { kind, field });
            if fields.mime_type.is_some() {
                return unexpected("mimeType");
            }
            if fields.data.is_some() {
                return unexpected("data");
            }
            if fields.url.is_some() {
                return unexpected("url");
            }
            return Ok(Self {
                kind,
                body: Body::Text(fields.text.unwrap_or_default()),
                name,
            });
        }
        if fields.text.is_some() {
            return Err(PartError::UnexpectedField {
                kind,
                field: "text",
            });
        }
        let mime_type = match fields.mime_type {
            Some(mime) if !mime.is_empty() => check_mime_type(&mime)?,
            _ => return Err(PartError::MissingMimeType { kind }),
        };
        let source = match (fields.data, fields.url) {
            (Some(_), Some(_)) => return Err(PartError::BothDataAndUrl { kind }),
            (None, None) => return Err(PartError::NeitherDataNorUrl { kind }),
            (Some(data), None) => MediaSource::Data(data),
            (None, Some(url)) => {
                check_url(&url)?;
                MediaSource::Url(url)
            }
        };
        Ok(Self {
            kind,
            body: Body::Media { mime_type, source },
            name,
        })
    }
}

/// The wire fields of a part, before the invariants are checked.
#[derive(Default)]
pub(crate) struct PartFields {
    pub(crate) kind: PartKind,
    pub(crate) text: Option<String>,
    pub(crate) mime_type: Option<String>,
    pub(crate) data: Option<Bytes>,
    pub(crate) url: Option<String>,
    pub(crate) name: Option<String>,
}

/// A mime type must be `type/subtype` with no spaces or control characters.
///
/// Parameters may follow (`text/plain;charset=utf-8`), but what comes before
/// them must itself be `type/subtype`: that is all a `data:` URL keeps, so a
/// part's own [`ContentPart::data_url`] always reads back.
///
/// The `type/subtype` comes back in lower case (providers such as Anthropic
/// refuse `Image/PNG`); parameters stay as given.
pub(crate) fn check_mime_type(mime_type: &str) -> Result<String, PartError> {
    let valid = match essence(mime_type).split_once('/') {
        Some((top, sub)) => {
            !top.is_empty()
                && !sub.is_empty()
                && mime_type.matches('/').count() == 1
                && !mime_type
                    .chars()
                    .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == ',')
        }
        None => false,
    };
    if !valid {
        return Err(PartError::InvalidMimeType {
            mime_type: shorten(mime_type),
        });
    }
    let essence = essence(mime_type);
    let parameters = mime_type.get(essence.len()..).unwrap_or_default();
    Ok(format!("{}{parameters}", essence.to_ascii_lowercase()))
}

/// A kept URL must have a scheme (not a drive letter) and must not be a
/// `file:` or `data:` URL.
fn check_url(url: &str) -> Result<(), PartError> {
    let invalid = |reason| {
        Err(PartError::InvalidUrl {
            url: shorten(url),
            reason,
        })
    };
    let Some((scheme, _)) = url.split_once(':') else {
        return invalid("it has no scheme");
    };
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return invalid("it has no scheme");
    }
    // `C:\shots\a.png` and `C:/shots/a.png` parse as a one-letter scheme;
    // no URL scheme is one letter, but every Windows drive is.
    if scheme.len() == 1 {
        return invalid("it is a Windows drive path");
    }
    if scheme.eq_ignore_ascii_case("file") {
        return invalid("a file: URL is a filesystem path");
    }
    if scheme.eq_ignore_ascii_case("data") {
        return invalid("a data: URL is decoded into inline data, not kept as a URL");
    }
    Ok(())
}

/// The media type a path's extension gives, from the fixed table.
pub(crate) fn media_type_of(path: &Path) -> Result<MediaType, PartError> {
    let Some(file_name) = path.file_name() else {
        return Err(PartError::MissingExtension { path: shown(path) });
    };
    let Some(file_name) = file_name.to_str() else {
        return Err(PartError::NonUtf8FileName { path: shown(path) });
    };
    let extension = match Path::new(file_name).extension().and_then(|e| e.to_str()) {
        Some(ext) if !ext.is_empty() => ext,
        _ => {
            return Err(PartError::MissingExtension { path: shown(path) });
        }
    };
    MediaType::from_extension(extension).ok_or_else(|| PartError::UnknownExtension {
        path: shown(path),
        extension: shorten(extension),
    })
}

/// The kind and checked, normalised mime type of a part built with an
/// explicit mime type.
pub(crate) fn new_media_type(mime_type: &str) -> Result<(PartKind, String), PartError> {
    let kind = PartKind::for_mime_type(mime_type);
    if mime_type.is_empty() {
        return Err(PartError::MissingMimeType { kind });
    }
    Ok((kind, check_mime_type(mime_type)?))
}

/// `Some((mime, bytes))` for a `data:` URL, `None` for any other URL. The
/// size of the data is checked against `limit` from the length of its
/// base64, before any of it is decoded.
fn parse_data_url(url: &str, limit: PartLimit) -> Result<Option<(String, Bytes)>, PartError> {
    let Some(scheme) = url.get(..5) else {
        return Ok(None);
    };
    if !scheme.eq_ignore_ascii_case("data:") {
        return Ok(None);
    }
    let rest = url.get(5..).unwrap_or_default();
    let malformed = |reason| PartError::MalformedDataUrl {
        url: shorten(url),
        reason,
    };
    let (header, payload) = rest
        .split_once(',')
        .ok_or_else(|| malformed("it has no `,` before the data"))?;
    let Some(mime) = header
        .strip_suffix(";base64")
        .or_else(|| header.strip_suffix(";BASE64"))
    else {
        return Err(malformed("only `;base64` data: URLs are supported"));
    };
    // Parameters are dropped: `data:image/png;charset=utf-8;base64,..` is `image/png`.
    let mime = essence(mime);
    if mime.is_empty() {
        return Err(malformed("it has no mime type"));
    }
    limit.check(
        Drained::Encoded("the data: URL's data"),
        decoded_len(payload),
    )?;
    let bytes = decode_base64("the data: URL", payload)?;
    Ok(Some((mime.to_owned(), bytes)))
}

/// A mime type without its parameters: `text/plain` of `text/plain;charset=utf-8`.
fn essence(mime_type: &str) -> &str {
    mime_type.split(';').next().unwrap_or_default()
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
