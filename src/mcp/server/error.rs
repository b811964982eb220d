//! `McpServerError`: what can go wrong setting up or running an MCP server.

/// What went wrong setting up an MCP server ([`McpServer::new`](super::McpServer::new))
/// or serving a session ([`McpServer::serve_stdio`](super::McpServer::serve_stdio)).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpServerError {
    /// A tool whose declaration rmcp cannot take, found when the server
    /// is made.
    #[error("the declaration of tool `{tool}` is not an MCP tool: {source}")]
    Declaration {
        /// The tool's name.
        tool: String,
        /// What rmcp's tool type found.
        #[source]
        source: serde_json::Error,
    },
    /// The client's `initialize` failed (the transport closed, a bad
    /// handshake).
    #[error("the mcp session did not start: {0}")]
    Initialize(#[from] Box<rmcp::service::ServerInitializeError>),
    /// The session's task ended in a panic or was aborted.
    #[error("the mcp session stopped: {0}")]
    Stopped(#[from] tokio::task::JoinError),
}
