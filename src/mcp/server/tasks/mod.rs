//! MCP's tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): a
//! call of a tool that runs as a task is answered at once with the task,
//! and runs on; the client reads it with `tasks/get` (its status, its
//! input requests while it waits for input, its result or error once
//! over), answers it with `tasks/update` and cancels it with
//! `tasks/cancel`. The tasks live in a [`TaskStore`].

mod notify;
mod record;
mod run;
mod store;
mod through;
mod update;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities,
    CreateTaskResult, GetTaskParams, GetTaskResult, ServerCapabilities, TaskPayload,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use tokio_util::sync::CancellationToken;

use super::McpServer;
use super::stateless;
use crate::tool::TaskSupport;
use crate::toolbox::Toolbox;
use record::Record;
pub(super) use run::note;
use store::MemoryTasks;
pub use store::TaskStore;
use through::{Answering, Through};

/// The server's tasks: where they are kept, for how long, and the
/// cancellation of each one this process runs.
#[derive(Clone)]
pub(super) struct Tasks {
    store: Arc<dyn TaskStore>,
    ttl: Duration,
    running: Arc<Mutex<HashMap<String, CancellationToken>>>,
    /// The handler whose `tools/call` runs each task's call, when not the
    /// server's own ([`McpServer::tasks_through`]).
    through: Option<Through>,
}

impl Tasks {
    /// How long a task is kept by default: an hour.
    const DEFAULT_TTL: Duration = Duration::from_secs(3600);

    /// Tasks kept in this process's memory for the default time.
    pub(super) fn in_memory() -> Self {
        Self {
            store: Arc::new(MemoryTasks::default()),
            ttl: Self::DEFAULT_TTL,
            running: Arc::default(),
            through: None,
        }
    }

    async fn read(&self, id: &str) -> Result<Option<Record>, ErrorData> {
        let Some(record) = self.store.get(id).await.map_err(unavailable)? else {
            return Ok(None);
        };
        let record = serde_json::from_value::<Record>(record).map_err(|error| {
            ErrorData::internal_error(
                format!("the record of task `{id}` is unreadable: {error}"),
                None,
            )
        })?;
        // A store that keeps a record past its time is not trusted with it.
        Ok(Some(record).filter(|record| SystemTime::now() < record.expires))
    }

    async fn write(&self, id: &str, record: &Record) -> Result<(), ErrorData> {
        let value = serde_json::to_value(record).map_err(|error| {
            ErrorData::internal_error(
                format!("the record of task `{id}` is unwritable: {error}"),
                None,
            )
        })?;
        self.store
            .put(id, value, record.expires)
            .await
            .map_err(unavailable)
    }

    /// The task `id`'s record; an `invalid_params` error when there is
    /// none (never started, or expired).
    async fn find(&self, id: &str) -> Result<Record, ErrorData> {
        self.read(id).await?.ok_or_else(|| {
            ErrorData::invalid_params(format!("no task `{id}`: unknown, or expired"), None)
        })
    }

    /// The cancellation of the task `id`'s call, now running in this
    /// process; `None` when it runs already (two updates that each
    /// completed its round resume it once).
    fn track(&self, id: &str) -> Option<CancellationToken> {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        if running.contains_key(id) {
            return None;
        }
        let token = CancellationToken::new();
        running.insert(id.to_owned(), token.clone());
        Some(token)
    }

    fn forget(&self, id: &str) -> Option<CancellationToken> {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        running.remove(id)
    }

    /// Runs `request` for the task `id` in the background.
    fn spawn(
        &self,
        server: &McpServer,
        id: &str,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) {
        let Some(token) = self.track(id) else {
            return;
        };
        let running = run::run(
            server.clone(),
            id.to_owned(),
            request,
            context.clone(),
            token,
        );
        tokio::spawn(running);
    }
}

fn unavailable(error: Box<dyn std::error::Error + Send + Sync>) -> ErrorData {
    ErrorData::internal_error(format!("the task store failed: {error}"), None)
}

/// `capabilities`, declaring the tasks extension when a tool of `toolbox`
/// runs as a task.
pub(super) fn advertised(
    toolbox: &Toolbox,
    mut capabilities: ServerCapabilities,
) -> ServerCapabilities {
    let any = toolbox.names().any(|name| {
        toolbox
            .task_support(name)
            .is_some_and(|task| task != TaskSupport::Forbidden)
    });
    if any {
        let extension = ServerCapabilities::builder()
            .enable_tasks()
            .build()
            .extensions;
        capabilities
            .extensions
            .get_or_insert_default()
            .extend(extension.unwrap_or_default());
    }
    capabilities
}

/// Whether the client of `context` takes tasks: its request's
/// capabilities at 2026-07-28, its session's before.
fn takes_tasks(context: &RequestContext<RoleServer>) -> bool {
    let capabilities = if stateless::is_stateless(context) {
        context.meta.client_capabilities()
    } else {
        context.client_capabilities()
    };
    capabilities.is_some_and(|capabilities| capabilities.supports_tasks())
}

