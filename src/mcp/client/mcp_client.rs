//! `McpClient`: a connection to an MCP server, whose tools become this
//! crate's tools.

use std::collections::HashSet;
use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::model::PaginatedRequestParams;
use rmcp::service::{ClientInitializeError, RoleClient, ServiceError};
use rmcp::transport::IntoTransport;

use super::connection::{Connection, Handler};
use super::remote::RemoteTool;

/// A connection to an MCP server (feature `mcp-client`), over any of
/// rmcp's client transports (a child process's stdio, streamable HTTP):
/// [`tools`](Self::tools) gives the server's tools as this crate's
/// [`Tool`](crate::tool::Tool)s, to register in a
/// [`Toolbox`](crate::toolbox::Toolbox) beside in-process ones.
///
/// The connection lives as long as the client or any of its tools.
#[derive(Clone)]
pub struct McpClient {
    pub(super) connection: Arc<Connection>,
}

impl McpClient {
    /// Connects to the server at the other end of `transport` (it
    /// answers `initialize`).
    ///
    /// # Errors
    /// The handshake failed: the transport closed, or the server refused.
    pub async fn connect<T, E, A>(transport: T) -> Result<Self, Box<ClientInitializeError>>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let handler = Handler::default();
        let progress = handler.progress();
        let service = handler.serve(transport).await.map_err(Box::new)?;
        Ok(Self {
            connection: Arc::new(Connection { service, progress }),
        })
    }

    /// Every tool of the server (`tools/list`, all its pages), as tools
    /// of this crate.
    ///
    /// A tool's annotations are the server's word: the tools claim
    /// nothing about their safety (each is
    /// [`ToolSafety::Destructive`](crate::tool::ToolSafety::Destructive),
    /// so the retry policy never repeats one) until you say otherwise with
    /// [`RemoteTool::with_safety`], or trust the server's
    /// annotations with [`RemoteTool::trusting_annotations`].
    ///
    /// # Errors
    /// The server failed to list its tools, or the connection is gone;
    /// [`ServiceError::UnexpectedResponse`] when its pages never end (a
    /// `nextCursor` it gave before, or more than 1,000 pages), so
    /// that a server that ignores its cursors cannot keep the listing
    /// going, and growing, for ever.
    pub async fn tools(&self) -> Result<Vec<RemoteTool>, ServiceError> {
        let peer = self.connection.service.peer();
        let mut tools = Vec::new();
        let mut cursors = HashSet::new();
        let mut cursor = None;
        for _ in 0..MAX_PAGES {
            let params =
                cursor.map(|cursor| PaginatedRequestParams::default().with_cursor(Some(cursor)));
            let page = peer.list_tools(params).await?;
            tools.extend(
                page.tools
                    .into_iter()
                    .map(|tool| RemoteTool::new(Arc::clone(&self.connection), tool)),
            );
            match page.next_cursor {
                None => return Ok(tools),
                Some(next) if cursors.insert(next.clone()) => cursor = Some(next),
                Some(_) => return Err(ServiceError::UnexpectedResponse),
            }
        }
        Err(ServiceError::UnexpectedResponse)
    }
}

/// The most pages of `tools/list` [`McpClient::tools`] reads.
const MAX_PAGES: usize = 1_000;

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient").finish_non_exhaustive()
    }
}
