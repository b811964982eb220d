//! Artifacts: where the whole of a result cut to fit a budget is kept, and
//! the stores that keep them.

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use crate::canonical::shorten;

/// The scheme of an artifact's URL: `artifact://<id>`.
const URL_PREFIX: &str = super::ARTIFACT_SCHEME;

/// The prefix of every id [`ArtifactId::random`] makes.
const ID_PREFIX: &str = "art_";

/// The longest artifact id, in bytes: long enough for any store's own
/// scheme, short enough to be a file name everywhere.
const MAX_ID_LEN: usize = 128;

/// The whole of something kept aside: its bytes, its mime type and,
/// optionally, a name.
///
/// A result cut to fit a budget keeps its full `output` (or its parts) as
/// an artifact, and the model reads it back in slices through
/// [`ArtifactReader`](super::ArtifactReader). Cloning is cheap: the bytes
/// are shared.
///
/// ```
/// use toolresult::budget::Artifact;
///
/// let log = Artifact::new("line 1\nline 2\n", "text/plain").with_name("build.log");
/// assert!(log.is_text());
/// assert_eq!(log.bytes.len(), 14);
/// assert_eq!(log.name.as_deref(), Some("build.log"));
/// assert!(!Artifact::new(vec![0x89, b'P', b'N', b'G'], "image/png").is_text());
/// ```
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Artifact {
    /// The content.
    pub bytes: Bytes,
    /// Its mime type (`text/plain`, `application/json`, `image/png`).
    pub mime_type: String,
    /// A name for people and models (a file name, say).
    pub name: Option<String>,
}

impl Artifact {
    /// An artifact of these bytes (a `String`, `Vec<u8>`, `&'static str` or
    /// [`Bytes`] moves in without a copy) and this mime type, unnamed.
    #[must_use]
    pub fn new(bytes: impl Into<Bytes>, mime_type: impl Into<String>) -> Self {
        Self {
            bytes: bytes.into(),
            mime_type: mime_type.into(),
            name: None,
        }
    }

    /// The same artifact with a name.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Whether the mime type says text: `text/*`, `application/json` or any
    /// `+json` type, in any case, parameters (`; charset=utf-8`) aside.
    /// The reader hands text back in slices, anything else as a part.
    ///
    /// ```
    /// use toolresult::budget::Artifact;
    ///
    /// assert!(Artifact::new("{}", "application/json").is_text());
    /// assert!(Artifact::new("{}", "application/problem+json").is_text());
    /// assert!(Artifact::new("a,b", "Text/CSV; charset=utf-8").is_text());
    /// assert!(!Artifact::new("%PDF", "application/pdf").is_text());
    /// ```
    #[must_use]
    pub fn is_text(&self) -> bool {
        let essence = self
            .mime_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        essence.starts_with("text/") || essence == "application/json" || essence.ends_with("+json")
    }
}

impl fmt::Debug for Artifact {
    /// Shows the byte count, never the bytes (an artifact can be megabytes).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Artifact")
            .field("bytes", &format_args!("{} bytes", self.bytes.len()))
            .field("mime_type", &self.mime_type)
            .field("name", &self.name)
            .finish()
    }
}

/// The id of a kept artifact: 1 to 128 of the URL-safe characters
/// `A-Z a-z 0-9 _ -`, and nothing else.
///
/// An id comes back from the model, so nothing else is accepted: no `/`,
/// no `.`, no `%`, nothing a store could mistake for a path.
/// [`random`](Self::random) makes `art_` and 32 hex digits; a result refers
/// to the artifact by its [`url`](Self::url), `artifact://<id>`, and
/// [`from_url_or_id`](Self::from_url_or_id) reads either form back.
///
/// ```
/// use toolresult::budget::ArtifactId;
///
/// let id = ArtifactId::random();
/// assert!(id.as_str().starts_with("art_"));
/// assert_eq!(id.url(), format!("artifact://{id}"));
/// assert_eq!(ArtifactId::from_url_or_id(&id.url())?, id);
/// assert_eq!(ArtifactId::from_url_or_id(id.as_str())?, id);
/// assert!(ArtifactId::from_url_or_id("artifact://../../etc/passwd").is_err());
/// # Ok::<(), toolresult::budget::ArtifactError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArtifactId(String);

impl ArtifactId {
    /// A new, unique id: `art_` and the 32 lowercase hex digits of a random
    /// (v4) UUID.
    #[must_use]
    pub fn random() -> Self {
        Self(format!("{ID_PREFIX}{}", uuid::Uuid::new_v4().simple()))
    }

