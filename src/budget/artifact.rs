//! PLACEHOLDER until the artifact file lands.
use bytes::Bytes;
use std::collections::HashMap;
use std::sync::Mutex;
/// An artifact.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Artifact {
    /// b
    pub bytes: Bytes,
    /// m
    pub mime_type: String,
    /// n
    pub name: Option<String>,
}
impl Artifact {
    /// new
    pub fn new(bytes: impl Into<Bytes>, mime_type: impl Into<String>) -> Self {
        Self {
            bytes: bytes.into(),
            mime_type: mime_type.into(),
            name: None,
        }
    }
    /// name
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
}
/// id
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ArtifactId(String);
impl ArtifactId {
    /// s
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// parse
    pub fn from_url_or_id(s: &str) -> Result<Self, ArtifactError> {
        Ok(Self(s.strip_prefix("artifact://").unwrap_or(s).to_owned()))
    }
    /// url
    #[must_use]
    pub fn url(&self) -> String {
        format!("artifact://{}", self.0)
    }
}
/// err
#[derive(Debug, thiserror::Error)]
#[error("artifact error")]
pub struct ArtifactError;
/// store
pub trait ArtifactStore: Send + Sync + std::fmt::Debug {
    /// put
    fn put(&self, artifact: Artifact) -> Result<ArtifactId, ArtifactError>;
    /// get
    fn get(&self, id: &ArtifactId) -> Result<Option<Artifact>, ArtifactError>;
}
/// mem
#[derive(Debug, Default)]
pub struct MemoryStore(Mutex<HashMap<ArtifactId, Artifact>>);
impl MemoryStore {
    /// new
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}
impl ArtifactStore for MemoryStore {
    fn put(&self, artifact: Artifact) -> Result<ArtifactId, ArtifactError> {
        let id = ArtifactId(format!("art_{}", uuid::Uuid::new_v4().simple()));
        self.0
            .lock()
            .map_err(|_| ArtifactError)?
            .insert(id.clone(), artifact);
        Ok(id)
    }
    fn get(&self, id: &ArtifactId) -> Result<Option<Artifact>, ArtifactError> {
        Ok(self.0.lock().map_err(|_| ArtifactError)?.get(id).cloned())
    }
}
