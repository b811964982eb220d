//! `ArtifactError`: why an artifact could not be named, kept or read.

use std::io;
use std::path::PathBuf;

use super::artifact_id::MAX_ID_LEN;

/// Why an artifact could not be named, kept or read.
///
/// ```
/// use toolresult::budget::{ArtifactError, ArtifactId};
///
/// let err = ArtifactId::from_url_or_id("artifact://").unwrap_err();
/// assert!(matches!(err, ArtifactError::EmptyId { .. }));
/// assert_eq!(err.to_string(), "invalid artifact id `artifact://`: it is empty");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArtifactError {
    /// An id with nothing after its `artifact://` prefix, or none at all.
    #[error("invalid artifact id `{id}`: it is empty")]
    EmptyId {
        /// The text given, cut after 64 characters, control characters escaped.
        id: String,
    },
    /// An id longer than 128 bytes.
    #[error("invalid artifact id `{id}`: it is {len} bytes long; an id has at most {MAX_ID_LEN}")]
    IdTooLong {
        /// The text given, cut after 64 characters, control characters escaped.
        id: String,
        /// The id's length in bytes.
        len: usize,
    },
    /// An id holding a character outside `A-Z a-z 0-9 _ -`.
    #[error("invalid artifact id `{id}`: it holds `{}` at byte {at}; an id holds only ASCII letters, digits, `_` and `-`", character.escape_debug())]
    IdCharacter {
        /// The text given, cut after 64 characters, control characters escaped.
        id: String,
        /// The first character not allowed.
        character: char,
        /// Its byte offset in the text given, URL prefix and all.
        at: usize,
    },
    /// A file store's file or directory could not be read or written.
    #[error("cannot {action} `{}`: {source}", path.display())]
    Io {
        /// What the store was doing: `create the directory`, `write`,
        /// `rename`, `read`.
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// An artifact over a file store's bound
    /// ([`FileStore::max_bytes`](super::FileStore::max_bytes)): refused
    /// when it is kept, and never read past the bound when it is read
    /// back, whatever size its file reports.
    #[error("the artifact file `{}` is {bytes} bytes, over the store's limit of {limit} bytes", path.display())]
    TooLarge {
        /// The artifact's file (or its sidecar).
        path: PathBuf,
        /// Its size: the file's reported size, or, for a file that grew
        /// while it was read, the bytes read by then.
        bytes: u64,
        /// The bound, in bytes.
        limit: u64,
    },
    /// A file store's sidecar (`<id>.json`) is not the metadata it wrote.
    #[error("the artifact metadata `{}` is not valid: {source}", path.display())]
    Metadata {
        /// The sidecar file.
        path: PathBuf,
        /// What serde found.
        #[source]
        source: serde_json::Error,
    },
}
