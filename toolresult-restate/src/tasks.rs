//! MCP tasks on Restate: a task's call is a Restate invocation of a turn
//! ([`TaskRunner`], as [`run_turn`](crate::run_turn) runs it: journaled
//! attempts, durable timers), its record a virtual object
//! ([`TaskRecords`]), and [`RestateTasks`] the
//! [`TaskStore`](toolresult::mcp::TaskStore) every replica of an MCP server
//! is given: any of them answers `tasks/get`, `tasks/update` and
//! `tasks/cancel` for a task another started, and the task outlives the
//! replica that started it.

// The clients Restate's macros generate (`TaskRecordsClient`,
// `TaskRunnerClient`) have methods without docs.
#![allow(missing_docs)]

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime};

use restate_sdk::prelude::{
    Context, ContextAwakeables, ContextClient, ContextReadState, ContextSideEffects,
    ContextWriteState, HandlerError, HandlerResult, Json, ObjectContext, RunFuture,
    SharedObjectContext,
};
use rmcp::model::{CallToolRequestParams, InputRequests};
use serde_json::{Value, json};
use toolresult::canonical::{Answer, Request};
use toolresult::mcp::McpServer;
use toolresult::provider::{Call, Mcp, PartPolicy, Provider};
use toolresult::tool::{Arguments, ToolPanicked};
use toolresult::toolbox::Toolbox;

use crate::{Parked, run_turn};

/// The state key of a task's record.
const RECORD: &str = "record";
/// The state key of the call a task's call is parked on
/// ([`ParkedCall`]).
const PARKED: &str = "parked";

/// A task's call parked on a request: what `TaskRecords/park` takes, and
/// keeps beside the task's record until it is answered.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct ParkedCall {
    /// The request, as [`Parked`] holds it (its seal, if any, included).
    request: Request,
    /// The awakeable its answer resolves.
    awakeable: String,
    /// When it parked (RFC 3339); not kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<String>,
}

type Failed = Box<dyn std::error::Error + Send + Sync>;

/// The records of MCP tasks, a Restate virtual object keyed by task id:
/// what the MCP server writes (`put`) and reads (`get`, concurrent with
/// the rest), what a [`TaskRunner`] writes when the task's call parks on a
/// request (`park`: the task waits for input, the awakeable kept beside
/// its record) and when it is answered (`finish`), and the client's answer
/// that resolves the awakeable (`answer`, from the server's `tasks/update`
/// on any replica); forgotten once the task's time to live is over. A
/// task over (completed, failed, cancelled) stays as it is: a
/// cancellation is not undone by the call's late answer, nor an answer by
/// a late cancellation.
///
/// Bind it beside a [`TaskRunner`] in the service endpoint:
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

/// The Restate service that runs MCP tasks' calls: each call a turn of
/// one call run by [`run_turn`] (its attempts journaled, its retry delays
/// durable timers), invoked once per task (the task id is the
/// invocation's idempotency key), its answer written into the task's
/// [`TaskRecords`] by a durable one-way call: a call answered before its
/// service was killed is not run again, and its answer reaches the record.
/// The answer is the `CallToolResult` the MCP server would answer the
/// plain call with ([`Mcp::render`](toolresult::provider::Provider::render),
/// `resultType: "complete"`); a call whose tool panicked fails the task.
///
/// A call that parks on a [`Request`] waits on its awakeable
/// ([`Parked`]), its task waiting for input meanwhile: the `notify` hook
/// of [`run_turn`] writes the request and the awakeable into the task's
/// [`TaskRecords`] through `tasks` (Restate's ingress), and the server's
/// `tasks/update` on any replica resolves the awakeable with the client's
/// [`Answer`], which resumes the call as [`run_turn`] resumes any.
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

/// `time` as RFC 3339 in UTC, to the millisecond.
fn timestamp(time: SystemTime) -> String {
    let since = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let seconds = since.as_secs();
    let days = i64::try_from(seconds / 86_400).unwrap_or(0);
    let of_day = seconds % 86_400;
    // Howard Hinnant's `civil_from_days`.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
        since.subsec_millis()
    )
}

/// The [`TaskStore`](toolresult::mcp::TaskStore) of an MCP server whose
/// tasks run on Restate: records in [`TaskRecords`], calls run by
/// [`TaskRunner`] (both bound in a service endpoint registered with the
/// Restate server), reached through the server's ingress and, to cancel
/// a call, its admin API.
///
/// ```no_run
/// use std::time::Duration;
/// use toolresult::mcp::McpServer;
/// use toolresult::toolbox::Toolbox;
/// use toolresult_restate::RestateTasks;
///
/// // Every replica: the same tools, the same Restate server.
/// let store = RestateTasks::new("http://127.0.0.1:8080", "http://127.0.0.1:9070");
/// let server = McpServer::new(Toolbox::new())?.tasks(store, Duration::from_secs(3600));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct RestateTasks {
    ingress: String,
    admin: String,
    http: ureq::Agent,
}

