//! What a tool sees of its call through its `CallContext`, inside a
//! toolbox: its id, attempt and deadline; its turn's cancellation (paused
//! tokio time); progress an observer receives in order; values its caller
//! attached; the answer it resumes with. And the holes a hostile-input run
//! found: a FIFO planted in a file store, arguments echoed whole, a call
//! polled after it completed.

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tokio_util::sync::CancellationToken;
use toolresult::canonical::{Answer, Request};
use toolresult::provider::Call;
use toolresult::retry::{Backoff, RetryPolicy, StopReason};
use toolresult::tool::{self, Arguments, CallContext, CallEvent, LogLevel, Tool, ToolSafety};
use toolresult::toolbox::{Toolbox, Turn};
use toolresult::{Failure, ToolError, ToolResult};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Count {
    n: u64,
}

fn paused() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

fn call(id: &str, name: &str) -> Call {
    Call::new(id, name, Arguments::Json(json!({})))
}

#[test]
fn a_tool_reads_its_call_id_attempt_and_deadline() {
    paused().block_on(async {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let mut toolbox = Toolbox::new().timeout(Duration::from_secs(30)).retry(
            RetryPolicy::new()
                .max_attempts(3)
                .backoff(Backoff::constant(Duration::from_secs(1))),
        );
        toolbox
            .register(
                tool::function(
                    "flaky",
                    "Fails twice",
                    move |_: NoArgs, cx: &CallContext| {
                        let left = cx.deadline().unwrap() - tokio::time::Instant::now().into_std();
                        sink.lock().unwrap().push((
                            cx.call_id().to_owned(),
                            cx.tool_name().to_owned(),
                            cx.attempt(),
                            left,
                        ));
                        if cx.attempt() < 3 {
                            return ToolResult::<String>::fail(
                                Failure::new(ToolError::new("busy")).transient(),
                            );
                        }
                        ToolResult::ok(format!("done on attempt {}", cx.attempt()))
                    },
                )
                .unwrap()
                .with_safety(ToolSafety::ReadOnly),
            )
            .unwrap();
        let outcomes = toolbox.run([call("call_7", "flaky")]).await;
        assert_eq!(outcomes[0].lowered.result.output, "done on attempt 3");
        let seen = seen.lock().unwrap();
        let attempts: Vec<(&str, &str, u32)> = seen
            .iter()
            .map(|(id, tool, attempt, _)| (id.as_str(), tool.as_str(), *attempt))
            .collect();
        assert_eq!(
            attempts,
            [
                ("call_7", "flaky", 1),
                ("call_7", "flaky", 2),
                ("call_7", "flaky", 3)
            ]
        );
        // Each attempt's deadline is its own timeout from its start.
        assert!(
            seen.iter()
                .all(|(.., left)| *left == Duration::from_secs(30))
        );
    });
}

#[test]
fn a_tool_stops_when_its_turn_is_cancelled_and_the_call_is_answered_once() {
    paused().block_on(async {
        let stopped = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stopped);
        let seen_by_handed_off = Arc::new(Mutex::new(None));
        let handed_off = Arc::clone(&seen_by_handed_off);
        let started = tokio::time::Instant::now();
        let mut toolbox = Toolbox::new().timeout(None);
        toolbox
            .register(
                tool::function(
                    "watch",
                    "Waits until cancelled",
                    move |_: NoArgs, cx: CallContext<'static>| {
                        let sink = Arc::clone(&sink);
                        let handed_off = Arc::clone(&handed_off);
                        async move {
                            // Work the tool hands off sees the cancellation too.
                            let token = cx.cancellation_token();
                            tokio::spawn(async move {
                                token.cancelled().await;
                                *handed_off.lock().unwrap() = Some(started.elapsed());
                            });
                            tokio::select! {
                                () = cx.cancelled() => sink.lock().unwrap().push("saw the cancel"),
                                () = tokio::time::sleep(Duration::from_secs(3600)) => {}
                            }
                            sink.lock().unwrap().push("stopped");
                            "finished"
                        }
                    },
                )
                .unwrap(),
            )
            .unwrap();
        let token = CancellationToken::new();
        let cancel = token.clone();
        let (outcomes, ()) = tokio::join!(
            toolbox.run(Turn::new([call("c1", "watch")]).with_cancellation(token)),
            async move {
                tokio::time::sleep(Duration::from_secs(5)).await;
                cancel.cancel();
            }
        );
        assert_eq!(started.elapsed(), Duration::from_secs(5));
        assert_eq!(outcomes.len(), 1, "answered once");
        assert_eq!(outcomes[0].call.id, "c1");
        assert_eq!(outcomes[0].stop, StopReason::Cancelled);
        assert_eq!(
            outcomes[0].lowered.result.output,
            r#"{"error":{"message":"the call was cancelled before it finished"}}"#
        );
        // The turn answers at the cancel: the tool's future is dropped there,
        // whether or not it was polled once more.
        assert!(stopped.lock().unwrap().len() <= 2);
        // The work the tool handed off was told, at the cancel.
        tokio::time::sleep(Duration::from_millis(1)).await;
        assert_eq!(
            *seen_by_handed_off.lock().unwrap(),
            Some(Duration::from_secs(5))
        );
    });
}

