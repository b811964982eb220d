//! The experimental tasks of MCP 2025-11-25 (SEP-1686), which rmcp does
//! not model: a `tools/call` with a `task` parameter, answered with the
//! task; `tasks/get` for its status, `tasks/result` for its result once
//! it ended, `tasks/cancel`. Sent as custom requests, their answers read
//! from JSON, and handed to the one poller as the tasks extension's types.
//! A task waiting for input asks its questions (`elicitation/create`)
//! while `tasks/result` is pending, as a call in flight does.

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, ContentBlock, CustomRequest,
    DetailedTask, InputRequests, JsonObject, ServerResult, Task, TaskPayload, TaskStatus,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient, ServiceError};
use serde_json::{Value, json};

use super::flight::InFlight;
use super::read;
use super::remote::RemoteTool;
use super::task::CancelTask;
use crate::Lowered;
use crate::tool::CallContext;

/// The JSON-RPC code of a server's refusal of a call of a tool that
/// requires a task, made without one.
const NEEDS_TASK: i32 = -32601;

/// The `tools/call` for `params`, asking for a task.
pub(super) fn task_call(params: &CallToolRequestParams) -> ClientRequest {
    let mut raw = serde_json::to_value(params).unwrap_or_else(|_| json!({}));
    if let Some(raw) = raw.as_object_mut() {
        raw.insert("task".to_owned(), json!({}));
    }
    ClientRequest::CustomRequest(CustomRequest::new("tools/call", Some(raw)))
}

/// Whether an answer to a call made without a task is the refusal of a
/// tool that requires one: a JSON-RPC error `-32601`, or (as the
/// TypeScript SDK sends it) an error result carrying that error and
/// saying it is for want of a task, so that a tool's own error text that
/// merely starts alike is not read as a refusal (its call ran; it is not
/// sent again).
///
/// rmcp drops a listed tool's `execution`, so the refusal is how the
/// client learns that the tool requires a task: a refused call never ran.
pub(super) fn needs_task(answered: &Result<ServerResult, ServiceError>) -> bool {
    match answered {
        Err(ServiceError::McpError(refusal)) => refusal.code.0 == NEEDS_TASK,
        Ok(ServerResult::CallToolResult(result)) => {
            result.is_error == Some(true)
                && result
                    .content
                    .first()
                    .and_then(ContentBlock::as_text)
                    .is_some_and(|text| {
                        text.text.starts_with(&format!("MCP error {NEEDS_TASK}:"))
                            && text.text.contains("requires task")
                    })
        }
        _ => false,
    }
}

/// The task a server created for a call (`{task: {...}}`), if that is
/// what it answered.
pub(super) fn created(answered: &ServerResult) -> Option<Task> {
    let ServerResult::CustomResult(raw) = answered else {
        return None;
    };
    task(raw.0.get("task")?)
}

/// A task as the server describes it.
fn task(raw: &Value) -> Option<Task> {
    let text = |key: &str| raw.get(key).and_then(Value::as_str);
    let status = match text("status")? {
        "completed" => TaskStatus::Completed,
        "failed" => TaskStatus::Failed,
        "cancelled" => TaskStatus::Cancelled,
        "input_required" => TaskStatus::InputRequired,
        _ => TaskStatus::Working,
    };
    let mut task = Task::new(
        text("taskId")?,
        status,
        text("createdAt").unwrap_or_default(),
        text("lastUpdatedAt").unwrap_or_default(),
    );
    task.status_message = text("statusMessage").map(str::to_owned);
    task.poll_interval_ms = raw
        .get("pollInterval")
        .or_else(|| raw.get("pollIntervalMs"))
        .and_then(Value::as_u64);
    Some(task)
}

