//! [`TaskRecords`]: each task's record, a Restate virtual object.

use std::time::Duration;

use restate_sdk::prelude::{
    ContextAwakeables, ContextClient, ContextReadState, ContextWriteState, HandlerResult, Json,
    ObjectContext, SharedObjectContext,
};
use rmcp::model::InputRequests;
use serde_json::{Value, json};
use toolresult::canonical::Answer;
use toolresult::mcp::McpServer;

use super::{PARKED, ParkedCall, RECORD};

/// The records of MCP tasks, a Restate virtual object keyed by task id:
/// what the MCP server writes (`put`) and reads (`get`, concurrent with
/// the rest), what a [`TaskRunner`](crate::TaskRunner) writes when the task's call parks on a
/// request (`park`: the task waits for input, the awakeable kept beside
/// its record) and when it is answered (`finish`), and the client's answer
/// that resolves the awakeable (`answer`, from the server's `tasks/update`
/// on any replica); forgotten once the task's time to live is over. A
/// task over (completed, failed, cancelled) stays as it is: a
/// cancellation is not undone by the call's late answer, nor an answer by
/// a late cancellation.
///
/// Bind it beside a [`TaskRunner`](crate::TaskRunner) in the service endpoint:
/// `Endpoint::builder().bind(TaskRecords).bind(TaskRunner::new(toolbox, tasks))`.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaskRecords;

#[restate_sdk::object]
impl TaskRecords {
    /// Keeps the MCP server's record of the task, unless it is over; the
    /// first record is forgotten after the task's `ttlMs`.
    #[handler]
    async fn put(&self, ctx: ObjectContext<'_>, Json(record): Json<Value>) -> HandlerResult<()> {
        match ctx.get::<Json<Value>>(RECORD).await? {
            Some(Json(kept)) if is_over(&kept) => return Ok(()),
            Some(_) => {}
            None => {
                let ttl = record.pointer("/task/ttlMs").and_then(Value::as_u64);
                if let Some(ttl) = ttl {
                    ctx.object_client::<TaskRecordsClient>(ctx.key())
                        .forget()
                        .send_after(Duration::from_millis(ttl));
                }
            }
        }
        ctx.set(RECORD, Json(record));
        Ok(())
    }

    /// Forgets the task: its time to live is over.
    #[handler]
    async fn forget(&self, ctx: ObjectContext<'_>) -> HandlerResult<()> {
        ctx.clear_all();
        Ok(())
    }

    /// The task's record; `null` when there is none.
    #[handler]
    async fn get(&self, ctx: SharedObjectContext<'_>) -> HandlerResult<Json<Value>> {
        let kept = ctx.get::<Json<Value>>(RECORD).await?;
        Ok(Json(kept.map_or(Value::Null, |Json(record)| record)))
    }

    /// The task's call parked on a request: `{"request", "awakeable",
    /// "at"}`, the [`Request`] (as [`Parked`] holds it), the id of the
    /// awakeable its answer resolves and when. The task waits for input, its one
    /// input request the server's of the request
    /// ([`McpServer::input_request`]) under the request's id, unless it is
    /// over; a request MCP cannot ask has its awakeable resolved with no
    /// answer, and the call is answered with its pending result, as the
    /// server answers it.
    #[handler]
    async fn park(
        &self,
        ctx: ObjectContext<'_>,
        Json(parked): Json<ParkedCall>,
    ) -> HandlerResult<()> {
        let ParkedCall {
            request,
            awakeable,
            at,
        } = parked;
        let Some(Json(mut record)) = ctx.get::<Json<Value>>(RECORD).await? else {
            return Ok(());
        };
        if is_over(&record) {
            return Ok(());
        }
        let Some(asked) = McpServer::input_request(&request) else {
            ctx.resolve_awakeable(&awakeable, Json(Value::Null));
            return Ok(());
        };
        let requests = InputRequests::from_iter([(request.id.clone(), asked)]);
        if let Some(task) = record.get_mut("task").and_then(Value::as_object_mut) {
            task.insert("status".to_owned(), json!("input_required"));
            task.insert("inputRequests".to_owned(), serde_json::to_value(requests)?);
            task.insert("statusMessage".to_owned(), json!("waiting for input"));
            if let Some(at) = at {
                task.insert("lastUpdatedAt".to_owned(), Value::String(at));
            }
        }
        ctx.set(RECORD, Json(record));
        let kept = ParkedCall {
            request,
            awakeable,
            at: None,
        };
        ctx.set(PARKED, Json(kept));
        Ok(())
    }

    /// The client's answers to the task's input requests (`[Answer]`, as
    /// the server reads them): the one to the request the call is parked
    /// on resolves its awakeable, carrying the request's seal back
    /// ([`Answer::with_seal_of`]); the others, and answers to a call not
    /// parked, are dropped.
    #[handler]
    async fn answer(
        &self,
        ctx: ObjectContext<'_>,
        Json(answers): Json<Vec<Answer>>,
    ) -> HandlerResult<()> {
        let Some(Json(parked)) = ctx.get::<Json<ParkedCall>>(PARKED).await? else {
            return Ok(());
        };
        let request = &parked.request;
        let Some(answer) = answers.into_iter().find(|answer| answer.answers(request)) else {
            return Ok(());
        };
        ctx.resolve_awakeable(&parked.awakeable, Json(answer.with_seal_of(request)));
        ctx.clear(PARKED);
        Ok(())
    }

    /// The task's call answered: `{"status", "result" | "error", "at"}`,
    /// written into the record unless the task is over.
    #[handler]
    async fn finish(&self, ctx: ObjectContext<'_>, Json(done): Json<Value>) -> HandlerResult<()> {
        let Some(Json(mut record)) = ctx.get::<Json<Value>>(RECORD).await? else {
            return Ok(());
        };
        if is_over(&record) {
            return Ok(());
        }
        if let Some(task) = record.get_mut("task").and_then(Value::as_object_mut) {
            for key in ["status", "result", "error"] {
                if let Some(value) = done.get(key) {
                    task.insert(key.to_owned(), value.clone());
                }
            }
            if let Some(at) = done.get("at") {
                task.insert("lastUpdatedAt".to_owned(), at.clone());
            }
            task.remove("statusMessage");
            // A call over waits for nothing.
            task.remove("inputRequests");
        }
        ctx.set(RECORD, Json(record));
        Ok(())
    }
}

/// Whether a record's task is over.
fn is_over(record: &Value) -> bool {
    matches!(
        record.pointer("/task/status").and_then(Value::as_str),
        Some("completed" | "failed" | "cancelled")
    )
}
