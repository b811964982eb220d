//! What can go wrong setting up or running an MCP server.

/// A tool whose declaration rmcp cannot take, found when the server is
/// made.
#[derive(Debug, thiserror::Error)]
#[error("the declaration of tool `{tool}` is not an MCP tool: {source}")]
pub struct DeclarationError {
    pub(super) tool: String,
    #[source]
    pub(super) source: serde_json::Error,
}

impl DeclarationError {
    /// The tool's name.
    #[must_use]
    pub fn tool(&self) -> &str {
        &self.tool
    }
}

/// Why serving a session ended in failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The client's `initialize` failed (the transport closed, a bad
    /// handshake).
    #[error("the mcp session did not start: {0}")]
    Initialize(#[from] Box<rmcp::service::ServerInitializeError>),
    /// The session's task ended in a panic or was aborted.
    #[error("the mcp session stopped: {0}")]
    Stopped(#[from] tokio::task::JoinError),
}