    /// Reads an id from the model (or anyone): the id itself or its URL,
    /// `artifact://<id>`.
    ///
    /// ```
    /// use toolresult::budget::ArtifactId;
    ///
    /// let id = ArtifactId::from_url_or_id("artifact://art_0123")?;
    /// assert_eq!(id.as_str(), "art_0123");
    /// assert_eq!(
    ///     ArtifactId::from_url_or_id("../etc/passwd").unwrap_err().to_string(),
    ///     "invalid artifact id `../etc/passwd`: it holds `.` at byte 0; an id holds only ASCII letters, digits, `_` and `-`"
    /// );
    /// # Ok::<(), toolresult::budget::ArtifactError>(())
    /// ```
    ///
    /// # Errors
    /// [`ArtifactError::InvalidId`]: the id is empty, longer than 128 bytes,
    /// or holds a character outside `A-Z a-z 0-9 _ -`.
    pub fn from_url_or_id(text: &str) -> Result<Self, ArtifactError> {
        let id = text.strip_prefix(URL_PREFIX).unwrap_or(text);
        let problem = if id.is_empty() {
            IdProblem::Empty
        } else if let Some((at, c)) = id
            .char_indices()
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        {
            // The byte is counted in the text as given, URL prefix and all.
            IdProblem::BadChar(c, at + (text.len() - id.len()))
        } else if id.len() > MAX_ID_LEN {
            IdProblem::TooLong(id.len())
        } else {
            return Ok(Self(id.to_owned()));
        };
        Err(ArtifactError::InvalidId {
            id: shorten(text).escape_debug().collect(),
            problem,
        })
    }

    /// The id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The URL a result refers to the artifact by: `artifact://<id>`.
    #[must_use]
    pub fn url(&self) -> String {
        format!("{URL_PREFIX}{}", self.0)
    }

    /// Whether the id has the shape [`random`](Self::random) gives it:
    /// `art_` and 32 lowercase hex digits.
    fn is_random_shape(&self) -> bool {
        self.0.strip_prefix(ID_PREFIX).is_some_and(|hex| {
            hex.len() == 32 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        })
    }
}

impl fmt::Display for ArtifactId {
    /// The id itself (not its URL).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What is wrong with an artifact id.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdProblem {
    /// The id is empty.
    Empty,
    /// The id is this many bytes long.
    TooLong(usize),
    /// The text given holds this character at this byte.
    BadChar(char, usize),
}

impl fmt::Display for IdProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("it is empty"),
            Self::TooLong(len) => {
                write!(f, "it is {len} bytes long; an id has at most {MAX_ID_LEN}")
            }
            Self::BadChar(c, at) => write!(
                f,
                "it holds `{}` at byte {at}; an id holds only ASCII letters, digits, `_` and `-`",
                c.escape_debug()
            ),
        }
    }
}

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

/// Where artifacts are kept: [`MemoryStore`] (the default) or
/// [`FileStore`], or your own (a bucket, a database).
///
/// A store gives each artifact it keeps a new id; `get` of an id it never
/// gave is `Ok(None)`, not an error. An `Err` is the store failing, which
/// the reader reports to the model as an unexpected error without its text.
///
/// ```
/// use std::sync::Arc;
/// use toolresult::budget::{Artifact, ArtifactStore, MemoryStore};
///
/// let store: Arc<dyn ArtifactStore> = Arc::new(MemoryStore::new());
/// let id = store.put(Artifact::new("the whole log", "text/plain"))?;
/// assert_eq!(store.get(&id)?.unwrap().bytes, "the whole log");
/// # Ok::<(), toolresult::budget::ArtifactError>(())
/// ```
pub trait ArtifactStore: Send + Sync + fmt::Debug {
    /// Keeps `artifact`, and returns the new id it is kept under.
    ///
    /// # Errors
    /// The store could not keep it.
    fn put(&self, artifact: Artifact) -> Result<ArtifactId, ArtifactError>;

    /// The artifact kept under `id`; `None` when there is none.
    ///
    /// # Errors
    /// The store could not read it.
    fn get(&self, id: &ArtifactId) -> Result<Option<Artifact>, ArtifactError>;
}

