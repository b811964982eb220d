//! `FileStore`: artifacts kept as files in one directory, read back under a
//! bound.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::{Artifact, ArtifactError, ArtifactId, ArtifactStore};

/// The most bytes a sidecar may hold: a mime type and a name.
const MAX_SIDECAR_BYTES: u64 = 64 * 1024;

/// A store of files in one directory: each artifact is `<dir>/<id>`, with
/// its mime type and name in a sidecar `<dir>/<id>.json`.
///
/// Both files are written to a temporary file and renamed into place, the
/// sidecar last, so a reader never sees an artifact half written; the
/// files are not synced to the disk, so after a power loss an artifact may
/// be missing or empty. `get` only ever opens files named by ids of the
/// shape this store makes (`art_` and 32 hex digits); any other id,
/// whatever it holds, is `Ok(None)` without the filesystem being touched.
///
/// The directory is not trusted: whatever is found under an artifact's
/// name must be a regular file (a FIFO or a device planted there is an
/// error, never a wait), and no more than [`max_bytes`](Self::max_bytes) of
/// it is ever read, whatever size the file reports (a sparse file far
/// larger than memory is [`ArtifactError::TooLarge`], not an abort). `put`
/// refuses an artifact over the same bound, so what is kept can be read.
///
/// ```
/// use toolresult::budget::{Artifact, ArtifactStore, FileStore};
///
/// let dir = tempfile::tempdir()?;
/// let store = FileStore::new(dir.path().join("artifacts"))?;
/// let id = store.put(Artifact::new("a long log", "text/plain").with_name("run.log"))?;
/// assert!(dir.path().join("artifacts").join(id.as_str()).is_file());
///
/// let back = store.get(&id)?.unwrap();
/// assert_eq!(back.bytes, "a long log");
/// assert_eq!(back.mime_type, "text/plain");
/// assert_eq!(back.name.as_deref(), Some("run.log"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct FileStore {
    dir: PathBuf,
    max_bytes: u64,
}

/// The sidecar of a file store's artifact.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Sidecar {
    mime_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

impl FileStore {
    /// The default bound on one artifact: 64 MiB.
    pub const DEFAULT_MAX_BYTES: u64 = 64 * 1024 * 1024;

    /// A store in `dir`, created (with its parents) if it does not exist,
    /// keeping artifacts of at most [`DEFAULT_MAX_BYTES`](Self::DEFAULT_MAX_BYTES).
    ///
    /// # Errors
    /// [`ArtifactError::Io`]: the directory could not be created.
    pub fn new(dir: impl Into<PathBuf>) -> Result<Self, ArtifactError> {
        let dir = dir.into();
        fs::create_dir_all(&dir).map_err(|source| ArtifactError::Io {
            action: "create the directory",
            path: dir.clone(),
            source,
        })?;
        Ok(Self {
            dir,
            max_bytes: Self::DEFAULT_MAX_BYTES,
        })
    }

    /// The same store, keeping and reading back artifacts of at most
    /// `max_bytes` bytes: `put` refuses a larger one, and `get` reads no
    /// more than that (and one byte to learn the file is longer).
    ///
    /// ```
    /// use toolresult::budget::{Artifact, ArtifactError, ArtifactStore, FileStore};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let store = FileStore::new(dir.path())?.max_bytes(4);
    /// let err = store.put(Artifact::new("12345", "text/plain")).unwrap_err();
    /// assert!(matches!(err, ArtifactError::TooLarge { bytes: 5, limit: 4, .. }));
    /// assert!(err.to_string().ends_with("is 5 bytes, over the store's limit of 4 bytes"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// Writes `contents` to `<dir>/<file>` through a temporary file renamed
    /// into place.
    fn write_atomically(&self, file: &str, contents: &[u8]) -> Result<(), ArtifactError> {
        let path = self.dir.join(file);
        let temporary = self.dir.join(format!("{file}.tmp"));
        if let Err(source) = fs::write(&temporary, contents) {
            // Nothing to keep of a half-written file.
            let _ = fs::remove_file(&temporary);
            return Err(ArtifactError::Io {
                action: "write",
                path: temporary,
                source,
            });
        }
        fs::rename(&temporary, &path).map_err(|source| {
            let _ = fs::remove_file(&temporary);
            ArtifactError::Io {
                action: "rename",
                path,
                source,
            }
        })
    }
}

/// Refuses `bytes` over `limit` for the file at `path`.
fn check_size(path: &Path, bytes: u64, limit: u64) -> Result<(), ArtifactError> {
    if bytes > limit {
        return Err(ArtifactError::TooLarge {
            path: path.to_owned(),
            bytes,
            limit,
        });
    }
    Ok(())
}

/// Reads the regular file at `path`, at most `limit` bytes of it; `None`
/// when it does not exist.
///
/// The file is opened without blocking: anything else planted in the
/// store's directory under an artifact's name (a FIFO that would never
/// answer, a device) is an `InvalidInput` error. Its reported size refuses
/// it early but reserves nothing: memory grows with what is read, and a
/// file that grows past `limit` while it is read is refused too.
fn read_bounded(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, ArtifactError> {
    let io_error = |source| ArtifactError::Io {
        action: "read",
        path: path.to_owned(),
        source,
    };
    let file = match crate::canonical::open_without_blocking(path) {
        Ok(file) => file,
        Err(source) if source.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(io_error(source)),
    };
    let metadata = file.metadata().map_err(io_error)?;
    if !metadata.is_file() {
        return Err(io_error(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        )));
    }
    check_size(path, metadata.len(), limit)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    check_size(path, bytes.len() as u64, limit)?;
    Ok(Some(bytes))
}

impl ArtifactStore for FileStore {
    fn put(&self, artifact: Artifact) -> Result<ArtifactId, ArtifactError> {
        let id = ArtifactId::random();
        let sidecar_path = self.dir.join(format!("{id}.json"));
        let sidecar = Sidecar {
            mime_type: artifact.mime_type,
            name: artifact.name,
        };
        let sidecar = serde_json::to_vec(&sidecar).map_err(|source| ArtifactError::Metadata {
            path: sidecar_path.clone(),
            source,
        })?;
        check_size(
            &self.dir.join(id.as_str()),
            artifact.bytes.len() as u64,
            self.max_bytes,
        )?;
        check_size(&sidecar_path, sidecar.len() as u64, MAX_SIDECAR_BYTES)?;
        self.write_atomically(id.as_str(), &artifact.bytes)?;
        self.write_atomically(&format!("{id}.json"), &sidecar)?;
        Ok(id)
    }

    fn get(&self, id: &ArtifactId) -> Result<Option<Artifact>, ArtifactError> {
        if !id.is_random_shape() {
            return Ok(None);
        }
        let sidecar_path = self.dir.join(format!("{id}.json"));
        let Some(sidecar) = read_bounded(&sidecar_path, MAX_SIDECAR_BYTES)? else {
            return Ok(None);
        };
        let sidecar: Sidecar =
            serde_json::from_slice(&sidecar).map_err(|source| ArtifactError::Metadata {
                path: sidecar_path,
                source,
            })?;
        let path = self.dir.join(id.as_str());
        let Some(bytes) = read_bounded(&path, self.max_bytes)? else {
            // The sidecar is written last: an artifact without its file
            // was removed from under the store.
            return Err(ArtifactError::Io {
                action: "read",
                path,
                source: io::ErrorKind::NotFound.into(),
            });
        };
        Ok(Some(Artifact {
            bytes: Bytes::from(bytes),
            mime_type: sidecar.mime_type,
            name: sidecar.name,
        }))
    }
}
