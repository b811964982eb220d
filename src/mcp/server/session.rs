//! `McpSession`: the rmcp handler of one client's session (2025), or of
//! requests that each stand alone (2026-07-28).

#![allow(deprecated)] // MCP's logging utility, deprecated by SEP-2577, is still the 2025 revisions'.

use std::time::SystemTime;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CustomRequest, CustomResult,
    GetTaskParams, GetTaskResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerConfig, SetLevelRequestParams, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use super::McpServer;
use super::call::{self, CallScope};
use super::elicit::{self, Elicit, Modes};
use super::events::{Events, forwarding};
use super::input_required::{self, Parked};
use super::level::SessionLevel;
use super::list;
use super::params;
use super::progress_tokens::ActiveTokens;
use super::stateless;
use super::tasks;
use crate::mcp::log_level::from_rmcp;
use crate::provider::Call;
use crate::provider::mcp::to_rmcp;
use crate::tool::Arguments;
use crate::toolbox::Toolbox;

/// The handler of one client's session ([`McpServer::session`]): the
/// server's tools, and the logging level this client set. rmcp serves it
/// over any transport (`rmcp::ServiceExt::serve`). A 2026-07-28 request
/// reads nothing of the session and leaves nothing in it: its level and
/// the client's capabilities are its `_meta`'s.
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
        self.server.get_tool(name)
    }

    /// No resource by itself: the budget's artifacts are read through
    /// their template ([`McpServer::resource_templates`]).
    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(Vec::new()))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            self.server.resource_templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match self.server.read_resource(&request.uri).await {
            Some(read) => Ok(read?.into()),
            None => Err(ErrorData::resource_not_found(
                format!("no resource {}", request.uri),
                Some(serde_json::json!({"uri": request.uri})),
            )),
        }
    }

    /// A 2025 session's level; at 2026-07-28, which removed the method
    /// (a request sets its own level in its `_meta`), `method_not_found`.
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if stateless::is_stateless(&context) {
            return Err(params::not_found("logging/setLevel"));
        }
        self.level.set(from_rmcp(&request.level));
        Ok(())
    }

    /// A request rmcp read as no MCP method: for one this server serves,
    /// its params did not fit (`invalid_params`, saying what), where rmcp
    /// alone would answer that the method is not found.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(params::refused(&request, stateless::is_stateless(&context)))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.server.get_task(request, context).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.server.update_task(request, context).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.server.cancel_task(request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Boxed: rmcp moves the handler's future whole into each task it
        // spawns for a request, and a call's state machine is large.
        Box::pin(self.answer_call(request, context)).await
    }
}

impl McpSession {
    /// `tools/call`: the call run as a turn of one call, its answer (or,
    /// at 2026-07-28, its input-required result) for rmcp.
    async fn answer_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(task) = tasks::start(&self.server, &request, &context).await? {
            return Ok(task);
        }
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
        // At 2026-07-28 the request alone says what its client takes: no
        // log message without its `logLevel`, no capability it did not
        // declare, and nothing asked back (the protocol has no
        // server-to-client request).
        let alone = stateless::is_stateless(&context);
        let (level, capabilities) = if alone {
            let capabilities = context.meta.client_capabilities();
            (stateless::log_level(&context), capabilities)
        } else {
            (Some(self.level.clone()), context.client_capabilities())
        };
        let events = Events::new(token.is_some(), level);
        let modes = Modes::of(capabilities.as_ref());
        let asked = if alone { Modes::default() } else { modes };
        // A 2026-07-28 call sent with `inputResponses` and no state runs
        // afresh, each request it parks on answered by its response when
        // there is one (the client answers what it would be asked).
        let up_front = match (&self.server.states, &request.request_state) {
            (Some(_), None) if alone => request.input_responses.clone(),
            _ => None,
        };
        let scope = CallScope {
            cancellation: context.ct.clone(),
            observer: events.observer(),
            peer: context.peer.clone(),
            driver: Elicit::new(context.peer.clone(), asked, self.server.elicitation_timeout)
                .with_responses(up_front),
        };
        let arguments = request.arguments.unwrap_or_default();
        // A call sent again with its sealed state resumes where it parked,
        // under its first round's call id; without a response to its
        // request it runs afresh, and is asked again.
        let resumed = match (&self.server.states, request.request_state.as_deref()) {
            (Some(states), Some(token)) if alone => {
                let responses = request.input_responses.as_ref();
                states
                    .open(token, name, &arguments, responses, SystemTime::now())
                    .map_err(|refused| {
                        ErrorData::invalid_params(format!("requestState refused: {refused}"), None)
                    })?
            }
            _ => None,
        };
        let (call, answer, attempt) = match resumed {
            Some((parked, response)) => {
                let answer = input_required::answer(&parked.request, response)
                    .map_err(|refused| ErrorData::invalid_params(refused, None))?;
                let call = Call::new(
                    parked.call,
                    name,
                    Arguments::Json(Value::Object(arguments.clone())),
                );
                (call, Some(answer), parked.attempt.saturating_add(1))
            }
            None => (
                call::new_call(&context.id, name, arguments.clone()),
                None,
                1,
            ),
        };
        let call_id = call.id.clone();
        let running = call::run(&self.server.toolbox, call, answer, scope);
        let lowered = forwarding(running, &events, &context.peer, token)
            .await
            .ok_or_else(|| ErrorData::internal_error("the call was not answered", None))?;
        drop(claim);
        tasks::note(&context, &lowered);
        // A tool that declares an `outputSchema` promised a
        // `structuredContent` with every success, whatever its lowered
        // result says (a tool served from another server, say): MCP's rule
        // for a success without one is the core's.
        let withheld = lowered.structured_content_withheld() || self.declares_output(name);
        let answer = to_rmcp(&lowered.result, lowered.structured_content(), withheld)?;
        if alone && let Some(request) = lowered.result.pending_request() {
            // A call parks again at most as often as one turn resumes it:
            // past that, its pending result ends the rounds.
            let state = match &self.server.states {
                Some(states) if attempt <= Toolbox::MAX_RESUMES => {
                    let parked = Parked {
                        call: call_id,
                        tool: name.to_owned(),
                        arguments,
                        attempt,
                        request: request.id.clone(),
                    };
                    let sealed = states.seal(&parked, SystemTime::now()).map_err(|error| {
                        ErrorData::internal_error(
                            format!("the call's state was not sealed: {error}"),
                            None,
                        )
                    })?;
                    Some(sealed)
                }
                _ => None,
            };
            return Ok(elicit::parked_alone(&request, modes, answer, state));
        }
        Ok(answer.into())
    }
}
