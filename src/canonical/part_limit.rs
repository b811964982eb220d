//! `PartLimit`: the most bytes one part may carry.

use super::PartError;
use super::bounded_read::BytesFrom;

/// The most bytes one part may carry: checked before a file is read, while a
/// reader is drained, and, when a part is parsed, from the length of its
/// base64 before any of it is decoded.
///
/// The default is [`PartLimit::DEFAULT_MAX_BYTES`] (20 MiB). Whatever reads
/// from a source that could be larger than memory takes a limit as an
/// argument: a file ([`ContentPart::from_path`](super::ContentPart::from_path),
/// the built-in [`ToolResult::from_path`](super::ToolResult::from_path)), a reader
/// ([`ContentPart::from_reader`](super::ContentPart::from_reader)), and JSON
/// (a limit is a `serde::de::DeserializeSeed` of a canonical
/// [`ToolResult`](super::ToolResult), and an argument of
/// [`Mcp::read_result`](crate::provider::Mcp::read_result)). Bytes already
/// in memory ([`ContentPart::from_bytes`](super::ContentPart::from_bytes),
/// a `data:` URL) and a plain `serde_json` parse use the default. No limit
/// is set in the air.
///
/// ```
/// use toolresult::canonical::{ContentPart, PartError, PartLimit};
/// assert_eq!(PartLimit::default().max_bytes(), 20 * 1024 * 1024);
///
/// let small = PartLimit::new(1024);
/// let part = ContentPart::from_reader(&[1, 2, 3][..], "image/png", small)?;
/// assert_eq!(part.byte_len(), 3);
/// assert!(matches!(
///     ContentPart::from_reader(&[0; 2048][..], "image/png", small),
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

    /// Refuses `bytes` over the limit, naming where they came from.
    pub(crate) fn check(self, source: BytesFrom<'_>, bytes: u64) -> Result<(), PartError> {
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
