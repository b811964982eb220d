//! `McpServer`: a toolbox, served over MCP.

#![allow(deprecated)] // MCP's logging capability, deprecated by SEP-2577, is still the 2025 revisions'.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{Implementation, ServerCapabilities, ServerConfig, Tool as McpTool};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt};

use super::error::McpServerError;
use super::input_required::States;
use super::session::McpSession;
use super::tasks::{self, Tasks};
use crate::provider::{Mcp, Provider};
use crate::seal::Keyring;
use crate::tool::LogLevel;
use crate::toolbox::Toolbox;

/// A [`Toolbox`] served over MCP with rmcp (feature `mcp-server`): its tools
/// listed and called by any MCP client, over stdio or streamable HTTP.
///
/// Two protocol revisions are served side by side, each to its schema: a
/// 2025-11-25 client opens a session (`initialize`), sets its level
/// (`logging/setLevel`) and may be asked back; a 2026-07-28 request
/// carries everything in its `_meta` and is answered alone, the methods
/// that revision removed (`initialize`, `ping`, `logging/setLevel`)
/// answered `method_not_found`.
///
/// - `tools/list` gives each tool's declaration ([`Mcp::declare`]: its
///   schemas, `outputSchema` when the success is an object, annotations
///   from its [`ToolSafety`](crate::tool::ToolSafety)), a page at a time
///   ([`page_size`](Self::page_size)).
/// - `tools/call` runs the call as a turn of one call, by the same rules as
///   [`Toolbox::run`]: its timeout, retries by the policy and the tool's
///   safety, output budget, a panic caught; the answer is the bytes
///   [`Mcp::render`] writes for the same outcome. A call of a tool the
///   server does not have, or with arguments that do not fit the tool's
///   schema, is the toolbox's error result, which the model can act on. A request of `tools/call`,
///   `tools/list`, `logging/setLevel`, `initialize` or `ping` whose params
///   MCP does not allow (`arguments` that are not an object, a level MCP
///   does not name) is an `invalid_params` error saying what did not fit.
/// - The call's context ([`CallContext`](crate::tool::CallContext)) is
///   cancelled when the client cancels the request
///   (`notifications/cancelled`) or goes away (over streamable HTTP, once the
///   [`disconnect_grace`](Self::disconnect_grace) passed); its progress goes to the
///   client as `notifications/progress` when the request carries a
///   `_meta.progressToken` (strictly increasing: a report that does not go
///   past the last one sent is dropped; a token that a running call of the
///   session already holds, which MCP forbids, gets no progress, so each
///   token's notifications stay one call's); its log messages go as
///   `notifications/message` at or above the level the client set with
///   `logging/setLevel` ([`log_level`](Self::log_level) until it sets one),
///   or at 2026-07-28 the request's `_meta` `io.modelcontextprotocol/logLevel`
///   (none without it). Every notification of a call goes out before its
///   answer, on the request's own stream.
/// - A call that parks on a [`Request`](crate::canonical::Request) asks a
///   client that declared the elicitation capability
///   (`elicitation/create`, see [`mcp`](crate::mcp)), and runs again with its
///   answer; a client without the capability, or one that does not answer
///   within the [`elicitation_timeout`](Self::elicitation_timeout), gets
///   the pending result. A 2026-07-28 request is never asked back (that
///   revision has no request from server to client): its call is answered
///   with an input-required result ([`input_required`](Self::input_required)),
///   or without a key with the pending result.
/// - A result cut to fit its budget links the whole it left out
///   (`resource_link`, `artifact://<id>`), which the client reads as a
///   resource, whole or in slices, without a tool call
///   ([`resource_templates`](Self::resource_templates)).
/// - A call of a tool that runs as a task ([`TaskSupport`](crate::tool::TaskSupport))
///   is answered at once with its task, read with `tasks/get`, answered
///   with `tasks/update` (a request at a time, or all at once), cancelled
///   with `tasks/cancel`; a 2025 session that declared the extension is
///   told of each new status (`notifications/tasks`) ([`tasks`](Self::tasks)).
/// - A tool that declares an `outputSchema` (its success type is an
///   object) answers every success with a conforming `structuredContent`,
///   as MCP requires; a success its budget could only cut past the schema
///   goes as an error result whose text says so.
/// - The client's peer (`rmcp::Peer<rmcp::RoleServer>`) is attached to
///   each call's context ([`CallContext::get`](crate::tool::CallContext::get)),
///   for a tool that asks the client something of its own; over a
///   2026-07-28 request, every request through it fails.
///
/// ```
/// use toolresult::mcp::McpServer;
/// use toolresult::tool::{self, ToolSafety};
/// use toolresult::toolbox::Toolbox;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct City { city: String }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register(
///     tool::function("weather", "Weather in a city", |c: City| format!("sunny in {}", c.city))?
///         .with_safety(ToolSafety::ReadOnly),
/// )?;
/// let server = McpServer::new(toolbox)?.with_info("weather", "1.0.0");
/// // `server.serve_stdio().await` serves it on stdin and stdout;
/// // `server.streamable_http(Default::default())` is a tower service to
/// // mount at `/mcp` in any HTTP server.
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
#[must_use]
pub struct McpServer {
    pub(super) toolbox: Arc<Toolbox>,
    pub(super) tools: Arc<[McpTool]>,
    pub(super) config: Arc<ServerConfig>,
    pub(super) page_size: usize,
    pub(super) log_level: LogLevel,
    pub(super) disconnect_grace: Duration,
    pub(super) elicitation_timeout: Duration,
    pub(super) states: Option<Arc<States>>,
    pub(super) tasks: Tasks,
}

