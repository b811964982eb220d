//! A toolbox fed by an MCP server (`toolresult::mcp::McpClient`) that no
//! well-behaved server is: one that refuses a call with a JSON-RPC error
//! whose text holds a secret, one whose `tools/list` pages never end, one
//! that refuses the client's bearer token. Each is answered in bounded
//! time, the model never reads the server's or the transport's error
//! text, and no error carries the token.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool as McpTool,
};
use rmcp::service::{RequestContext, ServiceError};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;
use toolresult::mcp::McpClient;
use toolresult::provider::Call;
use toolresult::retry::StopReason;
use toolresult::tool::{Arguments, ToolSafety};
use toolresult::toolbox::Toolbox;

const LIMIT: Duration = Duration::from_secs(30);

async fn bounded<F: Future<Output = ()>>(test: F) {
    tokio::time::timeout(LIMIT, test)
        .await
        .expect("the test did not finish in time");
}

/// `server` on one end of an in-memory pipe, a client on the other.
async fn client_of<S: ServerHandler>(server: S) -> McpClient {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    McpClient::connect(client_end).await.unwrap()
}

fn lookup() -> McpTool {
    McpTool::new(
        "lookup",
        "Look a row up",
        Arc::new(serde_json::Map::from_iter([(
            "type".to_owned(),
            json!("object"),
        )])),
    )
}

/// Refuses every call with `invalid_params`, naming a secret.
#[derive(Clone, Default)]
struct Refusing {
    calls: Arc<AtomicU32>,
}

impl ServerHandler for Refusing {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![lookup()]))
    }

    async fn call_tool(
        &self,
        _: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Err(ErrorData::invalid_params(
            "bad query against postgres://admin:hunter2@db.internal/rows",
            None,
        ))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_is_permanent_and_its_text_stays_in_the_source() {
    bounded(async {
        let server = Refusing::default();
        let calls = Arc::clone(&server.calls);
        let client = client_of(server).await;
        let mut toolbox = Toolbox::new();
        for remote in client.tools().await.unwrap() {
            // Read-only: a failure the policy would retry if it were transient.
            toolbox
                .register(remote.with_safety(ToolSafety::ReadOnly))
                .unwrap();
        }
        let done = toolbox
            .run([Call::new("c1", "lookup", Arguments::Json(json!({})))])
            .await;
        let outcome = &done[0];
        assert_eq!(
            outcome.lowered.result.output,
            r#"{"error":{"message":"the mcp server of `lookup` refused the call: JSON-RPC error -32602 (invalid params)"}}"#
        );
        assert!(outcome.lowered.result.is_error);
        assert_eq!(outcome.lowered.diagnostics.is_transient(), Some(false));
        assert_eq!(outcome.stop, StopReason::Permanent);
        assert_eq!((outcome.attempts, calls.load(Ordering::SeqCst)), (1, 1));
        // The Rust channel keeps the server's own words.
        let source = outcome.lowered.diagnostics.source().unwrap();
        let Some(ServiceError::McpError(refusal)) = source.downcast_ref::<ServiceError>() else {
            panic!("{source:?}");
        };
        assert!(refusal.message.contains("hunter2"));
    })
    .await;
}

/// Ignores the cursor: every page says there is another.
#[derive(Clone, Default)]
struct Looping {
    pages: Arc<AtomicU32>,
    /// A new cursor every page (never repeated) instead of the same one.
    fresh: bool,
}

impl ServerHandler for Looping {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let page = self.pages.fetch_add(1, Ordering::SeqCst);
        let mut listed = ListToolsResult::with_all_items(vec![lookup()]);
        listed.next_cursor = Some(if self.fresh {
            format!("page-{page}")
        } else {
            "again".to_owned()
        });
        Ok(listed)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_that_never_end_are_an_error_not_a_hang() {
    bounded(async {
        // The same cursor again: refused at its second sight.
        let server = Looping::default();
        let pages = Arc::clone(&server.pages);
        let client = client_of(server).await;
        let listed = client.tools().await;
        assert!(
            matches!(listed, Err(ServiceError::UnexpectedResponse)),
            "{:?}",
            listed.map(|tools| tools.len())
        );
        assert_eq!(pages.load(Ordering::SeqCst), 2);

        // A new cursor every time: refused after 1,000 pages.
        let server = Looping {
            fresh: true,
            ..Looping::default()
        };
        let pages = Arc::clone(&server.pages);
        let client = client_of(server).await;
        let listed = client.tools().await;
        assert!(
            matches!(listed, Err(ServiceError::UnexpectedResponse)),
            "{:?}",
            listed.map(|tools| tools.len())
        );
        assert_eq!(pages.load(Ordering::SeqCst), 1_000);
    })
    .await;
}

/// A server that refuses every request's token with a 401 and a
/// challenge; its URL.
async fn refusing_every_token() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let refuse = hyper::service::service_fn(|_| async {
                hyper::Response::builder()
                    .status(401)
                    .header(
                        "www-authenticate",
                        r#"Bearer error="invalid_token", scope="mcp:read""#,
                    )
                    .body(String::new())
            });
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, refuse)
                    .await;
            });
        }
    });
    format!("http://{address}/mcp")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_appears_in_no_error_span_or_event_of_the_failed_authorization() {
    bounded(async {
        const TOKEN: &str = "tok-5ecret-never-to-be-seen";
        let traced = Traced::everything();
        let url = refusing_every_token().await;
        let config =
            rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
                url,
            )
            .auth_header(TOKEN);
        let transport = rmcp::transport::StreamableHttpClientTransport::from_config(config);
        let refused = McpClient::connect(transport).await.unwrap_err();
        let mut chain = vec![format!("{refused}"), format!("{refused:?}")];
        let mut source = std::error::Error::source(&refused);
        while let Some(cause) = source {
            chain.push(format!("{cause}"));
            chain.push(format!("{cause:?}"));
            source = cause.source();
        }
        let said = chain.join("\n");
        // The failure says what happened: the server asked for
        // authorization.
        assert!(said.to_lowercase().contains("auth"), "{said}");
        assert!(!said.contains(TOKEN), "{said}");
        // Nor any span or event (the crate's, rmcp's, hyper's), at any level.
        let traced = traced.text();
        assert!(!traced.is_empty(), "the capture saw the connection");
        assert!(!traced.contains(TOKEN), "{traced}");
        assert!(!traced.contains("5ecret"), "{traced}");
    })
    .await;
}

