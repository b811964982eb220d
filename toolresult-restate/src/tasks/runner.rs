//! [`TaskRunner`]: the Restate service that runs MCP tasks' calls.

use std::time::SystemTime;

use restate_sdk::prelude::{
    Context, ContextClient, ContextSideEffects, HandlerError, HandlerResult, Json, RunFuture,
};
use serde_json::{Value, json};
use toolresult::provider::{Call, Mcp, PartPolicy, Provider};
use toolresult::tool::{Arguments, ToolPanicked};
use toolresult::toolbox::Toolbox;

use super::records::TaskRecordsClient;
use super::store::RestateTasks;
use super::timestamp;
use crate::{Parked, run_turn};

/// The Restate service that runs MCP tasks' calls: each call a turn of
/// one call run by [`run_turn`] (its attempts journaled, its retry delays
/// durable timers), invoked once per task (the task id is the
/// invocation's idempotency key), its answer written into the task's
/// [`TaskRecords`](crate::TaskRecords) by a durable one-way call: a call answered before its
/// service was killed is not run again, and its answer reaches the record.
/// The answer is the `CallToolResult` the MCP server would answer the
/// plain call with ([`Mcp::render`](toolresult::provider::Provider::render),
/// `resultType: "complete"`); a call whose tool panicked fails the task.
///
/// A call that parks on a [`Request`](toolresult::canonical::Request) waits on its awakeable
/// ([`Parked`]), its task waiting for input meanwhile: the `notify` hook
/// of [`run_turn`] writes the request and the awakeable into the task's
/// [`TaskRecords`](crate::TaskRecords) through `tasks` (Restate's ingress), and the server's
/// `tasks/update` on any replica resolves the awakeable with the client's
/// [`Answer`](toolresult::canonical::Answer), which resumes the call as [`run_turn`] resumes any.
pub struct TaskRunner {
    toolbox: Toolbox,
    tasks: RestateTasks,
}

impl TaskRunner {
    /// A runner of `toolbox`'s tools (the same tools, by name, as the MCP
    /// server's), keeping a parked call's task in the records `tasks`
    /// reaches (the MCP servers' store).
    ///
    /// ```
    /// use toolresult::toolbox::Toolbox;
    /// use toolresult_restate::{RestateTasks, TaskRunner};
    ///
    /// let tasks = RestateTasks::new("http://127.0.0.1:8080", "http://127.0.0.1:9070");
    /// let runner = TaskRunner::new(Toolbox::new(), tasks);
    /// # drop(runner);
    /// ```
    #[must_use]
    pub fn new(toolbox: Toolbox, tasks: RestateTasks) -> Self {
        Self { toolbox, tasks }
    }
}

#[restate_sdk::service]
impl TaskRunner {
    /// Runs the call `{"id", "name", "arguments"}` of the task `id`.
    #[handler]
    async fn run(&self, ctx: Context<'_>, Json(task): Json<Value>) -> HandlerResult<()> {
        let text = |key: &str| task.get(key).and_then(Value::as_str).unwrap_or_default();
        let id = text("id").to_owned();
        let name = text("name");
        let arguments = task.get("arguments").cloned().unwrap_or(json!({}));
        let call = Call::new(id.clone(), name, Arguments::Json(arguments));
        let (tasks, task) = (&self.tasks, id.as_str());
        // A journaled step: the record is told once the call parks.
        let notify = |parked: Parked| async move {
            tasks.park(task, &parked).await.map_err(HandlerError::from)
        };
        let outcomes = run_turn(&ctx, &self.toolbox, [call], notify).await?;
        let mut done = match outcomes.first() {
            Some(outcome)
                if outcome
                    .lowered
                    .diagnostics
                    .source()
                    .is_some_and(|source| source.downcast_ref::<ToolPanicked>().is_some()) =>
            {
                let message = format!("the tool `{name}` panicked");
                json!({"status": "failed", "error": {"code": -32603, "message": message}})
            }
            Some(outcome) => {
                let rendered = Mcp::render(outcome, PartPolicy::Placeholder)?;
                let mut result = serde_json::to_value(rendered)?;
                if let Some(result) = result.as_object_mut() {
                    result.insert("resultType".to_owned(), json!("complete"));
                }
                json!({"status": "completed", "result": result})
            }
            None => {
                json!({"status": "failed", "error": {"code": -32603, "message": "the call was not answered"}})
            }
        };
        let Json(at) = ctx
            .run(|| async { Ok(Json(timestamp(SystemTime::now()))) })
            .name("answered at")
            .await?;
        if let Some(done) = done.as_object_mut() {
            done.insert("at".to_owned(), Value::String(at));
        }
        ctx.object_client::<TaskRecordsClient>(id)
            .finish(Json(done))
            .send();
        Ok(())
    }
}
