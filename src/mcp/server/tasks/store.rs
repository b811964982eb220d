//! `TaskStore`: where a server keeps its tasks, and the one in memory it
//! keeps them in unless given another.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use rmcp::model::{CallToolRequestParams, InputRequest};
use serde_json::Value;

use super::super::McpServer;
use super::super::elicit::{self, Modes};
use crate::canonical::{Answer, Request};

/// What a [`TaskStore`] answers: a boxed future, or the store's error.
type Kept<'a, T> =
    Pin<Box<dyn Future<Output = Result<T, Box<dyn std::error::Error + Send + Sync>>> + Send + 'a>>;

/// Where an [`McpServer`](super::super::McpServer) keeps its tasks (MCP's
/// tasks extension): each task's record, a JSON document the server writes
/// and reads, by task id, until it expires. By default the server keeps
/// them in its own memory (one process: its tasks die with it); a store
/// every replica shares (a database, a key-value store) lets any replica
/// answer `tasks/get`, `tasks/update` and `tasks/cancel` for a task
/// another started ([`McpServer::tasks`](super::super::McpServer::tasks)).
///
/// The server writes a record whenever its task changes (started, waiting
/// for input, finished, cancelled), the last write wins, and a record is
/// never read after `expires`.
///
/// By default the server runs each task's call in its own process, and
/// the call dies with it. A store whose tasks run elsewhere (on a durable
/// runtime, as `toolresult-restate`'s do) says so in [`run`](Self::run),
/// cancels them in [`cancel`](Self::cancel) and resumes a call parked on a
/// request with the client's answer in [`answer`](Self::answer); the
/// record of such a task is then the store's to finish, and, while its
/// call waits for an answer, to mark as waiting for input, with the input
/// request [`McpServer::input_request`] makes of the call's request.
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use std::time::{Duration, SystemTime};
/// use toolresult::mcp::{McpServer, TaskStore};
/// use toolresult::toolbox::Toolbox;
///
/// #[derive(Default)]
/// struct Shared(Mutex<HashMap<String, (serde_json::Value, SystemTime)>>);
///
/// impl TaskStore for Shared {
///     fn put<'a>(&'a self, id: &'a str, record: serde_json::Value, expires: SystemTime)
///         -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), Box<dyn std::error::Error + Send + Sync>>> + Send + 'a>>
///     {
///         Box::pin(async move {
///             self.0.lock().map_err(|_| "poisoned")?.insert(id.to_owned(), (record, expires));
///             Ok(())
///         })
///     }
///     fn get<'a>(&'a self, id: &'a str)
///         -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Option<serde_json::Value>, Box<dyn std::error::Error + Send + Sync>>> + Send + 'a>>
///     {
///         Box::pin(async move {
///             let kept = self.0.lock().map_err(|_| "poisoned")?.get(id).cloned();
///             Ok(kept.filter(|(_, expires)| SystemTime::now() < *expires).map(|(record, _)| record))
///         })
///     }
/// }
///
/// let server = McpServer::new(Toolbox::new())?.tasks(Shared::default(), Duration::from_secs(3600));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait TaskStore: Send + Sync + 'static {
    /// Keeps `record` as the task `id`'s, in place of any earlier one,
    /// until `expires`.
    ///
    /// # Errors
    /// The store could not keep it.
    #[allow(clippy::type_complexity)]
    fn put<'a>(
        &'a self,
        id: &'a str,
        record: Value,
        expires: SystemTime,
    ) -> Pin<
        Box<dyn Future<Output = Result<(), Box<dyn std::error::Error + Send + Sync>>> + Send + 'a>,
    >;

    /// The record of the task `id`; `None` when there is none, or it
    /// expired.
    ///
    /// # Errors
    /// The store could not read it.
    #[allow(clippy::type_complexity)]
    fn get<'a>(
        &'a self,
        id: &'a str,
    ) -> Pin<
        Box<
            dyn Future<Output = Result<Option<Value>, Box<dyn std::error::Error + Send + Sync>>>
                + Send
                + 'a,
        >,
    >;

    /// Runs the call of the task `id` (`call`: its tool and arguments)
    /// where the store's tasks run, once its first record is kept, and
    /// says so (`true`); by default `false`: the server runs it in its own
    /// process.
    ///
    /// # Errors
    /// The call could not be started.
    #[allow(clippy::type_complexity)]
    fn run<'a>(
        &'a self,
        id: &'a str,
        call: &'a CallToolRequestParams,
    ) -> Pin<
        Box<
            dyn Future<Output = Result<bool, Box<dyn std::error::Error + Send + Sync>>> + Send + 'a,
        >,
    > {
        let _ = (id, call);
        Box::pin(std::future::ready(Ok(false)))
    }

    /// Resumes the call of the task `id`, parked where the store runs it
    /// on the request the client answered, with `answers` (the client's
    /// responses to the round's input requests, each read as an
    /// [`Answer`] to the request of its key, as the server reads them
    /// for a call it runs), and says so (`true`); by default `false`: the
    /// server resumes the calls it runs. The server has already kept the
    /// task's record as working again.
    ///
    /// # Errors
    /// The answers could not be delivered.
    #[allow(clippy::type_complexity)]
    fn answer<'a>(
        &'a self,
        id: &'a str,
        answers: &'a [Answer],
    ) -> Pin<
        Box<
            dyn Future<Output = Result<bool, Box<dyn std::error::Error + Send + Sync>>> + Send + 'a,
        >,
    > {
        let _ = (id, answers);
        Box::pin(std::future::ready(Ok(false)))
    }

    /// Cancels the call of the task `id` where the store runs it (the
    /// server then keeps the task's record as cancelled); by default
    /// nothing: the server cancels the calls it runs.
    ///
    /// # Errors
    /// The call could not be cancelled.
    #[allow(clippy::type_complexity)]
    fn cancel<'a>(
        &'a self,
        id: &'a str,
    ) -> Pin<
        Box<dyn Future<Output = Result<(), Box<dyn std::error::Error + Send + Sync>>> + Send + 'a>,
    > {
        let _ = id;
        Box::pin(std::future::ready(Ok(())))
    }
}

