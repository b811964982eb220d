//! `InFlight`: a `tools/call` sent and not answered yet.

use std::future::Future;
use std::pin::Pin;

use rmcp::model::{CancelledNotificationParam, JsonObject, RequestId, ServerResult};
use rmcp::service::{Peer, RoleClient, ServiceError};

use super::routes::{Following, Heard};
use crate::mcp::increasing::Increasing;
use crate::tool::CallContext;

/// The answer a request waits for.
pub(super) type Answering =
    Pin<Box<dyn Future<Output = Result<ServerResult, ServiceError>> + Send>>;

/// A `tools/call` sent and not answered yet: its answer to come, what the
/// server says about it meanwhile, and the cancellation sent if it is let
/// go before its answer.
pub(super) struct InFlight {
    pub(super) answer: Answering,
    pub(super) following: Following,
    pub(super) guard: CancelOnDrop,
    /// Progress only goes forward (a retried call's server starts over).
    pub(super) increasing: Increasing,
    /// The call's arguments, for a call sent again with its inputs.
    pub(super) arguments: JsonObject,
    /// How many times the call was sent again with its inputs.
    pub(super) round: u32,
}

impl InFlight {
    /// Passes what the server said about the call to its context: progress
    /// and logs (a question is the caller's to take first).
    pub(super) fn hear(&mut self, heard: Heard, cx: &CallContext<'_>) {
        match heard {
            Heard::Progress(report) => {
                if self.increasing.admits(report.progress) {
                    cx.progress(report.progress, report.total, report.message.as_deref());
                }
            }
            Heard::Log(level, message) => cx.log(level, &message),
            // Dropped unanswered: the server hears a refusal.
            Heard::Question(..) => {}
        }
    }
}

/// Sends `notifications/cancelled` for a request whose call stopped
/// before its answer (dropped by its timeout or its turn's cancellation,
/// or cancelled, or let go while parked).
pub(super) struct CancelOnDrop {
    pub(super) peer: Option<Peer<RoleClient>>,
    pub(super) id: RequestId,
}

impl CancelOnDrop {
    /// The request was answered: nothing to cancel.
    pub(super) fn disarm(&mut self) {
        self.peer = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(peer) = self.peer.take() else { return };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let id = self.id.clone();
        runtime.spawn(async move {
            let cancelled = CancelledNotificationParam::new(Some(id), Some("cancelled".to_owned()));
            let _ = peer.notify_cancelled(cancelled).await;
        });
    }
}
