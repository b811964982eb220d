//! The server's tools inside a user's own rmcp `ServerHandler`: the
//! handler keeps its resources, prompts and completions, and hands
//! `tools/list` and `tools/call` to the server, which answers them on the
//! path its own sessions take.

#![allow(deprecated)] // MCP's logging utility, deprecated by SEP-2577, is still the 2025 revisions'.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::McpServer;
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
}