#[test]
fn a_blocking_tool_sees_its_timeout_as_a_cancellation() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_time()
        .build()
        .unwrap();
    let saw = Arc::new(Mutex::new(None));
    let sink = Arc::clone(&saw);
    runtime.block_on(async {
        let mut toolbox = Toolbox::new()
            .timeout(Duration::from_millis(50))
            .retry(RetryPolicy::new().max_attempts(1));
        toolbox
            .register(
                tool::function(
                    "poll",
                    "Polls its cancellation",
                    move |_: NoArgs, cx: &CallContext| {
                        let started = std::time::Instant::now();
                        while !cx.is_cancelled() && started.elapsed() < Duration::from_secs(5) {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        *sink.lock().unwrap() = Some(cx.is_cancelled());
                        "stopped"
                    },
                )
                .unwrap()
                .blocking(),
            )
            .unwrap();
        let outcomes = toolbox.run([call("c1", "poll")]).await;
        assert!(
            outcomes[0]
                .lowered
                .result
                .output
                .contains("did not finish within 50ms")
        );
    });
    // The body saw the cancellation and stopped well before its 5 s cap.
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    while saw.lock().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(*saw.lock().unwrap(), Some(true));
}

#[test]
fn progress_and_logs_reach_the_observer_in_order() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox
            .register(
                tool::function(
                    "index",
                    "Indexes",
                    |args: Count, cx: CallContext<'static>| async move {
                        for done in 1..=args.n {
                            cx.progress(done as f64, Some(args.n as f64), None);
                            tokio::task::yield_now().await;
                        }
                        cx.log(LogLevel::Info, "indexed");
                        args.n.to_string()
                    },
                )
                .unwrap(),
            )
            .unwrap();
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&events);
        let turn = Turn::new([Call::new("c9", "index", Arguments::Json(json!({"n": 50})))])
            .with_observer(move |event: &CallEvent<'_>| {
                let line = match *event {
                    CallEvent::Progress {
                        call_id,
                        done,
                        total,
                        ..
                    } => {
                        format!("{call_id} {done}/{}", total.unwrap())
                    }
                    CallEvent::Log {
                        call_id,
                        level,
                        message,
                        ..
                    } => {
                        format!("{call_id} {} {message}", level.as_str())
                    }
                    _ => "other".to_owned(),
                };
                sink.lock().unwrap().push(line);
            });
        let outcomes = toolbox.run(turn).await;
        assert_eq!(outcomes[0].lowered.result.output, "50");
        let mut expected: Vec<String> = (1..=50).map(|done| format!("c9 {done}/50")).collect();
        expected.push("c9 info indexed".to_owned());
        assert_eq!(*events.lock().unwrap(), expected);
    });
}

#[test]
fn a_tool_receives_the_values_its_caller_attached() {
    #[derive(Clone)]
    struct Tenant(&'static str);
    #[derive(Clone)]
    struct Token(&'static str);
    paused().block_on(async {
        let mut toolbox = Toolbox::new()
            .with_value(Tenant("toolbox"))
            .with_value(Token("t-1"));
        toolbox
            .register(
                tool::function("who", "Who", |_: NoArgs, cx: &CallContext| {
                    let tenant = cx.get::<Tenant>().map_or("none", |t| t.0);
                    let token = cx.get::<Token>().map_or("none", |t| t.0);
                    let missing = cx.get::<u8>().is_none();
                    format!("{tenant} {token} {missing}")
                })
                .unwrap(),
            )
            .unwrap();
        let plain = toolbox.run([call("c1", "who")]).await;
        assert_eq!(plain[0].lowered.result.output, "toolbox t-1 true");
        // The turn's value comes before the toolbox's of the same type.
        let turn = Turn::new([call("c2", "who")]).with_value(Tenant("acme"));
        let scoped = toolbox.run(turn).await;
        assert_eq!(scoped[0].lowered.result.output, "acme t-1 true");
    });
}

#[test]
fn a_parked_call_resumes_with_its_answer_through_the_context() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox
            .register(
                tool::function(
                    "deploy",
                    "Deploys",
                    |_: NoArgs, cx: CallContext<'static>| async move {
                        match cx.answer() {
                            Some(answer) if answer.ok => {
                                ToolResult::<String>::ok("deployed".to_owned())
                            }
                            Some(answer) => ToolResult::ok(format!(
                                "declined: {}",
                                answer.reason.clone().unwrap_or_default()
                            )),
                            None => {
                                ToolResult::pending(Request::input("Deploy?").with_id("approve-9"))
                            }
                        }
                    },
                )
                .unwrap(),
            )
            .unwrap();
        let parked = toolbox.run([call("c1", "deploy")]).await;
        assert_eq!(parked[0].stop, StopReason::Suspended);
        let done = toolbox
            .run(
                Turn::default()
                    .resume(&parked[0], Answer::declined("approve-9", "not today"))
                    .unwrap(),
            )
            .await;
        assert_eq!(done[0].call.id, "c1");
        assert_eq!(done[0].lowered.result.output, "declined: not today");
    });
}

