//! A remote call the server runs as a task (the tasks extension of
//! 2026-07-28, or the experimental tasks of 2025-11-25): polled to its
//! end, its status messages passed on, cancelled on its server when the
//! local call is.

use std::time::Duration;

use std::collections::HashSet;

use rmcp::model::{
    CallToolResult, CancelTaskParams, GetTaskParams, Task, TaskPayload, UpdateTaskParams,
};
use rmcp::service::{Peer, RoleClient};

use super::legacy;
use super::parked::{Parked, TaskRound};
use super::question;
use super::read;
use super::remote::RemoteTool;
use crate::canonical::Answer;
use crate::tool::{CallContext, LogLevel};
use crate::toolbox::answers;
use crate::{IntoToolResult, Lowered, ToolResult};

/// A task being polled: its cancellation on drop, the interval its
/// server suggests, the last status message passed on, the input
/// requests already answered (a server's keys are unique over a task's
/// life, and its status may lag the answers).
pub(super) struct Polling {
    guard: CancelTask,
    interval: Option<u64>,
    said: Option<String>,
    answered: HashSet<String>,
}

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
    /// `legacy`: a task of 2025-11-25, spoken to in that dialect.
    pub(super) async fn run_task(
        &self,
        task: Task,
        legacy: bool,
        cx: &CallContext<'static>,
    ) -> Lowered {
        let mut polling = Polling {
            guard: CancelTask {
                peer: Some(self.connection.service.peer().clone()),
                id: task.task_id.clone(),
                legacy,
            },
            interval: task.poll_interval_ms,
            said: None,
            answered: HashSet::new(),
        };
        tell(&mut polling.said, task.status_message, cx);
        self.poll(polling, cx).await
    }

    /// The answer to the question a task asked now, then its next
    /// question, or the responses sent and the task polled on.
    pub(super) async fn answer_task_input(
        &self,
        mut round: TaskRound,
        answer: &Answer,
        cx: &CallContext<'static>,
    ) -> Lowered {
        if let Some((key, form)) = round.current.take()
            && let Ok(reply) = serde_json::to_value(question::reply(answer, form))
        {
            round.responses.insert(key, reply);
        }
        self.next_task_input(round, cx).await
    }

    async fn next_task_input(&self, mut round: TaskRound, cx: &CallContext<'static>) -> Lowered {
        if let Some((key, params)) = round.asks.pop_front() {
            let id = format!("mcp-question-{}", self.connection.routes.next_id());
            let asked = question::request(id.clone(), &params);
            round.current = Some((key, question::is_form(&params)));
            self.connection
                .parked
                .park(id, self.name.clone(), Parked::TaskInput(round));
            return ToolResult::<()>::pending(asked).lower();
        }
        let mut polling = round.polling;
        if !round.responses.is_empty() {
            polling.answered.extend(round.responses.keys().cloned());
            let update = UpdateTaskParams::new(polling.guard.id.clone(), round.responses);
            let peer = self.connection.service.peer();
            if let Err(err) = peer.update_task(update).await {
                return read::read(&self.name, Err(err));
            }
        }
        Box::pin(self.poll(polling, cx)).await
    }

    /// Polls the task to its end, or to a question for the caller.
    async fn poll(&self, mut polling: Polling, cx: &CallContext<'static>) -> Lowered {
        let peer = self.connection.service.peer().clone();
        loop {
            let wait = polling
                .interval
                .map_or(POLL, Duration::from_millis)
                .clamp(FASTEST, SLOWEST);
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                // The guard tells the server.
                () = cx.cancelled() => return answers::cancelled(),
            }
            let id = polling.guard.id.clone();
            let polled = async {
                if polling.guard.legacy {
                    legacy::get(&peer, &id).await
                } else {
                    Ok(peer.get_task(GetTaskParams::new(id.clone())).await?.task)
                }
            };
            let polled = tokio::select! {
                polled = polled => polled,
                () = cx.cancelled() => return answers::cancelled(),
            };
            let polled = match polled {
                Ok(polled) => polled,
                Err(err) => return read::read(&self.name, Err(err)),
            };
            // None suggested now, the last suggestion holds (rmcp drops
            // the `pollInterval` of some answers of 2025-11-25).
            polling.interval = polled.task.poll_interval_ms.or(polling.interval);
            tell(&mut polling.said, polled.task.status_message, cx);
            match polled.payload {
                TaskPayload::Completed { result } => {
                    polling.guard.disarm();
                    return match serde_json::from_value::<CallToolResult>(result.into()) {
                        Ok(result) => read::tool_result(&self.name, &result),
                        Err(_) => read::permanent(format!(
                            "the task of `{}` ended with something other than a tool result",
                            self.name
                        )),
                    };
                }
                TaskPayload::Failed { error } => {
                    polling.guard.disarm();
                    let code = error.get("code").and_then(serde_json::Value::as_i64);
                    return read::permanent(format!(
                        "the task of `{}` failed on the mcp server{}",
                        self.name,
                        code.map_or_else(String::new, |code| format!(": JSON-RPC error {code}"))
                    ));
                }
                TaskPayload::Cancelled => {
                    polling.guard.disarm();
                    return read::permanent(format!(
                        "the mcp server cancelled the task of `{}`",
                        self.name
                    ));
                }
                TaskPayload::InputRequired { .. } if polling.guard.legacy => {
                    return Box::pin(self.task_result(polling.guard, cx)).await;
                }
                TaskPayload::InputRequired { input_requests } => {
                    let (mut asks, mut responses) = question::asks_of(input_requests);
                    asks.retain(|(key, _)| !polling.answered.contains(key));
                    responses.retain(|key, _| !polling.answered.contains(key));
                    if !asks.is_empty() || !responses.is_empty() {
                        let round = TaskRound {
                            polling,
                            asks,
                            current: None,
                            responses,
                        };
                        return Box::pin(self.next_task_input(round, cx)).await;
                    }
                }
                // Working, or waiting for answers already sent.
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
pub(super) struct CancelTask {
    peer: Option<Peer<RoleClient>>,
    id: String,
    legacy: bool,
}

impl CancelTask {
    pub(super) fn id(&self) -> &str {
        &self.id
    }

    /// The task ended: nothing to cancel.
    pub(super) fn disarm(&mut self) {
        self.peer = None;
    }
}

impl Drop for CancelTask {
    fn drop(&mut self) {
        let Some(peer) = self.peer.take() else { return };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let id = std::mem::take(&mut self.id);
        let legacy = self.legacy;
        runtime.spawn(async move {
            if legacy {
                legacy::cancel(&peer, id).await;
            } else {
                let _ = peer.cancel_task(CancelTaskParams::new(id)).await;
            }
        });
    }
}
