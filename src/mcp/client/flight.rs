//! `InFlight`: a request of a call (its `tools/call`, or a task's
//! `tasks/result`) sent and not answered yet.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use rmcp::model::ClientRequest;
use rmcp::model::{
    CancelTaskParams, CancelledNotificationParam, JsonObject, RequestId, ServerResult,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient, ServiceError};

use super::connection::Connection;
use super::legacy;
use super::routes::{Following, Heard};
use super::task::CancelTask;
use crate::mcp::increasing::Increasing;
use crate::tool::CallContext;

/// The answer a request waits for.
pub(super) type Answering =
    Pin<Box<dyn Future<Output = Result<ServerResult, ServiceError>> + Send>>;

/// A request of a call sent and not answered yet: what the server says
/// about it meanwhile, and its answer to come, in the guard that cancels
/// the call if it is let go before that answer.
pub(super) struct InFlight {
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
    /// Sends `request` for a call on `connection`, followed from before it
    /// is sent (a server may ask its question before the send returns);
    /// `task` and `then` as the guard's ([`CancelOnDrop`]).
    pub(super) async fn send(
        connection: &Connection,
        request: ClientRequest,
        options: PeerRequestOptions,
        task: bool,
        then: Option<CancelTask>,
    ) -> Result<Self, ServiceError> {
        let peer = connection.service.peer();
        let mut following = connection.routes.follow_unsent();
        let handle = peer.send_cancellable_request(request, options).await?;
        following.bind(handle.progress_token.clone());
        Ok(Self {
            following,
            guard: CancelOnDrop {
                peer: Some(peer.clone()),
                id: handle.id.clone(),
                answer: Box::pin(handle.await_response()),
                task,
                then,
            },
            increasing: Increasing::default(),
            arguments: JsonObject::new(),
            round: 0,
        })
    }

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

/// Cancels a request whose call stopped before its answer (dropped by
/// its timeout or its turn's cancellation, or let go while parked).
///
/// A server that runs calls as tasks may have answered with a task
/// already, or be about to: the request is then answered, and its task
/// runs on for a caller that is gone unless cancelled with `tasks/cancel`.
/// rmcp forgets a request's answer once `notifications/cancelled` for it
/// is sent, so the answer is listened to first, for [`TASK_GRACE`]: a task
/// is cancelled, a call answered needs nothing, and a call still running
/// after the grace is cancelled with `notifications/cancelled`. A server
/// that runs no task hears `notifications/cancelled` at once.
pub(super) struct CancelOnDrop {
    pub(super) peer: Option<Peer<RoleClient>>,
    pub(super) id: RequestId,
    pub(super) answer: Answering,
    /// Sent as a task of 2025-11-25 (whose server rmcp cannot tell runs
    /// tasks).
    pub(super) task: bool,
    /// The task whose result the request waits for, cancelled with it.
    pub(super) then: Option<CancelTask>,
}

/// How long a let-go call of a server that runs tasks is listened to for
/// a task: a server answers with a task as soon as it has one.
const TASK_GRACE: Duration = Duration::from_secs(2);

impl CancelOnDrop {
    /// The request was answered: nothing to cancel.
    pub(super) fn disarm(&mut self) {
        self.peer = None;
        if let Some(task) = &mut self.then {
            task.disarm();
        }
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(peer) = self.peer.take() else { return };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let id = self.id.clone();
        let mut answer = std::mem::replace(&mut self.answer, Box::pin(std::future::pending()));
        let legacy_task = self.task;
        let tasks = legacy_task
            || peer
                .peer_info()
                .is_some_and(|info| info.capabilities.supports_tasks());
        runtime.spawn(async move {
            if tasks {
                match tokio::time::timeout(TASK_GRACE, &mut answer).await {
                    Ok(Ok(ServerResult::CreateTaskResult(created))) => {
                        let task = CancelTaskParams::new(created.task.task_id);
                        let _ = peer.cancel_task(task).await;
                        return;
                    }
                    Ok(Ok(answered)) if legacy_task => {
                        if let Some(task) = legacy::created(&answered) {
                            legacy::cancel(&peer, task.task_id).await;
                        }
                        return;
                    }
                    // Answered (or the connection gone): nothing runs on.
                    Ok(_) => return,
                    Err(_still_running) => {}
                }
            }
            let cancelled = CancelledNotificationParam::new(Some(id), Some("cancelled".to_owned()));
            let _ = peer.notify_cancelled(cancelled).await;
        });
    }
}