impl McpServer {
    /// The key of a [`Request`](crate::canonical::Request)'s `data` whose
    /// value, a JSON object, is the `requestedSchema` of the elicitation
    /// asking for it (MCP's restricted schema: an object of flat
    /// properties).
    pub const REQUESTED_SCHEMA: &'static str = super::elicit::REQUESTED_SCHEMA;
    /// The [`Answer::reason`](crate::canonical::Answer::reason) of a request
    /// the user declined.
    pub const DECLINED: &'static str = super::elicit::DECLINED;
    /// The [`Answer::reason`](crate::canonical::Answer::reason) of a request
    /// the user dismissed without choosing.
    pub const CANCELLED: &'static str = super::elicit::CANCELLED;
    /// The key of an elicitation's `_meta` where the server shows what the
    /// request asked for holds beyond its prompt, URL and form: `{"kind",
    /// "data"}`, its data without its seal or `requestedSchema` (an
    /// approval's `tool`, `arguments` and `reason`); the crate's client
    /// makes them its local request's kind and data.
    pub const REQUEST_META: &'static str = crate::mcp::REQUEST_META;

    /// The default number of tools in a page of `tools/list`.
    pub const DEFAULT_PAGE_SIZE: usize = 100;

    /// How long, by default, a call over streamable HTTP whose client went
    /// away runs on, waiting for the client to resume its stream
    /// ([`disconnect_grace`](Self::disconnect_grace)).
    pub const DEFAULT_DISCONNECT_GRACE: Duration = Duration::from_secs(10);

    /// How long, by default, a parked call waits for its client to answer
    /// an `elicitation/create` ([`elicitation_timeout`](Self::elicitation_timeout)).
    pub const DEFAULT_ELICITATION_TIMEOUT: Duration = Duration::from_secs(600);

    /// A server of `toolbox`'s tools, named after this crate until
    /// [`with_info`](Self::with_info) names it; log messages from
    /// [`LogLevel::Info`] up until the client sets a level.
    ///
    /// # Errors
    /// A tool's declaration is not one rmcp takes (a schema that is not a
    /// JSON object).
    pub fn new(toolbox: impl Into<Arc<Toolbox>>) -> Result<Self, McpServerError> {
        let toolbox = toolbox.into();
        let tools = toolbox
            .tools()
            .into_iter()
            .map(|tool| {
                McpTool::try_from(Mcp::declare(tool)).map_err(|source| {
                    McpServerError::Declaration {
                        tool: tool.name().to_owned(),
                        source,
                    }
                })
            })
            .collect::<Result<Arc<[McpTool]>, _>>()?;
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .enable_resources()
            .build();
        let capabilities = tasks::advertised(&toolbox, capabilities);
        let config = ServerConfig::new(capabilities).with_server_info(Implementation::new(
            env!("CARGO_PKG_NAME"),
            env!("CARGO_PKG_VERSION"),
        ));
        Ok(Self {
            toolbox,
            tools,
            config: Arc::new(config),
            page_size: Self::DEFAULT_PAGE_SIZE,
            log_level: LogLevel::Info,
            disconnect_grace: Self::DEFAULT_DISCONNECT_GRACE,
            elicitation_timeout: Self::DEFAULT_ELICITATION_TIMEOUT,
            states: None,
            tasks: Tasks::in_memory(),
        })
    }