impl RestateTasks {
    /// A store reaching the Restate server at `ingress` (its ingress URL,
    /// `http://host:8080`) and `admin` (its admin API, `http://host:9070`).
    #[must_use]
    pub fn new(ingress: impl Into<String>, admin: impl Into<String>) -> Self {
        let http = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        Self {
            ingress: ingress.into().trim_end_matches('/').to_owned(),
            admin: admin.into().trim_end_matches('/').to_owned(),
            http,
        }
    }

    /// POSTs `body` (none for `null`) to `url` with `headers`, off the
    /// async threads; the answer's body read as JSON (`null` when empty).
    async fn post(
        &self,
        url: String,
        headers: Vec<(&'static str, String)>,
        body: Value,
    ) -> Result<Value, Failed> {
        let http = self.http.clone();
        let posted = tokio::task::spawn_blocking(move || -> Result<Value, Failed> {
            let mut request = http.post(&url).header("accept", "application/json");
            for (name, value) in headers {
                request = request.header(name, value);
            }
            // A handler that takes no input takes no body.
            let mut response = if body.is_null() {
                request.send_empty()?
            } else {
                request
                    .header("content-type", "application/json")
                    .send(body.to_string())?
            };
            let status = response.status().as_u16();
            let text = response.body_mut().read_to_string()?;
            if status / 100 != 2 {
                return Err(format!("POST {url}: {status} {text}").into());
            }
            if text.trim().is_empty() {
                return Ok(Value::Null);
            }
            Ok(serde_json::from_str(&text)?)
        });
        posted.await?
    }
}

impl RestateTasks {
    /// Tells the task `id`'s record its call parked (`TaskRecords/park`),
    /// as of now.
    async fn park(&self, id: &str, parked: &Parked) -> Result<(), Failed> {
        let url = format!("{}/TaskRecords/{}/park", self.ingress, checked(id)?);
        let body = ParkedCall {
            request: parked.request.clone(),
            awakeable: parked.awakeable_id().to_owned(),
            at: Some(timestamp(SystemTime::now())),
        };
        self.post(url, Vec::new(), serde_json::to_value(body)?)
            .await
            .map(drop)
    }
}

/// A task id as the server makes it: letters, digits and dashes, which
/// go into a URL and a query as they are.
fn checked(id: &str) -> Result<&str, Failed> {
    if !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        Ok(id)
    } else {
        Err(format!("`{id}` is no task id of this server").into())
    }
}

type Kept<'a, T> = Pin<Box<dyn Future<Output = Result<T, Failed>> + Send + 'a>>;

impl toolresult::mcp::TaskStore for RestateTasks {
    fn put<'a>(&'a self, id: &'a str, record: Value, _expires: SystemTime) -> Kept<'a, ()> {
        Box::pin(async move {
            let url = format!("{}/TaskRecords/{}/put", self.ingress, checked(id)?);
            self.post(url, Vec::new(), record).await.map(drop)
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> Kept<'a, Option<Value>> {
        Box::pin(async move {
            let url = format!("{}/TaskRecords/{}/get", self.ingress, checked(id)?);
            let record = self.post(url, Vec::new(), Value::Null).await?;
            Ok(Some(record).filter(|record| !record.is_null()))
        })
    }

    fn run<'a>(&'a self, id: &'a str, call: &'a CallToolRequestParams) -> Kept<'a, bool> {
        Box::pin(async move {
            let url = format!("{}/TaskRunner/run/send", self.ingress);
            let body = json!({"id": checked(id)?, "name": call.name, "arguments": call.arguments});
            let headers = vec![("idempotency-key", id.to_owned())];
            self.post(url, headers, body).await?;
            Ok(true)
        })
    }

    fn answer<'a>(&'a self, id: &'a str, answers: &'a [Answer]) -> Kept<'a, bool> {
        Box::pin(async move {
            let url = format!("{}/TaskRecords/{}/answer", self.ingress, checked(id)?);
            self.post(url, Vec::new(), serde_json::to_value(answers)?)
                .await?;
            Ok(true)
        })
    }

    fn cancel<'a>(&'a self, id: &'a str) -> Kept<'a, ()> {
        Box::pin(async move {
            let query = format!(
                "SELECT id FROM sys_invocation WHERE target_service_name = 'TaskRunner' AND idempotency_key = '{}'",
                checked(id)?
            );
            let url = format!("{}/query", self.admin);
            let found = self.post(url, Vec::new(), json!({"query": query})).await?;
            let rows = found
                .get("rows")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let ids = rows
                .iter()
                .filter_map(|row| row.get("id").and_then(Value::as_str));
            for invocation in ids {
                let http = self.http.clone();
                let url = format!("{}/invocations/{invocation}/cancel", self.admin);
                let cancelled = tokio::task::spawn_blocking(move || -> Result<(), Failed> {
                    let response = http.patch(&url).send_empty()?;
                    let status = response.status().as_u16();
                    // Already over: nothing to cancel.
                    if status / 100 != 2 && status != 404 && status != 409 {
                        return Err(format!("PATCH {url}: {status}").into());
                    }
                    Ok(())
                });
                cancelled.await??;
            }
            Ok(())
        })
    }
}
