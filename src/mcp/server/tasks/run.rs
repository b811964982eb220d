//! A task's call, run in the background on the server's own `tools/call`
//! path, and what its answer makes of the task.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::SystemTime;

use rmcp::model::{CallToolRequestParams, CallToolResponse, JsonObject, TaskPayload};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::super::McpServer;
use super::super::session::McpSession;
use super::{Answering, notify};
use crate::Lowered;
use crate::tool::ToolPanicked;

/// Marks a `tools/call` run for a task, so it runs rather than starting
/// another: the task's id, and whether its tool panicked.
#[derive(Clone, Debug)]
struct InTask {
    id: Arc<str>,
    panicked: Arc<AtomicBool>,
}

impl McpServer {
    /// The id of the task whose call `context`'s `tools/call` runs; `None`
    /// for a call answered in its request. For a handler of one's own
    /// whose calls run as tasks ([`tasks_through`](Self::tasks_through)):
    /// the handler hands a call to the server outside a task (which starts
    /// one when the tool runs as a task), and answers it inside.
    ///
    /// ```
    /// use rmcp::model::{CallToolRequestParams, CallToolResponse};
    /// use rmcp::service::RequestContext;
    /// use rmcp::{ErrorData, RoleServer};
    /// use toolresult::mcp::McpServer;
    ///
    /// async fn call_tool(
    ///     tools: &McpServer,
    ///     request: CallToolRequestParams,
    ///     context: RequestContext<RoleServer>,
    /// ) -> Result<CallToolResponse, ErrorData> {
    ///     if request.name == "survey" && McpServer::task_of(&context).is_some() {
    ///         // In its task: ask the client several things at once
    ///         // (an `InputRequiredResult` of many input requests).
    ///     }
    ///     tools.call_tool(request, context).await
    /// }
    /// ```
    #[must_use]
    pub fn task_of(context: &RequestContext<RoleServer>) -> Option<&str> {
        context
            .extensions
            .get::<InTask>()
            .map(|in_task| &*in_task.id)
    }
}

/// Notes, for a task's call, that its tool panicked: the task fails (a
/// protocol-level failure) where the plain call answers an error result.
pub(in super::super) fn note(context: &RequestContext<RoleServer>, lowered: &Lowered) {
    if let Some(in_task) = context.extensions.get::<InTask>() {
        let source = lowered.diagnostics.source();
        if source.is_some_and(|source| source.downcast_ref::<ToolPanicked>().is_some()) {
            in_task.panicked.store(true, Ordering::Relaxed);
        }
    }
}

/// Runs `request` for the task `id` under `cancellation`, then writes
/// what it answered into the task's record.
pub(super) async fn run(
    server: McpServer,
    id: String,
    request: CallToolRequestParams,
    mut context: RequestContext<RoleServer>,
    cancellation: CancellationToken,
) {
    let probe = InTask {
        id: Arc::from(id.as_str()),
        panicked: Arc::default(),
    };
    context.ct = cancellation.clone();
    context.extensions.insert(probe.clone());
    let tool = request.name.to_string();
    let answered = call(server.clone(), request, context.clone()).await;
    let tasks = &server.tasks;
    tasks.forget(&id);
    let Ok(Some(mut record)) = tasks.read(&id).await else {
        return;
    };
    // Cancelled meanwhile (by any replica): the cancellation stands.
    if record.is_over() {
        return;
    }
    let payload = if cancellation.is_cancelled() {
        TaskPayload::Cancelled
    } else if probe.panicked.load(Ordering::Relaxed) {
        failed(&ErrorData::internal_error(
            format!("the tool `{tool}` panicked"),
            None,
        ))
    } else {
        match answered {
            Ok(CallToolResponse::Complete(result)) => match serde_json::to_value(&result) {
                Ok(Value::Object(result)) => TaskPayload::Completed { result },
                _ => failed(&ErrorData::internal_error("the result is no object", None)),
            },
            Ok(CallToolResponse::InputRequired(asked)) => {
                record.state = asked.request_state;
                TaskPayload::InputRequired {
                    input_requests: asked.input_requests.unwrap_or_default(),
                }
            }
            Ok(_) => failed(&ErrorData::internal_error(
                "the call was answered with neither a result nor input requests",
                None,
            )),
            Err(error) => failed(&error),
        }
    };
    record.moved_to(payload, SystemTime::now());
    // Nowhere to report a store that fails here: the task reads as working
    // until it expires.
    if tasks.write(&id, &record).await.is_ok() {
        notify::status(&context, &record.task).await;
    }
}

/// The payload of a task that failed with `error` (its JSON-RPC shape).
fn failed(error: &ErrorData) -> TaskPayload {
    let error = match serde_json::to_value(error) {
        Ok(Value::Object(error)) => error,
        _ => JsonObject::from_iter([
            ("code".to_owned(), json!(-32603)),
            ("message".to_owned(), json!("the task failed")),
        ]),
    };
    TaskPayload::Failed { error }
}

/// The `tools/call` of `request`: the handler's the server's tasks run
/// through, else the server's own. Boxed: the task's future names no type
/// of the handler's, which starts tasks itself.
fn call(
    server: McpServer,
    request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
) -> Answering {
    match &server.tasks.through {
        Some(through) => through(request, context),
        None => Box::pin(async move { McpSession::new(server).call_tool(request, context).await }),
    }
}
