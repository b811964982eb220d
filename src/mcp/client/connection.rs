//! `Connection`: the running rmcp client, shared by [`McpClient`](super::McpClient)
//! and each of its [`RemoteTool`](super::RemoteTool)s.

use rmcp::ClientHandler;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, Implementation, ProtocolVersion, RequestParamsMeta,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use tokio::sync::oneshot;

use super::parked::ParkedCalls;
use super::routes::Routes;

/// The running rmcp client, where the server's words go, and the calls
/// parked on its questions.
pub(super) struct Connection {
    pub(super) service: RunningService<RoleClient, Handler>,
    pub(super) routes: Routes,
    pub(super) parked: ParkedCalls,
}

/// This crate's rmcp client handler: passes the server's questions to the
/// call they are about (progress and logs are routed as they are read:
/// see [`Tap`](super::tap::Tap)).
#[derive(Clone, Default)]
pub(super) struct Handler {
    pub(super) routes: Routes,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder()
                .enable_elicitation_with(
                    ElicitationCapability::new()
                        .with_form(Default::default())
                        .with_url(Default::default()),
                )
                .enable_tasks()
                .build(),
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
        // What `initialize` offers: the handshake's last version (a server
        // of 2026-07-28 is reached by `server/discover` instead).
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    /// The question, asked of the local caller as the pending request of
    /// the call it is about; declined when no one call is (an elicitation
    /// names no request), or when the call is let go unanswered.
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        let mut request = request;
        // rmcp hands the request's `_meta` to the context: it goes back
        // with the question, for what the server shows of its request.
        if request.meta().is_none() && !context.meta.0.is_empty() {
            request.set_meta(context.meta.clone());
        }
        let (reply, answer) = oneshot::channel();
        self.routes.ask(request, reply);
        tokio::select! {
            answered = answer => Ok(answered.unwrap_or_else(|_| ElicitResult::new(ElicitationAction::Decline))),
            () = context.ct.cancelled() => Ok(ElicitResult::new(ElicitationAction::Cancel)),
        }
    }
}
