//! `ArtifactError`: why an artifact could not be named, kept or read.

use std::io;
use std::path::PathBuf;

use super::IdProblem;

/// Why an artifact could not be named, kept or read.
///
/// ```
/// use toolresult::budget::{ArtifactError, ArtifactId, IdProblem};
///
/// let err = ArtifactId::from_url_or_id("artifact://").unwrap_err();
/// assert!(matches!(err, ArtifactError::InvalidId { problem: IdProblem::Empty, .. }));
/// assert_eq!(err.to_string(), "invalid artifact id `artifact://`: it is empty");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArtifactError {
    /// An id that is not 1 to 128 URL-safe characters.
    #[error("invalid artifact id `{id}`: {problem}")]
    InvalidId {
        /// The text given, cut after 64 characters, control characters escaped.
        id: String,
        /// What is wrong with it.
        problem: IdProblem,
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