/// The task `request` starts, when its tool runs as one for this client:
/// answered at once, the call running on; `None` for a call answered in
/// its request.
///
/// # Errors
/// The tool requires a task and the client does not take tasks (`-32021`,
/// naming the extension), or the store failed.
pub(super) async fn start(
    server: &McpServer,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<Option<CallToolResponse>, ErrorData> {
    if McpServer::task_of(context).is_some() {
        return Ok(None);
    }
    let support = server
        .toolbox
        .task_support(&request.name)
        .unwrap_or_default();
    let takes = takes_tasks(context);
    match support {
        TaskSupport::Required if !takes => {
            return Err(ErrorData::missing_required_client_capability(
                ClientCapabilities::builder().enable_tasks().build(),
            ));
        }
        TaskSupport::Required | TaskSupport::Optional if takes => {}
        _ => return Ok(None),
    }
    let tasks = &server.tasks;
    let id = uuid::Uuid::new_v4().to_string();
    let arguments = request.arguments.clone().unwrap_or_default();
    let record = Record::new(&id, &request.name, arguments, tasks.ttl, SystemTime::now());
    // Kept before it is answered: a `tasks/get` right after finds it.
    tasks.write(&id, &record).await?;
    let elsewhere = tasks.store.run(&id, request).await.map_err(unavailable)?;
    if !elsewhere {
        tasks.spawn(server, &id, request.clone(), context);
    }
    Ok(Some(CallToolResponse::Task(CreateTaskResult::new(
        record.task.task,
    ))))
}

impl McpServer {
    /// The same server, keeping its tasks in `store` for `ttl` each (by
    /// default in its own memory, for an hour). A call runs as a task
    /// when its tool says so ([`TaskSupport`]: `Optional` for a client
    /// that takes tasks, `Required` for every client, refusing one that
    /// does not with `-32021`), and the server then declares the
    /// `io.modelcontextprotocol/tasks` extension.
    ///
    /// The call is answered at once with its task (`resultType: "task"`)
    /// and runs on in this process, on the path of a plain call (or a
    /// handler's of one's own: [`tasks_through`](Self::tasks_through));
    /// `tasks/get` reads its status: `working`; `input_required` with its
    /// input requests, when the call parks on a
    /// [`Request`](crate::canonical::Request) and the server answers
    /// parked calls ([`input_required`](Self::input_required)), answered
    /// by `tasks/update`, which resumes it once each request of the round
    /// has its response ([`update_task`](Self::update_task)); `completed` with the result
    /// the plain call would have answered (a tool's error result
    /// included); `failed` with a JSON-RPC error when the call could not
    /// be answered or its tool panicked; `cancelled` after `tasks/cancel`
    /// (which acknowledges a finished task as well, and leaves it as it
    /// was). A task unknown or past its `ttl` is an `invalid_params`
    /// error. Over a store every replica shares, any replica answers
    /// `tasks/get`, `tasks/update` and `tasks/cancel`; the call itself
    /// runs, and is cancelled, in the process that started it (and is
    /// resumed in the process that took the last response of its round),
    /// unless the store runs it ([`TaskStore::run`]: on Restate, with
    /// `toolresult-restate`'s `RestateTasks`, where a call parked on a
    /// request waits for input as well, and is resumed by the store with
    /// the client's answer: [`TaskStore::answer`]).
    ///
    /// A 2025 session whose client declared the extension is told of each
    /// change of its task's status (`notifications/tasks`, the task as
    /// `tasks/get` reads it), by the process that changed it: done,
    /// waiting for input, working again, cancelled (the task it is
    /// answered with is its first status). Over streamable HTTP these go
    /// to the session's `GET` stream. The progress of its call, asked with
    /// a `progressToken`, goes to that session as well. A 2026-07-28
    /// request has no session to push to (the extension routes status
    /// through `subscriptions/listen`, which this server does not serve,
    /// and gives a task's call no progress): its client polls `tasks/get`.
    /// A task whose store runs it is finished, and marked as waiting for
    /// input, by the store, and told of by no one.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolresult::mcp::McpServer;
    /// use toolresult::tool::{self, TaskSupport};
    /// use toolresult::toolbox::Toolbox;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Repo { url: String }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(
    ///     tool::function("build", "Build a repository", |r: Repo| r.url)?
    ///         .with_task_support(TaskSupport::Optional),
    /// )?;
    /// let server = McpServer::new(toolbox)?;
    /// assert!(server.session().get_info().capabilities.supports_tasks());
    /// # use rmcp::ServerHandler;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tasks(mut self, store: impl TaskStore, ttl: Duration) -> Self {
        self.tasks = Tasks {
            store: Arc::new(store),
            ttl,
            running: Arc::default(),
            through: self.tasks.through.take(),
        };
        self
    }

    /// `tasks/get` for a handler of one's own (as
    /// [`call_tool`](Self::call_tool)): the task as it stands.
    ///
    /// # Errors
    /// An `invalid_params` error for a task unknown or expired.
    pub async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let record = self.tasks.find(&request.task_id).await?;
        Ok(GetTaskResult::new(record.task))
    }

    /// `tasks/cancel` for a handler of one's own: cancels the task's call
    /// (through its turn's cancellation, when this process runs it), and
    /// the task reads as cancelled; a task already over is left as it was.
    ///
    /// # Errors
    /// An `invalid_params` error for a task unknown or expired.
    pub async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let id = &request.task_id;
        let mut record = self.tasks.find(id).await?;
        if record.is_over() {
            return Ok(());
        }
        if let Some(running) = self.tasks.forget(id) {
            running.cancel();
        }
        self.tasks.store.cancel(id).await.map_err(unavailable)?;
        record.moved_to(TaskPayload::Cancelled, SystemTime::now());
        self.tasks.write(id, &record).await?;
        notify::status(&context, &record.task).await;
        Ok(())
    }
}