    /// The same server, named `name` at `version` in its `initialize`
    /// answer.
    pub fn with_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        let config = Arc::make_mut(&mut self.config);
        config.server_info = Implementation::new(name, version);
        self
    }

    /// The same server, with `instructions` for the client in its
    /// `initialize` answer.
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.config).instructions = Some(instructions.into());
        self
    }

    /// The same server, listing at most `size` tools a page (0 reads as 1).
    pub fn page_size(mut self, size: usize) -> Self {
        self.page_size = size.max(1);
        self
    }

    /// The same server, sending log messages at `level` and above to a
    /// 2025 client that has not set a level (a 2026-07-28 request sets its
    /// own, or gets none).
    pub fn log_level(mut self, level: LogLevel) -> Self {
        self.log_level = level;
        self
    }

    /// The same server, cancelling a call over streamable HTTP whose
    /// client dropped its response stream (a connection cut, a process
    /// gone) and did not resume it (`GET` with `Last-Event-ID`) within
    /// `grace`. MCP asks a server not to read a disconnection alone as a
    /// cancellation, as the client may resume: `grace` is that chance. A
    /// 2025 session's calls only: a 2026-07-28 request has no stream to
    /// resume, and its call is cancelled when its client goes.
    pub fn disconnect_grace(mut self, grace: Duration) -> Self {
        self.disconnect_grace = grace;
        self
    }

    /// The same server, waiting at most `limit` for a client to answer an
    /// `elicitation/create` (a person may take minutes; a client that
    /// never answers must not hold the call for ever, as MCP asks of every
    /// request a server sends). Past it, the request is cancelled
    /// (`notifications/cancelled` to the client) and the call is answered
    /// with its pending result, as for a client that cannot be asked.
    pub fn elicitation_timeout(mut self, limit: Duration) -> Self {
        self.elicitation_timeout = limit;
        self
    }

    /// The same server, answering a 2026-07-28 call that parks on a
    /// [`Request`](crate::canonical::Request) with an input-required
    /// result (SEP-2322) whose `requestState` is sealed by `keyring` and
    /// valid for `ttl`: the request is its one input request, keyed by the
    /// request's id (a form elicitation, or URL mode for a request with a
    /// URL, in a mode the request's client capabilities take). The state
    /// holds the call's id, tool, arguments, round and request id, bound to
    /// the tool and the arguments (opened once, its request's response
    /// then read by id); nothing is kept in memory between the rounds.
    ///
    /// When the client sends the call again, with the same name and
    /// arguments, its `inputResponses` and the `requestState`, any server
    /// given the same keyring opens the state and resumes the call with the
    /// response to its request as the [`Answer`](crate::canonical::Answer)
    /// (accept: granted with the content as its data; decline or cancel:
    /// declined, with [`DECLINED`](Self::DECLINED) or
    /// [`CANCELLED`](Self::CANCELLED)). A state tampered with, expired, or
    /// sealed for another call is refused with an `invalid_params` error
    /// saying which; a call sent again without a response to its request is
    /// asked again; other responses are ignored. A call sent with
    /// `inputResponses` and no state runs afresh, each request it parks on
    /// answered by its response when it has one (nothing a client could not
    /// answer when asked). A call that parks again
    /// after [`Toolbox::MAX_RESUMES`] rounds is answered with its pending
    /// result, as a turn answers it. Without a keyring, a
    /// 2026-07-28 parked call is answered with its pending result.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolresult::mcp::McpServer;
    /// use toolresult::seal::Keyring;
    /// use toolresult::toolbox::Toolbox;
    ///
    /// // Every replica gets the same key, from a secret store.
    /// let keyring = Keyring::new(b"a key of 32 bytes or more, from a secret")?;
    /// let server = McpServer::new(Toolbox::new())?
    ///     .input_required(keyring, Duration::from_secs(15 * 60));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn input_required(mut self, keyring: Keyring, ttl: Duration) -> Self {
        self.states = Some(Arc::new(States::new(keyring, ttl)));
        self
    }

    /// The toolbox served.
    #[must_use]
    pub fn toolbox(&self) -> &Arc<Toolbox> {
        &self.toolbox
    }

    /// The handler of one client's session, for rmcp to serve over any
    /// transport (`rmcp::ServiceExt::serve`): each session keeps its own
    /// logging level and progress tokens.
    ///
    /// ```
    /// use rmcp::ServiceExt;
    /// use toolresult::mcp::McpServer;
    /// use toolresult::toolbox::Toolbox;
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
    /// let server = McpServer::new(Toolbox::new())?;
    /// let (ours, theirs) = tokio::io::duplex(4096);
    /// // Served over one end of an in-memory pipe, until a client on the
    /// // other end (`theirs`) says hello.
    /// let serving = tokio::spawn(server.session().serve(ours));
    /// drop(theirs);
    /// assert!(serving.await?.is_err(), "no client to greet");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn session(&self) -> impl ServerHandler + Clone + use<> {
        McpSession::new(self.clone())
    }

    /// Serves one session on this process's stdin and stdout, until the
    /// client closes it. A message longer than rmcp's line limit is
    /// dropped unread and unanswered, and the session goes on; over
    /// [`streamable_http`](Self::streamable_http) a body past rmcp's body
    /// limit is answered `413`.
    ///
    /// # Errors
    /// The session did not start, or its task stopped in a panic.
    pub async fn serve_stdio(&self) -> Result<(), McpServerError> {
        let running = self
            .session()
            .serve(rmcp::transport::stdio())
            .await
            .map_err(Box::new)?;
        running.waiting().await?;
        Ok(())
    }

    /// The server as rmcp's streamable HTTP service, a `tower` service to
    /// mount at the MCP endpoint (`/mcp`) of any HTTP server (hyper, axum).
    ///
    /// - A 2025 client gets a session, kept in memory (rmcp's in-memory
    ///   sessions, watched: a call whose client went away is cancelled
    ///   after the [`disconnect_grace`](Self::disconnect_grace)).
    /// - A 2026-07-28 request (its protocol version in its `_meta`) is
    ///   answered alone, by a handler made for it and dropped after its
    ///   answer: nothing of it is kept, and a client gone cancels its call
    ///   at once (that protocol has no stream to resume).
    /// - Requests are checked before any handler sees them (rmcp's checks,
    ///   all on): the `Host` header against `config.allowed_hosts`
    ///   (loopback by default) and the `Origin` header against
    ///   `config.allowed_origins`, both answered `403` when not allowed,
    ///   against DNS rebinding; when `allowed_origins` is empty while
    ///   hosts are checked, the allowed origins are those hosts' (`http`
    ///   and `https`, any port), so a page of another site cannot call a
    ///   local server. To take any `Origin`, list the origins, or take any
    ///   host ([`disable_allowed_hosts`](StreamableHttpServerConfig::disable_allowed_hosts)).
    ///   The headers of 2026-07-28 (`Mcp-Method`, `Mcp-Name`, and a tool's
    ///   `Mcp-Param-*` for each argument its input schema marks with
    ///   `x-mcp-header`) must agree with the body (else `400`); a body
    ///   past `config.max_request_body_bytes` is answered `413`.
    ///
    /// The session's and the session manager's types are not named by
    /// this crate; keep the service as `impl tower::Service` or let
    /// inference name it.
    pub fn streamable_http(
        &self,
        config: StreamableHttpServerConfig,
    ) -> StreamableHttpService<impl ServerHandler + use<>, impl SessionManager + use<>> {
        self.streamable_http_for(self.session(), config)
    }
}

