//! `Connection`: the running rmcp client, shared by [`McpClient`](super::McpClient)
//! and each of its [`RemoteTool`](super::RemoteTool)s.

use rmcp::ClientHandler;
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, ProgressNotificationParam};
use rmcp::service::{NotificationContext, RoleClient, RunningService};

use super::progress::ProgressRouter;

/// The running rmcp client, and where the server's progress goes.
pub(super) struct Connection {
    pub(super) service: RunningService<RoleClient, Handler>,
    pub(super) progress: ProgressRouter,
}

/// This crate's rmcp client handler: passes the server's progress to the
/// call it is about.
#[derive(Clone, Default)]
pub(super) struct Handler {
    progress: ProgressRouter,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.progress.deliver(params);
    }
}

impl Handler {
    /// Where the server's progress goes.
    pub(super) fn progress(&self) -> ProgressRouter {
        self.progress.clone()
    }
}
