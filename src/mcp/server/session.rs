//! `McpSession`: the rmcp handler of one client's session.

#![allow(deprecated)] // MCP's logging utility, deprecated by SEP-2577, is still the 2025 revisions'.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ListToolsResult,
    PaginatedRequestParams, ServerConfig, SetLevelRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::McpServer;
use super::call::{self, CallScope};
use super::elicit::{Elicit, Modes};
use super::events::{Events, forwarding};
use super::level::{SessionLevel, from_rmcp};
use super::list;
use super::params;
use super::progress_tokens::ActiveTokens;
use crate::provider::mcp::to_rmcp;

/// The handler of one client's session ([`McpServer::session`]): the
/// server's tools, and the logging level this client set. rmcp serves it
/// over any transport (`rmcp::ServiceExt::serve`).
#[derive(Clone)]
pub(crate) struct McpSession {
    server: McpServer,
    level: SessionLevel,
    tokens: ActiveTokens,
}

impl McpSession {
    pub(super) fn new(server: McpServer) -> Self {
        let level = SessionLevel::new(server.log_level);
        Self {
            server,
            level,
            tokens: ActiveTokens::default(),
        }
    }

    /// Whether the tool `name` declares an `outputSchema`.
    fn declares_output(&self, name: &str) -> bool {
        self.server
            .tools
            .iter()
            .any(|tool| tool.name == name && tool.output_schema.is_some())
    }
}

impl std::fmt::Debug for McpSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpSession")
            .field("level", &self.level)
            .finish_non_exhaustive()
    }
}

impl ServerHandler for McpSession {
    fn get_info(&self) -> ServerConfig {
        (*self.server.config).clone()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cursor = request.as_ref().and_then(|params| params.cursor.as_deref());
        list::page(&self.server.tools, cursor, self.server.page_size)
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        self.server
            .tools
            .iter()
            .find(|tool| tool.name == name)
            .cloned()
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.level.set(from_rmcp(&request.level));
        Ok(())
    }

    /// A request rmcp read as no MCP method: for one this server serves,
    /// its params did not fit (`invalid_params`, saying what), where rmcp
    /// alone would answer that the method is not found.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(params::refused(&request))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A tool the server does not have is the toolbox's to answer, as
        // in any turn: an error result naming the tools there are.
        let name = &*request.name;
        // A token a running call of the session already holds gets no
        // progress: its notifications stay that call's.
        let claim = context
            .meta
            .get_progress_token()
            .and_then(|token| self.tokens.claim(token));
        let token = claim.as_ref().map(|claim| claim.token().clone());
        let events = Events::new(token.is_some(), self.level.clone());
        let modes = Modes::of(context.client_capabilities().as_ref());
        let scope = CallScope {
            cancellation: context.ct.clone(),
            observer: events.observer(),
            peer: context.peer.clone(),
            driver: Elicit::new(context.peer.clone(), modes, self.server.elicitation_timeout),
        };
        let running = call::run(
            &self.server.toolbox,
            &context.id,
            name,
            request.arguments,
            scope,
        );
        let lowered = forwarding(running, &events, &context.peer, token)
            .await
            .ok_or_else(|| ErrorData::internal_error("the call was not answered", None))?;
        drop(claim);
        // A tool that declares an `outputSchema` promised a
        // `structuredContent` with every success, whatever its lowered
        // result says (a tool served from another server, say): MCP's rule
        // for a success without one is the core's.
        let withheld = lowered.structured_content_withheld() || self.declares_output(name);
        let answer = to_rmcp(&lowered.result, lowered.structured_content(), withheld)?;
        Ok(answer.into())
    }
}
