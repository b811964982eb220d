//! The size limit on parts.

/// The most bytes one part may carry, checked before a file is read and
/// while a reader is drained.
///
/// The default is [`PartLimit::DEFAULT_MAX_BYTES`] (20 MiB, what the larger
/// providers accept for one inline image or document). Every
/// `ContentPart::from_*` constructor uses it; the `part_from_*` methods here
/// take another limit per call.
///
/// ```
/// use toolresult::canonical::PartLimit;
/// assert_eq!(PartLimit::default().max_bytes(), 20 * 1024 * 1024);
/// let small = PartLimit::new(1024);
/// let part = small.part_from_bytes(vec![1, 2, 3], "image/png")?;
/// assert_eq!(part.byte_len(), 3);
/// assert!(small.part_from_bytes(vec![0; 2048], "image/png").is_err());
/// # Ok::<(), toolresult::canonical::PartError>(())
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
}

impl Default for PartLimit {
    fn default() -> Self {
        Self::new(Self::DEFAULT_MAX_BYTES)
    }
}