#[test]
fn a_tool_that_ignores_its_context_still_gets_one() {
    // The plain signature is unchanged: no context in sight.
    let add = tool::function("add", "Add", |c: Count| (c.n + 1).to_string()).unwrap();
    assert_eq!(support::call(&add, json!({"n": 1})).result.output, "2");
}

/// Before: `FileStore` opened an artifact blocking, so a FIFO planted under
/// an artifact's name hung `read_artifact` (a sync tool run in place, which
/// no timeout could end) for good.
#[cfg(unix)]
#[test]
fn a_fifo_planted_in_a_file_store_does_not_hang_the_reader() {
    use toolresult::budget::{Artifact, ArtifactStore, FileStore};
    use toolresult::tool::ArtifactReader;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(FileStore::new(dir.path()).unwrap());
    let id = store.put(Artifact::new("abc", "text/plain")).unwrap();
    let path = dir.path().join(id.as_str());
    std::fs::remove_file(&path).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = ArtifactReader::new(store).unwrap();
    assert!(
        reader.blocks(),
        "the reader runs where a timeout can end it"
    );
    // Under a bound: a hang fails the test instead of stalling the suite.
    let (sent, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let lowered = support::call(&reader, json!({"artifact": id.as_str()}));
        let _ = sent.send(lowered.result.output);
    });
    let output = received
        .recv_timeout(Duration::from_secs(10))
        .expect("read_artifact returns");
    assert!(output.contains("\"error\""), "{output}");
}

/// Before: `{"n": "<1 MiB string>"}` for `n: u64` echoed the whole string
/// into the model's error.
#[test]
fn arguments_that_do_not_fit_are_echoed_cut_to_64_characters() {
    let tool = tool::function("count", "Count", |c: Count| c.n.to_string()).unwrap();
    let huge = "x".repeat(1 << 20);
    let lowered = support::call(&tool, json!({ "n": huge }));
    let expected = format!(
        r#"{{"error":{{"message":"invalid arguments at `n`: invalid type: string \"{}…\", expected u64","suggestion":"call `count` again with arguments that match its input schema"}}}}"#,
        "x".repeat(64)
    );
    assert_eq!(lowered.result.output, expected);
    // An unknown field's name, and a path through a huge key, are cut too.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        #[allow(dead_code)]
        n: Option<u8>,
    }
    let strict = tool::function("strict", "Strict", |_: Strict| "ok").unwrap();
    let lowered = support::call(&strict, json!({ huge.clone(): 1 }));
    assert!(
        lowered.result.output.len() < 1200,
        "{} bytes",
        lowered.result.output.len()
    );
    let text = format!(r#"{{"n": "{huge}"}}"#);
    let lowered = support::call_text(&tool, &text);
    assert_eq!(lowered.result.output, expected);
}

/// Before: polling a tool's call again after it returned `Ready` panicked
/// (`async fn resumed after completion`).
#[test]
fn a_call_polled_after_it_completed_answers_instead_of_panicking() {
    use std::future::Future;
    use std::task::{Context, Poll, Waker};
    let sync_tool = tool::function("now", "Now", |_: NoArgs| "noon").unwrap();
    let async_tool = tool::function("later", "Later", |_: NoArgs| async { "later" }).unwrap();
    let tools: [&dyn Tool; 2] = [&sync_tool, &async_tool];
    for tool in tools {
        let cx = CallContext::new("c1", tool.name());
        let mut calling = tool.call(&Arguments::Json(json!({})), &cx);
        let mut task = Context::from_waker(Waker::noop());
        let first = match std::pin::Pin::new(&mut calling).poll(&mut task) {
            Poll::Ready(lowered) => lowered,
            Poll::Pending => panic!("a trivial call is ready at once"),
        };
        assert!(!first.result.is_error);
        let again = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::pin::Pin::new(&mut calling).poll(&mut task)
        }))
        .expect("no panic on a second poll");
        match again {
            Poll::Ready(lowered) => {
                assert!(lowered.result.is_error);
                assert!(
                    lowered.result.output.contains("ToolPanicked"),
                    "{}",
                    lowered.result.output
                );
            }
            Poll::Pending => panic!("a completed call does not wait"),
        }
    }
}