/// The default store: artifacts in memory, for the life of the process.
///
/// It never forgets an artifact: an agent that runs for long keeps every
/// budgeted result until the store is dropped. `get` clones an artifact
/// cheaply (its bytes are shared).
///
/// ```
/// use toolresult::budget::{Artifact, ArtifactId, ArtifactStore, MemoryStore};
///
/// let store = MemoryStore::new();
/// let id = store.put(Artifact::new(vec![1, 2, 3], "application/octet-stream"))?;
/// assert_eq!(store.get(&id)?.unwrap().bytes.as_ref(), [1, 2, 3]);
/// assert!(store.get(&ArtifactId::random())?.is_none());
/// # Ok::<(), toolresult::budget::ArtifactError>(())
/// ```
#[derive(Default)]
pub struct MemoryStore {
    artifacts: Mutex<HashMap<ArtifactId, Artifact>>,
}

impl MemoryStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl fmt::Debug for MemoryStore {
    /// Shows how many artifacts are kept, not their bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self
            .artifacts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len();
        f.debug_struct("MemoryStore")
            .field("artifacts", &count)
            .finish()
    }
}

impl ArtifactStore for MemoryStore {
    fn put(&self, artifact: Artifact) -> Result<ArtifactId, ArtifactError> {
        let id = ArtifactId::random();
        // A map whose holder panicked is still whole: each insert is one step.
        self.artifacts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), artifact);
        Ok(id)
    }

    fn get(&self, id: &ArtifactId) -> Result<Option<Artifact>, ArtifactError> {
        Ok(self
            .artifacts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .cloned())
    }
}

/// A shared store is a store: hand the toolbox an `Arc` and keep one.
impl<S: ArtifactStore + ?Sized> ArtifactStore for Arc<S> {
    fn put(&self, artifact: Artifact) -> Result<ArtifactId, ArtifactError> {
        (**self).put(artifact)
    }

    fn get(&self, id: &ArtifactId) -> Result<Option<Artifact>, ArtifactError> {
        (**self).get(id)
    }
}

/// A store of files in one directory: each artifact is `<dir>/<id>`, with
/// its mime type and name in a sidecar `<dir>/<id>.json`.
///
/// Both files are written to a temporary file and renamed into place, the
/// sidecar last, so a reader never sees an artifact half written; the
/// files are not synced to the disk, so after a power loss an artifact may
/// be missing or empty. `get` only ever
/// opens files named by ids of the shape this store makes (`art_` and 32
/// hex digits); any other id, whatever it holds, is `Ok(None)` without the
/// filesystem being touched.
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
    /// A store in `dir`, created (with its parents) if it does not exist.
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
        Ok(Self { dir })
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

/// Reads the regular file at `path`, opened without blocking: anything
/// else planted in the store's directory under an artifact's name (a FIFO
/// that would never answer, a device) is an `InvalidInput` error.
fn read_regular_file(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = crate::canonical::open_without_blocking(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    io::Read::read_to_end(&mut file, &mut bytes)?;
    Ok(bytes)
}

/// Reads `path`; `None` when it does not exist.
fn read_if_present(path: &Path) -> Result<Option<Vec<u8>>, ArtifactError> {
    match read_regular_file(path) {
        Ok(contents) => Ok(Some(contents)),
        Err(source) if source.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ArtifactError::Io {
            action: "read",
            path: path.to_owned(),
            source,
        }),
    }
}

impl ArtifactStore for FileStore {
    fn put(&self, artifact: Artifact) -> Result<ArtifactId, ArtifactError> {
        let id = ArtifactId::random();
        let sidecar = Sidecar {
            mime_type: artifact.mime_type,
            name: artifact.name,
        };
        let sidecar = serde_json::to_vec(&sidecar).map_err(|source| ArtifactError::Metadata {
            path: self.dir.join(format!("{id}.json")),
            source,
        })?;
        self.write_atomically(id.as_str(), &artifact.bytes)?;
        self.write_atomically(&format!("{id}.json"), &sidecar)?;
        Ok(id)
    }

    fn get(&self, id: &ArtifactId) -> Result<Option<Artifact>, ArtifactError> {
        if !id.is_random_shape() {
            return Ok(None);
        }
        let sidecar_path = self.dir.join(format!("{id}.json"));
        let Some(sidecar) = read_if_present(&sidecar_path)? else {
            return Ok(None);
        };
        let sidecar: Sidecar =
            serde_json::from_slice(&sidecar).map_err(|source| ArtifactError::Metadata {
                path: sidecar_path,
                source,
            })?;
        let path = self.dir.join(id.as_str());
        let bytes = read_regular_file(&path).map_err(|source| ArtifactError::Io {
            action: "read",
            path,
            source,
        })?;
        Ok(Some(Artifact {
            bytes: Bytes::from(bytes),
            mime_type: sidecar.mime_type,
            name: sidecar.name,
        }))
    }
}