/// Every field of every span and event, at every level, as text: what a
/// log or a trace exporter could be given.
#[derive(Clone, Default)]
struct Traced(Arc<std::sync::Mutex<String>>);

impl Traced {
    /// Captures everything from now on, process-wide (this test binary's
    /// only subscriber).
    fn everything() -> Self {
        use tracing_subscriber::layer::SubscriberExt as _;
        let traced = Self::default();
        let subscriber = tracing_subscriber::registry().with(traced.clone());
        tracing::subscriber::set_global_default(subscriber).unwrap();
        traced
    }

    fn text(&self) -> String {
        self.0.lock().unwrap().clone()
    }
}

impl tracing::field::Visit for &Traced {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        let line = format!("{}={value:?}\n", field.name());
        self.0.lock().unwrap().push_str(&line);
    }
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Traced {
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        _: &tracing::span::Id,
        _: tracing_subscriber::layer::Context<'_, S>,
    ) {
        attrs.record(&mut &*self);
    }

    fn on_record(
        &self,
        _: &tracing::span::Id,
        values: &tracing::span::Record<'_>,
        _: tracing_subscriber::layer::Context<'_, S>,
    ) {
        values.record(&mut &*self);
    }

    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        event.record(&mut &*self);
    }
}

/// What a hand-written server answers a request: its status, a
/// `WWW-Authenticate`, and the JSON-RPC `result`.
type Reply = (u16, Option<&'static str>, serde_json::Value);

/// A 2026-07-28 server over HTTP on 127.0.0.1, each request's JSON
/// answered by `answer` (given the request's method and params), discovery and
/// notifications by itself. Its URL.
async fn serving_json<F>(answer: F) -> String
where
    F: Fn(&str, &serde_json::Value) -> Reply + Clone + Send + Sync + 'static,
{
    use hyper::body::Body as _;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let answer = answer.clone();
            let service = hyper::service::service_fn(move |request: hyper::Request<_>| {
                let answer = answer.clone();
                async move {
                    let mut incoming: hyper::body::Incoming = request.into_body();
                    let mut bytes = Vec::new();
                    while let Some(Ok(frame)) =
                        std::future::poll_fn(|cx| std::pin::Pin::new(&mut incoming).poll_frame(cx))
                            .await
                    {
                        if let Ok(data) = frame.into_data() {
                            bytes.extend_from_slice(&data);
                        }
                    }
                    let asked: serde_json::Value =
                        serde_json::from_slice(&bytes).unwrap_or_default();
                    let (status, challenge, result) = match asked["method"].as_str() {
                        None | Some("notifications/initialized") => {
                            return hyper::Response::builder().status(202).body(String::new());
                        }
                        Some(method) if method.starts_with("notifications/") => {
                            return hyper::Response::builder().status(202).body(String::new());
                        }
                        Some("server/discover") => (
                            200,
                            None,
                            json!({
                                "resultType": "complete", "supportedVersions": ["2026-07-28"],
                                "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "private",
                                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}},
                            }),
                        ),
                        Some(method) => answer(method, &asked["params"]),
                    };
                    let mut response = hyper::Response::builder()
                        .status(status)
                        .header("content-type", "application/json");
                    if let Some(challenge) = challenge {
                        response = response.header("www-authenticate", challenge);
                    }
                    let body = json!({"jsonrpc": "2.0", "id": asked["id"], "result": result});
                    response.body(if status == 200 {
                        body.to_string()
                    } else {
                        String::new()
                    })
                }
            });
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service)
                    .await;
            });
        }
    });
    format!("http://{address}/mcp")
}

