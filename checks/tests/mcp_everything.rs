//! The tools of a real MCP server this repository did not write, the
//! reference server `@modelcontextprotocol/server-everything` (npm,
//! version 2026.8.31, on Node 22), consumed through `McpClient` over its
//! child process's stdio and run in one `Toolbox` beside an in-process
//! tool: declarations from its `tools/list`, results, its progress reaching
//! the turn's observer, an `isError` result, a cancellation, the 2025
//! handshake it speaks, its elicitation as the call's pending request, its
//! tool that requires a task (2025-11-25) called to its result, asking
//! its question, and cancelled mid-way.
//!
//! Needs the server and Node 22: `.ci/mcp-servers.sh` installs both under
//! `.ci/.conformance` (found there), or set `MCP_EVERYTHING_SERVER` to the
//! server's `dist/index.js` and `MCP_NODE` to a `node` of version 22 or
//! newer. Without them each test says it was skipped and passes.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use toolresult::mcp::McpClient;
use toolresult::provider::Call;
use toolresult::tool::{self, Arguments, CallEvent, Tool as _, ToolSafety};
use toolresult::toolbox::{Toolbox, Turn};

const VERSION: &str = "2026.8.31";

/// The server's script and the `node` to run it with: the environment's,
/// or what `.ci/mcp-servers.sh` installed.
fn server() -> Option<(PathBuf, PathBuf)> {
    let installed =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.ci/.conformance/node_modules");
    let script = std::env::var_os("MCP_EVERYTHING_SERVER").map_or_else(
        || installed.join("@modelcontextprotocol/server-everything/dist/index.js"),
        PathBuf::from,
    );
    let node =
        std::env::var_os("MCP_NODE").map_or_else(|| installed.join(".bin/node"), PathBuf::from);
    if script.is_file() && node.is_file() {
        Some((script, node))
    } else {
        println!(
            "skipped: needs @modelcontextprotocol/server-everything@{VERSION} and Node 22; \
             install both with `.ci/mcp-servers.sh` (or set MCP_EVERYTHING_SERVER to its \
             dist/index.js and MCP_NODE to a node 22)"
        );
        None
    }
}

/// The server as a child process, connected; the child, killed on drop.
async fn connect(script: &PathBuf, node: &PathBuf) -> (McpClient, tokio::process::Child) {
    let (client, child, _said) = connect_recorded(script, node).await;
    (client, child)
}

/// A cancellation that comes after `delay`.
fn cancelled_after(delay: Duration) -> CancellationToken {
    let token = CancellationToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(delay).await;
        cancel.cancel();
    });
    token
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    city: String,
}

/// What the client sent and heard, as JSON, in order.
type Said = Arc<Mutex<Vec<Value>>>;

/// The client's transport, recording every message either way.
struct Recorded<T> {
    inner: T,
    said: Said,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Recorded<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.said
            .lock()
            .unwrap()
            .push(serde_json::to_value(&item).unwrap());
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        self.said
            .lock()
            .unwrap()
            .push(serde_json::to_value(&message).unwrap());
        Some(message)
    }

    fn close(&mut self) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// The server as a child process, connected through a recorded
/// transport; the child, killed on drop.
async fn connect_recorded(
    script: &PathBuf,
    node: &PathBuf,
) -> (McpClient, tokio::process::Child, Said) {
    let mut child = tokio::process::Command::new(node)
        .arg(script)
        .arg("stdio")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let stdin = child.stdin.take().unwrap();
    let said = Said::default();
    let transport = Recorded {
        inner: AsyncRwTransport::<RoleClient, _, _>::new_client(stdout, stdin),
        said: Arc::clone(&said),
    };
    let client = McpClient::connect(transport).await.unwrap();
    (client, child, said)
}

/// The server's tools, and an in-process `local_echo`, in one toolbox.
async fn toolbox(client: &McpClient) -> Toolbox {
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(20));
    for remote in client.tools().await.unwrap() {
        toolbox.register(remote).unwrap();
    }
    toolbox
        .register(
            tool::function("local_echo", "Echo a city", |c: City| c.city)
                .unwrap()
                .with_safety(ToolSafety::ReadOnly),
        )
        .unwrap();
    toolbox
}

