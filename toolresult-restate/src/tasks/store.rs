//! [`RestateTasks`]: the task store every replica of an MCP server is
//! given, over the Restate server's ingress and admin API.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime};

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use toolresult::canonical::Answer;

use super::{Failed, ParkedCall, checked, timestamp};
use crate::Parked;

/// The [`TaskStore`](toolresult::mcp::TaskStore) of an MCP server whose
/// tasks run on Restate: records in [`TaskRecords`](crate::TaskRecords), calls run by
/// [`TaskRunner`](crate::TaskRunner) (both bound in a service endpoint registered with the
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
    /// How long one request to the Restate server may take, by default:
    /// a task's record is read and written in milliseconds, and a server
    /// that stops answering must not hold a replica's `tasks/*` answer (or
    /// a parked call's journaled step) for ever.
    pub const TIMEOUT: Duration = Duration::from_secs(30);

    /// A store reaching the Restate server at `ingress` (its ingress URL,
    /// `http://host:8080`) and `admin` (its admin API, `http://host:9070`),
    /// each request bounded by [`TIMEOUT`](Self::TIMEOUT).
    #[must_use]
    pub fn new(ingress: impl Into<String>, admin: impl Into<String>) -> Self {
        Self {
            ingress: ingress.into().trim_end_matches('/').to_owned(),
            admin: admin.into().trim_end_matches('/').to_owned(),
            http: agent(Self::TIMEOUT),
        }
    }

    /// The same store, each request bounded by `timeout` (connecting,
    /// sending and reading the answer): past it, the request fails and the
    /// MCP request that needed it is answered with an internal error.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolresult_restate::RestateTasks;
    ///
    /// let store = RestateTasks::new("http://127.0.0.1:8080", "http://127.0.0.1:9070")
    ///     .with_timeout(Duration::from_secs(5));
    /// # drop(store);
    /// ```
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.http = agent(timeout);
        self
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

    /// Tells the task `id`'s record its call parked (`TaskRecords/park`),
    /// as of now.
    pub(super) async fn park(&self, id: &str, parked: &Parked) -> Result<(), Failed> {
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

/// An HTTP client that reads every status as an answer, each request
/// bounded by `timeout`.
fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .build()
        .into()
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

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::net::TcpListener;
    use std::time::{Duration, Instant};

    use toolresult::mcp::TaskStore;

    use super::RestateTasks;

    /// A Restate server that takes the request and never answers: the
    /// store's request fails at its timeout instead of hanging. The
    /// runtime is let go in the background, so a request that does hang
    /// fails the test rather than holding it.
    #[test]
    fn a_server_that_never_answers_fails_the_request_at_its_timeout() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            // Held open, read, never answered.
            let mut held = Vec::new();
            for mut stream in listener.incoming().flatten() {
                let mut buffer = [0; 1024];
                let _ = stream.read(&mut buffer);
                held.push(stream);
            }
        });
        let store = RestateTasks::new(&url, &url).with_timeout(Duration::from_millis(300));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let started = Instant::now();
        let read = runtime.block_on(async {
            tokio::time::timeout(Duration::from_secs(10), store.get("t-1")).await
        });
        runtime.shutdown_background();
        let read = read.expect("the store's request ends by itself");
        assert!(read.is_err(), "{read:?}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }
}
