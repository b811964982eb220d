//! The server's tools inside a user's own rmcp `ServerHandler`: the
//! handler keeps its resources, prompts and completions, and hands
//! `tools/list` and `tools/call` to the server, which answers them on the
//! path its own sessions take.

#![allow(deprecated)] // MCP's logging utility, deprecated by SEP-2577, is still the 2025 revisions'.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams,
    ReadResourceResult, ResourceTemplate, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::{
    SessionManager, StreamableHttpServerConfig, StreamableHttpService,
};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::McpServer;
use super::artifacts;
use super::http::{HttpSessions, OwnStream};
use super::mcp_server::origins_of;
use super::session::McpSession;

impl McpServer {
    /// `tools/list` for a handler of one's own: the server's tools, a page
    /// at a time, as [`session`](Self::session)'s handler lists them.
    ///
    /// A handler of one's own keeps its resources, prompts and
    /// completions and hands its tools to the server, which answers with
    /// every rule it serves them by (see [`McpServer`]):
    ///
    /// ```
    /// use rmcp::model::{
    ///     CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams,
    ///     ServerCapabilities, ServerConfig, Tool,
    /// };
    /// use rmcp::service::RequestContext;
    /// use rmcp::{ErrorData, RoleServer, ServerHandler};
    /// use toolresult::mcp::McpServer;
    /// use toolresult::toolbox::Toolbox;
    ///
    /// #[derive(Clone)]
    /// struct Mine {
    ///     tools: McpServer,
    /// }
    ///
    /// impl ServerHandler for Mine {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_prompts().build())
    ///     }
    ///     async fn list_tools(
    ///         &self,
    ///         request: Option<PaginatedRequestParams>,
    ///         context: RequestContext<RoleServer>,
    ///     ) -> Result<ListToolsResult, ErrorData> {
    ///         self.tools.list_tools(request, context).await
    ///     }
    ///     async fn call_tool(
    ///         &self,
    ///         request: CallToolRequestParams,
    ///         context: RequestContext<RoleServer>,
    ///     ) -> Result<CallToolResponse, ErrorData> {
    ///         self.tools.call_tool(request, context).await
    ///     }
    ///     fn get_tool(&self, name: &str) -> Option<Tool> {
    ///         self.tools.get_tool(name)
    ///     }
    ///     // ... the handler's own prompts, resources, completions
    /// }
    ///
    /// let mine = Mine { tools: McpServer::new(Toolbox::new())? };
    /// assert!(mine.get_tool("weather").is_none(), "no such tool in an empty toolbox");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// An `invalid_params` error for a cursor this server did not give.
    pub async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        McpSession::new(self.clone())
            .list_tools(request, context)
            .await
    }

    /// `tools/call` for a handler of one's own (see
    /// [`list_tools`](Self::list_tools)): the call run as
    /// [`session`](Self::session)'s handler runs it, with its progress,
    /// log messages, cancellation, elicitation (or, at 2026-07-28, its
    /// answer without a request to the client), the toolbox's answer for a
    /// tool it does not have, and a `structuredContent` for every success
    /// of a tool that declares an `outputSchema`.
    ///
    /// A 2025 session's log messages are held against the server's
    /// [`log_level`](Self::log_level) (the handler answers
    /// `logging/setLevel` itself), and a progress token is checked against
    /// the running calls of this request alone.
    ///
    /// # Errors
    /// An `internal_error` for a call the toolbox did not answer, or an
    /// answer rmcp cannot carry.
    pub async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        McpSession::new(self.clone())
            .call_tool(request, context)
            .await
    }

    /// The declaration of the tool `name`, for a handler of one's own (see
    /// [`list_tools`](Self::list_tools)): rmcp reads it to check a
    /// 2026-07-28 request's `Mcp-Param-*` headers against the tool's input
    /// schema.
    #[must_use]
    pub fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    /// The resource templates of the server's resources, for a handler of
    /// one's own to list beside its own (`resources/templates/list`, see
    /// [`list_tools`](Self::list_tools)): the budget's artifacts,
    /// `artifact://{id}{?offset,length}`.
    ///
    /// A result cut to fit its budget links the whole it left out
    /// (a `resource_link` to `artifact://<id>`); `resources/read` of that
    /// URI ([`read_resource`](Self::read_resource)) gives it whole, and with
    /// a query `?offset=<bytes>&length=<bytes>` a slice of its text on
    /// character boundaries, whose `_meta` says where it starts
    /// (`offset`), where the next starts (`next`, `null` at the end) and
    /// the artifact's length (`total`). The artifacts are not listed one by
    /// one: an artifact's id is what lets a client read it, and a list
    /// would give every client every other client's.
    ///
    /// ```
    /// use toolresult::mcp::McpServer;
    /// use toolresult::toolbox::Toolbox;
    ///
    /// let server = McpServer::new(Toolbox::new())?;
    /// let templates = server.resource_templates();
    /// assert_eq!(templates[0].uri_template, "artifact://{id}{?offset,length}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn resource_templates(&self) -> Vec<ResourceTemplate> {
        artifacts::templates()
    }

    /// `resources/read` of `uri` for a handler of one's own (see
    /// [`resource_templates`](Self::resource_templates)): an artifact of
    /// the toolbox's store, read off the async threads (a store may read a
    /// disk); `None` for a URI that is not an artifact's, the handler's
    /// own to answer.
    ///
    /// # Errors
    /// `invalid_params` for an id or a query that does not read, or a slice
    /// of an artifact that is not text; `resource_not_found` (`data.uri`
    /// the URI) for an artifact the store does not keep; `internal_error`
    /// when the store fails.
    pub async fn read_resource(&self, uri: &str) -> Option<Result<ReadResourceResult, ErrorData>> {
        uri.starts_with(artifacts::SCHEME).then_some(())?;
        let store = Arc::clone(&self.toolbox.artifacts);
        let owned = uri.to_owned();
        let read = tokio::task::spawn_blocking(move || artifacts::read(&*store, &owned)).await;
        Some(match read {
            Ok(Some(read)) => read,
            Ok(None) | Err(_) => Err(ErrorData::internal_error(
                "the artifact was not read: its reader stopped",
                None,
            )),
        })
    }

    /// A handler of one's own (see [`list_tools`](Self::list_tools)) as
    /// streamable HTTP, served as [`streamable_http`](Self::streamable_http)
    /// serves this server's own handler: its sessions watched (a call whose
    /// client went away is cancelled after the
    /// [`disconnect_grace`](Self::disconnect_grace)), its `Origin` checked
    /// against the allowed hosts' when `config` lists no origin, and each
    /// call able to let go of its stream ([`close_stream`](Self::close_stream)).
    ///
    /// ```
    /// use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
    /// use toolresult::mcp::McpServer;
    /// use toolresult::toolbox::Toolbox;
    ///
    /// let server = McpServer::new(Toolbox::new())?;
    /// // A handler of one's own that hands its tools to `server`; here,
    /// // the server's own.
    /// let handler = server.session();
    /// let service = server.streamable_http_for(handler, StreamableHttpServerConfig::default());
    /// # drop(service);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn streamable_http_for<H>(
        &self,
        handler: H,
        mut config: StreamableHttpServerConfig,
    ) -> StreamableHttpService<H, impl SessionManager + use<H>>
    where
        H: ServerHandler + Clone + Send + Sync + 'static,
    {
        if config.allowed_origins.is_empty() {
            config.allowed_origins = origins_of(&config.allowed_hosts);
        }
        StreamableHttpService::new(
            move || Ok(handler.clone()),
            Arc::new(HttpSessions::new(self.disconnect_grace)),
            config,
        )
    }

    /// Closes the response stream of the request `context` answers, mid
    /// call, telling the client to resume it after `retry` (`GET` with
    /// `Last-Event-ID`): MCP's polling (SEP-1699), for a handler of one's
    /// own whose call runs long and need not hold a connection open while
    /// it does. What the call sends meanwhile, its answer too, waits for
    /// the resumed stream; a client that does not resume within the
    /// [`disconnect_grace`](Self::disconnect_grace) has its call cancelled.
    ///
    /// Whether it was closed: only a 2025 session's request served by
    /// [`streamable_http`](Self::streamable_http) or
    /// [`streamable_http_for`](Self::streamable_http_for) has a stream to
    /// close (a 2026-07-28 request's stream ends with its answer), and
    /// only once its first event went out (rmcp's `sse_retry`, on by
    /// default, sends one at once).
    pub async fn close_stream(context: &RequestContext<RoleServer>, retry: Duration) -> bool {
        match context.extensions.get::<OwnStream>() {
            Some(own) => own.close(retry).await,
            None => false,
        }
    }
}
