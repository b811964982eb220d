//! The constructors of a [`ContentPart`]: each checks the contract
//! (`part_validation.rs`) before a part exists.

use std::io::Read;
use std::path::Path;

use bytes::Bytes;

use super::bounded_read::{BytesFrom, read_file, read_to_limit};
use super::part::Body;
use super::part_error::shorten;
use super::part_validation::{check_url, essence, media_type_of, new_media_type, parse_data_url};
use super::{ContentPart, MediaSource, PartError, PartKind, PartLimit};

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

    /// A part from a file, reading at most `limit` bytes
    /// ([`PartLimit::default`] is 20 MiB).
    ///
    /// The mime type comes from the extension alone, case-insensitively,
    /// from a fixed table (never sniffed, never from a system database):
    /// `png` `image/png`, `jpg` and `jpeg` `image/jpeg`, `gif` `image/gif`,
    /// `webp` `image/webp`, `pdf` `application/pdf` (a file part), `mp3`
    /// `audio/mpeg`, `wav` `audio/wav`; any other extension is refused. A
    /// PDF keeps its base name in `name`. The file is opened without blocking and must be a regular
    /// file; one over the limit is refused from its size before it is read,
    /// and one that grows past the limit while it is read is refused after
    /// at most one byte more.
    ///
    /// ```
    /// use toolresult::canonical::{ContentPart, PartError, PartKind, PartLimit};
    ///
    /// let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())?;
    /// assert_eq!(png.kind(), PartKind::Image);
    /// assert_eq!(png.byte_len(), 82);
    ///
    /// let err = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::new(10)).unwrap_err();
    /// assert!(matches!(err, PartError::TooLarge { bytes: 82, limit: 10, .. }));
    /// # Ok::<(), PartError>(())
    /// ```
    ///
    /// # Errors
    /// An unknown or missing extension, a path that cannot be read or is not a
    /// file, a non-UTF-8 file name, or a file over the limit.
    pub fn from_path(path: impl AsRef<Path>, limit: PartLimit) -> Result<Self, PartError> {
        let path = path.as_ref();
        let media = media_type_of(path)?;
        let bytes = read_file(limit, path)?;
        let part = Self {
            kind: media.kind,
            body: Body::Media {
                mime_type: media.mime_type.to_owned(),
                source: MediaSource::Data(bytes),
            },
            name: None,
        };
        if media.kind == PartKind::File {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            return Ok(part.with_name(name));
        }
        Ok(part)
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
    /// An empty or malformed mime type, or bytes over the default limit
    /// (for more, [`from_reader`](Self::from_reader) with a larger
    /// [`PartLimit`]: `ContentPart::from_reader(&bytes[..], mime, limit)`).
    pub fn from_bytes(bytes: impl Into<Bytes>, mime_type: &str) -> Result<Self, PartError> {
        let bytes = bytes.into();
        let (kind, mime_type) = new_media_type(mime_type)?;
        PartLimit::default().check(BytesFrom::Data, bytes.len() as u64)?;
        Ok(Self {
            kind,
            body: Body::Media {
                mime_type,
                source: MediaSource::Data(bytes),
            },
            name: None,
        })
    }

    /// A part drained from any reader, with an explicit mime type, reading
    /// at most one byte past `limit`. The reader stays the caller's.
    ///
    /// ```
    /// use toolresult::canonical::{ContentPart, PartError, PartLimit};
    ///
    /// let part = ContentPart::from_reader(&b"%PDF-1.7"[..], "application/pdf", PartLimit::default())?;
    /// assert_eq!(part.byte_len(), 8);
    ///
    /// let endless = std::io::repeat(0);
    /// let err = ContentPart::from_reader(endless, "audio/wav", PartLimit::new(1024)).unwrap_err();
    /// assert!(matches!(err, PartError::TooLarge { limit: 1024, .. }));
    /// # Ok::<(), PartError>(())
    /// ```
    ///
    /// # Errors
    /// An empty or malformed mime type, a failing reader, or more bytes than the limit.
    pub fn from_reader(
        reader: impl Read,
        mime_type: &str,
        limit: PartLimit,
    ) -> Result<Self, PartError> {
        let (kind, mime_type) = new_media_type(mime_type)?;
        let bytes = read_to_limit(limit, reader, 0, BytesFrom::Reader)?;
        Ok(Self {
            kind,
            body: Body::Media {
                mime_type,
                source: MediaSource::Data(bytes),
            },
            name: None,
        })
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
}
