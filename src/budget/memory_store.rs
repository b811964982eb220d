//! `MemoryStore`: artifacts kept in memory, the default store.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, PoisonError};

use super::{Artifact, ArtifactError, ArtifactId, ArtifactStore};

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
