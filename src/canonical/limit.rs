//! The size limit on parts, and the entry points that take another one.

use std::io::Read;
use std::path::Path;

use super::drain::{Drained, read_file, read_to_limit};
use super::part::{Body, media_type_of, new_media_type};
use super::{ContentPart, MediaSource, PartError, PartKind};

/// The most bytes one part may carry: checked before a file is read, while a
/// reader is drained, and, when a part is parsed, from the length of its
/// base64 before any of it is decoded.
///
/// The default is [`PartLimit::DEFAULT_MAX_BYTES`] (20 MiB, what the larger
/// providers accept for one inline image or document). Every
/// `ContentPart::from_*` constructor and every parse of a part uses it.
/// Another limit is taken where the limit is what keeps memory in check:
/// reading a file ([`part_from_path`](Self::part_from_path), and the
/// built-in [`read`](Self::read)), draining a reader
/// ([`part_from_reader`](Self::part_from_reader)), and parsing JSON: a
/// limit is a `serde::de::DeserializeSeed` of a canonical
/// [`ToolResult`](super::ToolResult), and an argument of
/// [`Mcp::read_result`](crate::provider::Mcp::read_result). No limit is
/// set in the air: a parse uses the default unless it is handed another.
///
/// ```
/// use toolresult::canonical::{ContentPart, PartError, PartLimit};
/// assert_eq!(PartLimit::default().max_bytes(), 20 * 1024 * 1024);
///
/// let small = PartLimit::new(1024);
/// let part = small.part_from_reader(&[1, 2, 3][..], "image/png")?;
/// assert_eq!(part.byte_len(), 3);
/// assert!(matches!(
///     small.part_from_reader(&[0; 2048][..], "image/png"),
///     Err(PartError::TooLarge { limit: 1024, .. })
/// ));
/// # Ok::<(), PartError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PartLimit {
    max_bytes: u64,
}

impl PartLimit {
    /// The default limit: 20 MiB.
    pub const DEFAULT_MAX_BYTES: u64 = 20 * 1024 * 1024;

    /// A limit of `max_bytes` decoded bytes per part.
    #[must_use]
    pub const fn new(max_bytes: u64) -> Self {
        Self { max_bytes }
    }

    /// The limit, in decoded bytes.
    #[must_use]
    pub const fn max_bytes(self) -> u64 {
        self.max_bytes
    }

    /// A part from a file under this limit; see [`ContentPart::from_path`].
    ///
    /// ```
    /// use toolresult::canonical::{PartError, PartLimit};
    /// let err = PartLimit::new(10).part_from_path("tests/fixtures/fixture.png").unwrap_err();
    /// assert!(matches!(err, PartError::TooLarge { bytes: 82, limit: 10, .. }));
    /// ```
    ///
    /// # Errors
    /// As [`ContentPart::from_path`].
    pub fn part_from_path(self, path: impl AsRef<Path>) -> Result<ContentPart, PartError> {
        let path = path.as_ref();
        let media = media_type_of(path)?;
        let bytes = read_file(self, path)?;
        let part = ContentPart {
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

    /// A part drained from a reader under this limit; see
    /// [`ContentPart::from_reader`]. At most one byte past the limit is read.
    ///
    /// This is also the way to a part from bytes already in memory that are
    /// over the default limit: `limit.part_from_reader(&bytes[..], mime)`.
    ///
    /// # Errors
    /// As [`ContentPart::from_reader`].
    pub fn part_from_reader(
        self,
        reader: impl Read,
        mime_type: &str,
    ) -> Result<ContentPart, PartError> {
        let (kind, mime_type) = new_media_type(mime_type)?;
        let bytes = read_to_limit(self, reader, 0, Drained::Reader)?;
        Ok(ContentPart {
            kind,
            body: Body::Media {
                mime_type,
                source: MediaSource::Data(bytes),
            },
            name: None,
        })
    }

    /// The built-in [`read`](super::read) of a path, with this limit on text
    /// and media alike.
    ///
    /// ```
    /// use toolresult::canonical::PartLimit;
    /// let refused = PartLimit::new(10).read("tests/fixtures/fixture.png");
    /// assert!(refused.is_error);
    /// assert!(refused.output.contains("over the part size limit of 10 bytes"));
    /// ```
    #[must_use]
    pub fn read(self, path: impl AsRef<Path>) -> super::ToolResult {
        super::read::read_under(path.as_ref(), self)
    }

    /// Refuses `bytes` over the limit, naming where they came from.
    pub(crate) fn check(self, source: Drained<'_>, bytes: u64) -> Result<(), PartError> {
        if bytes > self.max_bytes() {
            return Err(PartError::TooLarge {
                what: source.to_string(),
                bytes,
                limit: self.max_bytes(),
            });
        }
        Ok(())
    }
}

impl Default for PartLimit {
    fn default() -> Self {
        Self::new(Self::DEFAULT_MAX_BYTES)
    }
}
