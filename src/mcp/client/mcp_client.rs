//! `McpClient`: a connection to an MCP server, whose tools become this
//! crate's tools.
#![allow(deprecated)] // MCP's logging utility (SEP-2577) is still the 2025 revisions'.

use std::collections::HashSet;
use std::sync::Arc;

use rmcp::model::{PaginatedRequestParams, ProtocolVersion, SetLevelRequestParams};
use rmcp::service::{ClientInitializeError, RoleClient, ServiceError};
use rmcp::transport::IntoTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt};

use super::connection::{Connection, Handler};
use super::parked::ParkedCalls;
use super::remote::RemoteTool;
use super::tap::Tap;
use crate::mcp::log_level::to_rmcp;
use crate::tool::LogLevel;

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
    /// Connects to the server at the other end of `transport`, in the
    /// protocol it speaks: `server/discover` first, then 2026-07-28
    /// without a session (each request carrying its own metadata) to a
    /// server that answers it; to one that does not, 2025-11-25 with its
    /// `initialize` handshake.
    ///
    /// # Errors
    /// The handshake failed: the transport closed, or the server refused.
    pub async fn connect<T, E, A>(transport: T) -> Result<Self, Box<ClientInitializeError>>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let lifecycle = ClientLifecycleMode::Auto {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            legacy_version: Some(ProtocolVersion::V_2025_11_25),
        };
        Self::connect_with(transport, lifecycle).await
    }

    /// Connects to the server at the other end of `transport` with the
    /// lifecycle you choose: [`ClientLifecycleMode::Initialize`] (the
    /// handshake, at the version of
    /// [`ProtocolVersion::V_2025_11_25`]), [`ClientLifecycleMode::Discover`]
    /// (2026-07-28 only), or [`ClientLifecycleMode::Auto`] as
    /// [`connect`](Self::connect) does.
    ///
    /// # Errors
    /// The handshake failed: the transport closed, the server refused, or
    /// it does not speak the versions asked for.
    pub async fn connect_with<T, E, A>(
        transport: T,
        lifecycle: ClientLifecycleMode,
    ) -> Result<Self, Box<ClientInitializeError>>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let handler = Handler::default();
        let routes = handler.routes.clone();
        let transport = Tap {
            inner: transport.into_transport(),
            routes: routes.clone(),
            discover: None,
        };
        let service = handler
            .serve_with_lifecycle(transport, lifecycle)
            .await
            .map_err(Box::new)?;
        Ok(Self {
            connection: Arc::new(Connection {
                service,
                routes,
                parked: ParkedCalls::default(),
            }),
        })
    }

    /// The protocol version the server and this client agreed on.
    #[must_use]
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        let info = self.connection.service.peer().peer_info()?;
        Some(info.protocol_version.clone())
    }

    /// Passes the server's log messages at or above `level` to the calls
    /// they are about, as their [`CallEvent::Log`](crate::tool::CallEvent::Log)s
    /// (`None`, as before it is set: none). A server of 2026-07-28 hears
    /// the level with each call; one of 2025-11-25 with `logging/setLevel`,
    /// when it offers logging. A log message names no request: one sent
    /// while several calls are in flight reaches each of them.
    ///
    /// # Errors
    /// The server refused `logging/setLevel`, or the connection is gone.
    pub async fn set_log_level(&self, level: Option<LogLevel>) -> Result<(), ServiceError> {
        self.connection.routes.set_level(level);
        let peer = self.connection.service.peer();
        let Some(info) = peer.peer_info() else {
            return Ok(());
        };
        let legacy = info.protocol_version < ProtocolVersion::V_2026_07_28;
        if let (true, Some(_), Some(level)) = (legacy, &info.capabilities.logging, level) {
            #[allow(deprecated)] // MCP's logging utility is the 2025 revisions'.
            peer.set_level(SetLevelRequestParams::new(to_rmcp(level)))
                .await?;
        }
        Ok(())
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