fn call(id: &str, name: &str, arguments: Value) -> Call {
    Call::new(id, name, Arguments::Json(arguments))
}

async fn bounded(test: impl std::future::Future<Output = ()>) {
    tokio::time::timeout(Duration::from_secs(60), test)
        .await
        .expect("the test did not finish in time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_tools_are_declared_from_its_tools_list() {
    let Some((script, node)) = server() else {
        return;
    };
    bounded(async {
        let (client, _child) = connect(&script, &node).await;
        let toolbox = toolbox(&client).await;
        let names: Vec<&str> = toolbox.names().collect();
        for expected in [
            "echo",
            "get-sum",
            "get-structured-content",
            "trigger-long-running-operation",
            "local_echo",
        ] {
            assert!(names.contains(&expected), "{expected} in {names:?}");
        }
        let echo = toolbox.get("echo").unwrap();
        assert_eq!(echo.description(), "Echoes back the input string");
        assert_eq!(echo.title(), Some("Echo Tool"));
        let schema = serde_json::to_value(echo.input_schema()).unwrap();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["properties"]["message"]["type"], "string");
        assert_eq!(schema["required"], json!(["message"]));
        // The server's annotations are its word: the tool claims nothing
        // until the user trusts them.
        assert_eq!(echo.safety(), ToolSafety::Destructive);
        let trusted = client
            .tools()
            .await
            .unwrap()
            .into_iter()
            .find(|t| t.name() == "echo")
            .unwrap()
            .trusting_annotations();
        assert_eq!(trusted.safety(), ToolSafety::ReadOnly, "readOnlyHint");
        let structured = toolbox.get("get-structured-content").unwrap();
        let output = serde_json::to_value(structured.output_schema()).unwrap();
        assert_eq!(output["properties"]["temperature"]["type"], "number");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_runs_its_tools_beside_a_local_one_with_progress_and_error_results() {
    let Some((script, node)) = server() else {
        return;
    };
    bounded(async {
        let (client, _child) = connect(&script, &node).await;
        let toolbox = toolbox(&client).await;
        let progress = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&progress);
        let turn = Turn::new([
            call("c1", "echo", json!({"message": "hi"})),
            call("c2", "get-sum", json!({"a": 2, "b": 40})),
            call("c3", "local_echo", json!({"city": "Oslo"})),
            call(
                "c4",
                "get-structured-content",
                json!({"location": "Chicago"}),
            ),
            call("c5", "get-sum", json!({"a": "two", "b": 40})),
            call(
                "c6",
                "trigger-long-running-operation",
                json!({"duration": 0.5, "steps": 5}),
            ),
        ])
        .with_observer(move |event: &CallEvent<'_>| {
            if let CallEvent::Progress {
                call_id,
                done,
                total,
                ..
            } = *event
            {
                sink.lock().unwrap().push((call_id.to_owned(), done, total));
            }
        });
        let done = toolbox.run(turn).await;
        assert_eq!(done[0].lowered.result.output, "Echo: hi");
        assert!(!done[0].lowered.result.is_error);
        assert_eq!(done[1].lowered.result.output, "The sum of 2 and 40 is 42.");
        assert_eq!(done[2].lowered.result.output, "Oslo");
        assert_eq!(
            done[3].lowered.structured_content().map(|raw| raw.get()),
            Some(r#"{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}"#)
        );
        // The server's `isError` result is an error result.
        assert!(done[4].lowered.result.is_error);
        assert!(
            done[4]
                .lowered
                .result
                .output
                .contains("Input validation error"),
            "{}",
            done[4].lowered.result.output
        );
        assert_eq!(
            done[5].lowered.result.output,
            "Long running operation completed. Duration: 0.5 seconds, Steps: 5."
        );
        // Its progress reached the turn's observer, strictly increasing.
        let progress = progress.lock().unwrap().clone();
        let c6: Vec<(f64, Option<f64>)> = progress
            .iter()
            .filter(|(id, ..)| id == "c6")
            .map(|&(_, done, total)| (done, total))
            .collect();
        assert!(!c6.is_empty(), "{progress:?}");
        assert!(c6.windows(2).all(|pair| pair[0].0 < pair[1].0), "{c6:?}");
        assert!(
            c6.iter()
                .all(|&(done, total)| (1.0..=5.0).contains(&done) && total == Some(5.0)),
            "{c6:?}"
        );
        assert!(progress.iter().all(|(id, ..)| id == "c6"), "{progress:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_turn_stops_waiting_for_the_server_which_serves_on() {
    let Some((script, node)) = server() else {
        return;
    };
    bounded(async {
        let (client, _child) = connect(&script, &node).await;
        let toolbox = toolbox(&client).await;
        let token = cancelled_after(Duration::from_millis(500));
        let started = Instant::now();
        let turn = Turn::new([
            call(
                "c1",
                "trigger-long-running-operation",
                json!({"duration": 30, "steps": 30}),
            ),
            call("c2", "local_echo", json!({"city": "Lima"})),
        ])
        .with_cancellation(token);
        let done = toolbox.run(turn).await;
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(
            done[0].lowered.result.output,
            r#"{"error":{"message":"the call was cancelled before it finished"}}"#
        );
        assert_eq!(done[1].lowered.result.output, "Lima");
        // The server took the cancellation and serves the next call.
        let after = toolbox
            .run([call("c3", "echo", json!({"message": "still here"}))])
            .await;
        assert_eq!(after[0].lowered.result.output, "Echo: still here");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_2026_is_spoken_to_with_the_2025_handshake() {
    let Some((script, node)) = server() else {
        return;
    };
    bounded(async {
        let (client, _child) = connect(&script, &node).await;
        // It answers `server/discover` as a method it does not know.
        assert_eq!(
            client.protocol_version(),
            Some(rmcp::model::ProtocolVersion::V_2025_11_25)
        );
        let toolbox = toolbox(&client).await;
        let done = toolbox
            .run([call("c1", "echo", json!({"message": "hi"}))])
            .await;
        assert_eq!(done[0].lowered.result.output, "Echo: hi");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_elicitation_is_the_calls_request_and_the_answer_goes_back() {
    let Some((script, node)) = server() else {
        return;
    };
    bounded(async {
        let (client, _child) = connect(&script, &node).await;
        let toolbox = toolbox(&client).await;
        for (answer, expected) in [
            (Some("Ada Lovelace"), "\"name\": \"Ada Lovelace\""),
            (None, "\"action\": \"decline\""),
        ] {
            let parked = toolbox
                .run([call("c1", "trigger-elicitation-request", json!({}))])
                .await;
            let request = parked[0]
                .lowered
                .result
                .pending_request()
                .unwrap_or_else(|| panic!("{:?}", parked[0].lowered.result));
            assert_eq!(
                request.prompt,
                "Please provide inputs for the following fields:"
            );
            let schema = &request.data.as_ref().unwrap()["requestedSchema"];
            assert_eq!(schema["required"], json!(["name"]));
            let reply = match answer {
                Some(name) => toolresult::canonical::Answer::granted(
                    &request.id,
                    Some(serde_json::Map::from_iter([(
                        "name".to_owned(),
                        json!(name),
                    )])),
                ),
                None => toolresult::canonical::Answer::declined(&request.id, "decline"),
            };
            let done = toolbox
                .run(Turn::default().resume(&parked[0], reply).unwrap())
                .await;
            let output = &done[0].lowered.result.output;
            assert!(output.contains(expected), "{output}");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_requires_a_task_is_called_as_one_to_its_result() {
    let Some((script, node)) = server() else {
        return;
    };
    bounded(async {
        let (client, _child) = connect(&script, &node).await;
        let toolbox = toolbox(&client).await;
        let logs = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&logs);
        let turn = Turn::new([call(
            "c1",
            "simulate-research-query",
            json!({"topic": "rust ownership"}),
        )])
        .with_observer(move |event: &CallEvent<'_>| {
            if let CallEvent::Log { message, .. } = *event {
                sink.lock().unwrap().push(message.to_owned());
            }
        });
        let done = toolbox.run(turn).await;
        let result = &done[0].lowered.result;
        assert!(!result.is_error, "{}", result.output);
        assert!(
            result.output.contains("# Research Report: rust ownership"),
            "{}",
            result.output
        );
        // The task's status messages reached the call's log, each once.
        let logs = logs.lock().unwrap().clone();
        assert_eq!(
            logs.first().map(String::as_str),
            Some("Gathering sources...")
        );
        assert!(logs.len() >= 2, "{logs:?}");
        assert!(logs.windows(2).all(|pair| pair[0] != pair[1]), "{logs:?}");
        // Called again, it is a task at once.
        let again = toolbox
            .run([call(
                "c2",
                "simulate-research-query",
                json!({"topic": "tides"}),
            )])
            .await;
        assert!(
            again[0]
                .lowered
                .result
                .output
                .contains("# Research Report: tides"),
            "{}",
            again[0].lowered.result.output
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_of_a_cancelled_turn_is_cancelled_on_its_server() {
    let Some((script, node)) = server() else {
        return;
    };
    bounded(async {
        let (client, _child, said) = connect_recorded(&script, &node).await;
        let toolbox = toolbox(&client).await;
        let token = cancelled_after(Duration::from_millis(1500));
        let started = Instant::now();
        let turn = Turn::new([call(
            "c1",
            "simulate-research-query",
            json!({"topic": "rust"}),
        )])
        .with_cancellation(token);
        let done = toolbox.run(turn).await;
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(
            done[0].lowered.result.output,
            r#"{"error":{"message":"the call was cancelled before it finished"}}"#
        );
        // The task the server created is cancelled, in its own words.
        let created = || {
            let said = said.lock().unwrap();
            said.iter()
                .find_map(|m| m["result"]["task"]["taskId"].as_str().map(str::to_owned))
        };
        let task = created().expect("the server created a task");
        let cancelled = || {
            let said = said.lock().unwrap();
            let asked = said.iter().find_map(|m| {
                (m["method"] == "tasks/cancel" && m["params"]["taskId"] == task.as_str())
                    .then(|| m["id"].clone())
            })?;
            said.iter()
                .find(|m| m["id"] == asked && m.get("method").is_none())
                .map(|m| m["result"]["status"].clone())
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while cancelled().is_none() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(cancelled(), Some(json!("cancelled")));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_question_is_the_calls_request_and_the_answer_goes_back() {
    let Some((script, node)) = server() else {
        return;
    };
    bounded(async {
        let (client, _child) = connect(&script, &node).await;
        let toolbox = toolbox(&client).await;
        let parked = toolbox
            .run([call(
                "c1",
                "simulate-research-query",
                json!({"topic": "python", "ambiguous": true}),
            )])
            .await;
        let request = parked[0]
            .lowered
            .result
            .pending_request()
            .unwrap_or_else(|| panic!("{:?}", parked[0].lowered.result));
        assert!(
            request
                .prompt
                .contains("could have multiple interpretations"),
            "{}",
            request.prompt
        );
        let schema = &request.data.as_ref().unwrap()["requestedSchema"];
        assert_eq!(schema["required"], json!(["interpretation"]));
        let reply = toolresult::canonical::Answer::granted(
            &request.id,
            Some(serde_json::Map::from_iter([(
                "interpretation".to_owned(),
                json!("snake"),
            )])),
        );
        let done = toolbox
            .run(Turn::default().resume(&parked[0], reply).unwrap())
            .await;
        let output = &done[0].lowered.result.output;
        assert!(
            output.contains("# Research Report: python (snake)"),
            "{output}"
        );
    })
    .await;
}