impl McpServer {
    /// The input request of a task whose call waits for `request`, as
    /// `tasks/get` shows it under the request's id: the
    /// `elicitation/create` the server asks it with (a URL elicitation for
    /// a request with a URL, else a form). For a [`TaskStore`] that runs
    /// tasks' calls and keeps the record of one that parks; no one client
    /// is at hand then, so it is asked as of a client that takes forms and
    /// URLs. `None` when MCP cannot ask it (a requested schema MCP does
    /// not allow): the call is to be answered with its pending result.
    ///
    /// ```
    /// use toolresult::canonical::Request;
    /// use toolresult::mcp::McpServer;
    ///
    /// let asked = McpServer::input_request(&Request::input("Which city?"))
    ///     .expect("a form MCP can ask");
    /// let asked = serde_json::to_value(asked)?;
    /// assert_eq!(asked["method"], "elicitation/create");
    /// assert_eq!(asked["params"]["message"], "Which city?");
    /// assert_eq!(asked["params"]["requestedSchema"]["required"][0], "input");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[must_use]
    pub fn input_request(request: &Request) -> Option<InputRequest> {
        elicit::input_request(request, Modes::ALL)
    }
}

/// The tasks of one process, in its memory: what a server keeps its tasks
/// in unless given a store.
#[derive(Debug, Default)]
pub(super) struct MemoryTasks {
    records: Mutex<HashMap<String, (Value, SystemTime)>>,
}

impl TaskStore for MemoryTasks {
    fn put<'a>(&'a self, id: &'a str, record: Value, expires: SystemTime) -> Kept<'a, ()> {
        let now = SystemTime::now();
        let mut records = self.records.lock().unwrap_or_else(PoisonError::into_inner);
        // Expired records go as new ones come: memory stays bounded by the
        // tasks alive.
        records.retain(|_, (_, until)| now < *until);
        records.insert(id.to_owned(), (record, expires));
        Box::pin(std::future::ready(Ok(())))
    }

    fn get<'a>(&'a self, id: &'a str) -> Kept<'a, Option<Value>> {
        let now = SystemTime::now();
        let records = self.records.lock().unwrap_or_else(PoisonError::into_inner);
        let record = records
            .get(id)
            .filter(|(_, until)| now < *until)
            .map(|(record, _)| record.clone());
        Box::pin(std::future::ready(Ok(record)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_record_is_read_until_it_expires() {
        let store = MemoryTasks::default();
        let now = SystemTime::now();
        store
            .put("a", Value::from(1), now + Duration::from_secs(60))
            .await
            .unwrap();
        store
            .put("b", Value::from(2), now - Duration::from_secs(1))
            .await
            .unwrap();
        assert_eq!(store.get("a").await.unwrap(), Some(Value::from(1)));
        assert_eq!(store.get("b").await.unwrap(), None, "expired");
        assert_eq!(store.get("c").await.unwrap(), None, "never kept");
    }
}
