//! A remote call the server runs as a task (the tasks extension of
//! 2026-07-28): polled to its end, its status messages passed on,
//! cancelled on its server when the local call is.

use std::time::Duration;

use rmcp::model::{CallToolResult, CancelTaskParams, GetTaskParams, Task, TaskPayload};
use rmcp::service::{Peer, RoleClient};

use super::read;
use super::remote::RemoteTool;
use crate::Lowered;
use crate::tool::{CallContext, LogLevel};
use crate::toolbox::answers;

/// How long between two polls when the server suggests nothing, and the
/// bounds of what it may suggest.
const POLL: Duration = Duration::from_millis(500);
const FASTEST: Duration = Duration::from_millis(10);
const SLOWEST: Duration = Duration::from_secs(5);

impl RemoteTool {
    /// Polls the task `task` of a call to its end: its result read as a
    /// tool result, a failure or cancellation by the server a permanent
    /// failure; each new status message goes to the call's log (info).
    /// The local call cancelled, the task is cancelled on its server.
    pub(super) async fn run_task(&self, task: Task, cx: &CallContext<'static>) -> Lowered {
        let peer = self.connection.service.peer();
        let mut guard = CancelTask {
            peer: Some(peer.clone()),
            id: task.task_id.clone(),
        };
        let mut said = None;
        let mut interval = task.poll_interval_ms;
        tell(&mut said, task.status_message, cx);
        loop {
            let wait = interval
                .map_or(POLL, Duration::from_millis)
                .clamp(FASTEST, SLOWEST);
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                // The guard tells the server.
                () = cx.cancelled() => return answers::cancelled(),
            }
            let polled = tokio::select! {
                polled = peer.get_task(GetTaskParams::new(guard.id.clone())) => polled,
                () = cx.cancelled() => return answers::cancelled(),
            };
            let polled = match polled {
                Ok(polled) => polled.task,
                Err(err) => return read::read(&self.name, Err(err)),
            };
            interval = polled.task.poll_interval_ms;
            tell(&mut said, polled.task.status_message, cx);
            match polled.payload {
                TaskPayload::Completed { result } => {
                    guard.peer = None;
                    return match serde_json::from_value::<CallToolResult>(result.into()) {
                        Ok(result) => read::tool_result(&self.name, &result),
                        Err(_) => read::permanent(format!(
                            "the task of `{}` ended with something other than a tool result",
                            self.name
                        )),
                    };
                }
                TaskPayload::Failed { error } => {
                    guard.peer = None;
                    let code = error.get("code").and_then(serde_json::Value::as_i64);
                    return read::permanent(format!(
                        "the task of `{}` failed on the mcp server{}",
                        self.name,
                        code.map_or_else(String::new, |code| format!(": JSON-RPC error {code}"))
                    ));
                }
                TaskPayload::Cancelled => {
                    guard.peer = None;
                    return read::permanent(format!(
                        "the mcp server cancelled the task of `{}`",
                        self.name
                    ));
                }
                // Working, or waiting for input this client is not asked
                // for (its requests are answered in the call's own round).
                _ => {}
            }
        }
    }
}

/// Passes a status message on when it is new.
fn tell(said: &mut Option<String>, message: Option<String>, cx: &CallContext<'_>) {
    if let Some(message) = message
        && said.as_ref() != Some(&message)
    {
        cx.log(LogLevel::Info, &message);
        *said = Some(message);
    }
}

/// Sends `tasks/cancel` for a task whose call stopped before its end.
struct CancelTask {
    peer: Option<Peer<RoleClient>>,
    id: String,
}

impl Drop for CancelTask {
    fn drop(&mut self) {
        let Some(peer) = self.peer.take() else { return };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let id = std::mem::take(&mut self.id);
        runtime.spawn(async move {
            let _ = peer.cancel_task(CancelTaskParams::new(id)).await;
        });
    }
}