/// The task `id` now (`tasks/get`); once it ended, with its result or
/// error (`tasks/result`).
pub(super) async fn get(peer: &Peer<RoleClient>, id: &str) -> Result<DetailedTask, ServiceError> {
    let answered = peer.send_request(request("tasks/get", id)).await?;
    // rmcp reads some of these answers as its own task types: read back as JSON.
    let raw = serde_json::to_value(&answered).map_err(|_| ServiceError::UnexpectedResponse)?;
    let task = task(&raw).ok_or(ServiceError::UnexpectedResponse)?;
    let payload = match task.status {
        TaskStatus::Completed | TaskStatus::Failed => {
            match peer.send_request(request("tasks/result", id)).await {
                Ok(ServerResult::CallToolResult(result)) => TaskPayload::Completed {
                    result: object(&result),
                },
                // No tool result: read as an answer the call cannot use.
                Ok(_) => return Err(ServiceError::UnexpectedResponse),
                Err(ServiceError::McpError(error)) => TaskPayload::Failed {
                    error: JsonObject::from_iter([("code".to_owned(), json!(error.code.0))]),
                },
                Err(err) => return Err(err),
            }
        }
        TaskStatus::Cancelled => TaskPayload::Cancelled,
        // Its questions come with `tasks/result` (see `task_result`).
        TaskStatus::InputRequired => TaskPayload::InputRequired {
            input_requests: InputRequests::default(),
        },
        _ => TaskPayload::Working,
    };
    Ok(DetailedTask::new(task, payload))
}

/// Cancels the task `id` (`tasks/cancel`).
pub(super) async fn cancel(peer: &Peer<RoleClient>, id: String) {
    let _ = peer.send_request(request("tasks/cancel", &id)).await;
}

impl RemoteTool {
    /// The result of a task waiting for input: `tasks/result`, pending
    /// until the task ends, through which the server asks its questions,
    /// each asked of the caller as a call's are. `guard` cancels the task
    /// if the call is let go first.
    pub(super) async fn task_result(
        &self,
        guard: CancelTask,
        cx: &CallContext<'static>,
    ) -> Lowered {
        let asked = request("tasks/result", guard.id());
        // A `tasks/result` let go is cancelled at once (it brings no task);
        // its guard cancels the task.
        let options = PeerRequestOptions::no_options();
        let flight =
            match InFlight::send(&self.connection, asked, options, false, Some(guard)).await {
                Ok(flight) => flight,
                Err(err) => return read::read(&self.name, Err(err)),
            };
        self.wait_for(flight, cx).await
    }
}

fn request(method: &str, id: &str) -> ClientRequest {
    ClientRequest::CustomRequest(CustomRequest::new(method, Some(json!({ "taskId": id }))))
}

fn object(result: &CallToolResult) -> JsonObject {
    match serde_json::to_value(result) {
        Ok(Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_created_task_is_read_with_its_interval_and_message() {
        let answered: ServerResult = serde_json::from_value(json!({"task": {
            "taskId": "t1", "status": "working", "ttl": 300000,
            "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z",
            "pollInterval": 1000, "statusMessage": "Gathering sources..."}}))
        .unwrap();
        let task = created(&answered).unwrap();
        assert_eq!(task.task_id, "t1");
        assert_eq!(task.poll_interval_ms, Some(1000));
        assert_eq!(task.status_message.as_deref(), Some("Gathering sources..."));
        let call: ServerResult = serde_json::from_value(json!({"content": []})).unwrap();
        assert!(created(&call).is_none());
    }

    #[test]
    fn the_refusal_of_a_call_without_a_task_is_recognised() {
        let wrapped = CallToolResult::error(vec![ContentBlock::text(
            "MCP error -32601: Tool t requires task augmentation",
        )]);
        assert!(needs_task(&Ok(ServerResult::CallToolResult(wrapped))));
        let other = CallToolResult::error(vec![ContentBlock::text("no such city")]);
        assert!(!needs_task(&Ok(ServerResult::CallToolResult(other))));
        // A tool's own error that starts alike ran: it is no refusal.
        let alike = CallToolResult::error(vec![ContentBlock::text(
            "MCP error -32601: the upstream server has no such method",
        )]);
        assert!(!needs_task(&Ok(ServerResult::CallToolResult(alike))));
        let refused = rmcp::ErrorData::new(rmcp::model::ErrorCode(NEEDS_TASK), "task", None);
        assert!(needs_task(&Err(ServiceError::McpError(refused))));
        let params = CallToolRequestParams::new("t");
        let sent = serde_json::to_value(task_call(&params)).unwrap();
        assert_eq!(sent["method"], "tools/call");
        assert_eq!(sent["params"]["task"], json!({}));
        assert_eq!(sent["params"]["name"], "t");
    }
}
