//! `ArtifactStore`: where artifacts are kept.

use std::fmt;
use std::sync::Arc;

use super::{Artifact, ArtifactError, ArtifactId};

/// Where artifacts are kept: [`MemoryStore`](super::MemoryStore) (the
/// default) or [`FileStore`](super::FileStore), or your own (a bucket, a
/// database).
///
/// A store gives each artifact it keeps a new id; `get` of an id it never
/// gave is `Ok(None)`, not an error. An `Err` is the store failing, which
/// the reader reports to the model as an unexpected error without its text
/// (never retried when it is [`ArtifactError::TooLarge`]).
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

/// A shared store is a store: hand the toolbox an `Arc` and keep one.
impl<S: ArtifactStore + ?Sized> ArtifactStore for Arc<S> {
    fn put(&self, artifact: Artifact) -> Result<ArtifactId, ArtifactError> {
        (**self).put(artifact)
    }

    fn get(&self, id: &ArtifactId) -> Result<Option<Artifact>, ArtifactError> {
        (**self).get(id)
    }
}