/// `tools/list` of the hand-written servers: one tool, `name`.
fn listing(name: &str) -> Reply {
    (
        200,
        None,
        json!({
            "resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "tools": [{"name": name, "inputSchema": {"type": "object"}}],
        }),
    )
}

/// A server whose tool `write` needs a scope the client's token lacks
/// until `granted` is set: it answers `tools/call` with 403
/// `insufficient_scope` till then. Its URL.
async fn wanting_scope(granted: Arc<std::sync::atomic::AtomicBool>) -> String {
    serving_json(move |method, _| match method {
        "tools/list" => listing("write"),
        _ if !granted.load(Ordering::SeqCst) => (403, Some(r#"Bearer scope="mcp:write", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", error="insufficient_scope""#), json!({})),
        _ => (200, None, json!({
            "resultType": "complete",
            "content": [{"type": "text", "text": "written"}],
        })),
    })
    .await
}

/// Toolbox of the tools of the server at `url`.
async fn toolbox_at(url: String) -> Toolbox {
    let client = McpClient::connect(rmcp::transport::StreamableHttpClientTransport::from_uri(
        url,
    ))
    .await
    .unwrap();
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(10));
    for tool in client.tools().await.unwrap() {
        toolbox.register(tool).unwrap();
    }
    toolbox
}

/// A server whose tool `research` runs as a task: created by
/// `tools/call`, working (with a status message) for `working` polls,
/// then complete; the `tasks/cancel` it was sent, counted.
async fn tasking(working: u32, cancelled: Arc<AtomicU32>) -> String {
    let polls = Arc::new(AtomicU32::new(0));
    let task = |status: &str| {
        json!({
            "taskId": "t1", "status": status, "createdAt": "2026-01-01T00:00:00Z",
            "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttlMs": null, "pollIntervalMs": 10,
        })
    };
    serving_json(move |method, _| match method {
        "tools/list" => listing("research"),
        "tools/call" => {
            let mut created = task("working");
            created["resultType"] = json!("task");
            (200, None, created)
        }
        "tasks/get" if polls.fetch_add(1, Ordering::SeqCst) < working => {
            let mut got = task("working");
            got["statusMessage"] = json!("Gathering sources");
            (200, None, got)
        }
        "tasks/get" => {
            let mut got = task("completed");
            got["result"] = json!({"content": [{"type": "text", "text": "report"}]});
            (200, None, got)
        }
        "tasks/cancel" => {
            cancelled.fetch_add(1, Ordering::SeqCst);
            (200, None, json!({"resultType": "complete"}))
        }
        _ => (200, None, json!({})),
    })
    .await
}

/// A server whose tool `research` runs as a task that asks, once, which
/// topic (an elicitation among its input requests), and reports on the
/// one the client's `tasks/update` names.
async fn tasking_with_a_question() -> String {
    let picked = Arc::new(std::sync::Mutex::new(None::<String>));
    let task = |status: &str| {
        json!({
            "taskId": "t1", "status": status, "createdAt": "2026-01-01T00:00:00Z",
            "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttlMs": null, "pollIntervalMs": 10,
        })
    };
    serving_json(move |method, params| match method {
        "tools/list" => listing("research"),
        "tools/call" => {
            let mut created = task("working");
            created["resultType"] = json!("task");
            (200, None, created)
        }
        "tasks/update" => {
            let pick = params["inputResponses"]["clarify"]["content"]["pick"].as_str();
            *picked.lock().unwrap() = pick.map(str::to_owned);
            (200, None, json!({"resultType": "complete"}))
        }
        "tasks/get" => match picked.lock().unwrap().clone() {
            None => {
                let mut got = task("input_required");
                got["inputRequests"] = json!({"clarify": {"method": "elicitation/create",
                    "params": {"mode": "form", "message": "Which topic?", "requestedSchema": {
                        "type": "object", "properties": {"pick": {"type": "string"}},
                        "required": ["pick"]}}}});
                (200, None, got)
            }
            Some(pick) => {
                let mut got = task("completed");
                got["result"] =
                    json!({"content": [{"type": "text", "text": format!("report on {pick}")}]});
                (200, None, got)
            }
        },
        _ => (200, None, json!({})),
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_question_is_the_calls_request_and_its_answer_goes_back() {
    bounded(async {
        let toolbox = toolbox_at(tasking_with_a_question().await).await;
        let call = Call::new("c1", "research", Arguments::Json(json!({})));
        let parked = toolbox.run([call]).await;
        let request = parked[0]
            .lowered
            .result
            .pending_request()
            .unwrap_or_else(|| panic!("{:?}", parked[0].lowered.result));
        assert_eq!(request.prompt, "Which topic?");
        let answer = toolresult::canonical::Answer::granted(
            &request.id,
            Some(serde_json::Map::from_iter([(
                "pick".to_owned(),
                json!("tides"),
            )])),
        );
        let turn = toolresult::toolbox::Turn::default()
            .resume(&parked[0], answer)
            .unwrap();
        let done = toolbox.run(turn).await;
        assert_eq!(done[0].lowered.result.output, "report on tides");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_polled_to_its_result_and_cancelled_with_its_call() {
    bounded(async {
        let cancelled = Arc::new(AtomicU32::new(0));
        let toolbox = toolbox_at(tasking(3, Arc::clone(&cancelled)).await).await;
        let said = Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = Arc::clone(&said);
        let turn = toolresult::toolbox::Turn::new([Call::new(
            "c1",
            "research",
            Arguments::Json(json!({})),
        )])
        .with_observer(move |event: &toolresult::tool::CallEvent<'_>| {
            if let toolresult::tool::CallEvent::Log { message, .. } = *event {
                sink.lock().unwrap().push(message.to_owned());
            }
        });
        let done = toolbox.run(turn).await;
        assert_eq!(done[0].lowered.result.output, "report");
        assert_eq!(*said.lock().unwrap(), ["Gathering sources"]);
        assert_eq!(cancelled.load(Ordering::SeqCst), 0);

        // A task that never ends, its turn cancelled.
        let toolbox = toolbox_at(tasking(u32::MAX, Arc::clone(&cancelled)).await).await;
        let token = tokio_util::sync::CancellationToken::new();
        let cancel = token.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            cancel.cancel();
        });
        let turn = toolresult::toolbox::Turn::new([Call::new(
            "c2",
            "research",
            Arguments::Json(json!({})),
        )])
        .with_cancellation(token);
        let done = toolbox.run(turn).await;
        assert_eq!(
            done[0].lowered.result.output,
            r#"{"error":{"message":"the call was cancelled before it finished"}}"#
        );
        while cancelled.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_wanting_more_scope_asks_the_caller_for_an_authorization() {
    bounded(async {
        for grant in [true, false] {
            let granted = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let toolbox = toolbox_at(wanting_scope(Arc::clone(&granted)).await).await;
            let call = Call::new("c1", "write", Arguments::Json(json!({})));
            let parked = toolbox.run([call]).await;
            let request = parked[0]
                .lowered
                .result
                .pending_request()
                .unwrap_or_else(|| panic!("{:?}", parked[0].lowered.result));
            assert_eq!(request.kind, toolresult::canonical::Request::AUTHORIZATION);
            assert_eq!(
                request.url.as_deref(),
                Some("http://127.0.0.1/.well-known/oauth-protected-resource/mcp")
            );
            assert_eq!(request.data.as_ref().unwrap()["scope"], "mcp:write");
            // The caller authorizes (here: the server now takes the token).
            granted.store(grant, Ordering::SeqCst);
            let answer = if grant {
                toolresult::canonical::Answer::granted(&request.id, None)
            } else {
                toolresult::canonical::Answer::declined(&request.id, "not now")
            };
            let turn = toolresult::toolbox::Turn::default()
                .resume(&parked[0], answer)
                .unwrap();
            let done = toolbox.run(turn).await;
            if grant {
                assert_eq!(done[0].lowered.result.output, "written");
            } else {
                assert_eq!(
                    done[0].lowered.result.output,
                    r#"{"error":{"message":"the authorization `write` needs was declined: not now"}}"#
                );
            }
        }
    })
    .await;
}