/// The origins of pages served by `hosts` (rmcp's `allowed_hosts`
/// entries: a name, an address, either with a port): `http` and `https`,
/// on the entry's port or any.
pub(super) fn origins_of(hosts: &[String]) -> Vec<String> {
    let mut origins = Vec::with_capacity(hosts.len() * 2);
    for host in hosts {
        let host = host.trim();
        // A bare IPv6 address is bracketed in an origin; one with a port
        // already is (`[::1]:8080`).
        let authority = if host.starts_with('[') {
            if host.ends_with(']') {
                format!("{host}:*")
            } else {
                host.to_owned()
            }
        } else if host.matches(':').count() > 1 {
            format!("[{host}]:*")
        } else if host.contains(':') {
            host.to_owned()
        } else {
            format!("{host}:*")
        };
        for scheme in ["http", "https"] {
            origins.push(format!("{scheme}://{authority}"));
        }
    }
    origins
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("tools", &self.tools.len())
            .field("page_size", &self.page_size)
            .field("log_level", &self.log_level)
            .field("disconnect_grace", &self.disconnect_grace)
            .field("elicitation_timeout", &self.elicitation_timeout)
            .field("input_required", &self.states.is_some())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::origins_of;

    #[test]
    fn the_origins_of_the_loopback_hosts() {
        let hosts = [
            "localhost",
            "127.0.0.1",
            "::1",
            "[::1]:8080",
            "example.com:443",
        ]
        .map(str::to_owned);
        assert_eq!(
            origins_of(&hosts),
            [
                "http://localhost:*",
                "https://localhost:*",
                "http://127.0.0.1:*",
                "https://127.0.0.1:*",
                "http://[::1]:*",
                "https://[::1]:*",
                "http://[::1]:8080",
                "https://[::1]:8080",
                "http://example.com:443",
                "https://example.com:443",
            ]
        );
        assert!(
            origins_of(&[]).is_empty(),
            "no host checked, no origin checked"
        );
    }
}
