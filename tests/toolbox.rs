//! The toolbox: registration, a turn of calls answered once each in call
//! order, timeouts and cancellation on paused tokio time, retries read from
//! the Rust channel and the tool's safety, panics, unknown names, bad
//! arguments, resuming a suspension.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::json;
use tokio_util::sync::CancellationToken;
use toolresult::canonical::{Answer, Request};
use toolresult::provider::{
    Anthropic, Call, Gemini, Mcp, OpenAiChat, OpenAiResponses, PartPolicy, Provider,
};
use toolresult::retry::{Backoff, Cancelled, RetryPolicy, StopReason};
use toolresult::tool::{self, Arguments, CallContext, Tool, ToolPanicked, ToolSafety};
use toolresult::toolbox::{
    Attempt, CallOutcome, Driver, RegisterError, ResumeError, TimedOut, Toolbox, Turn, UnknownTool,
};
use toolresult::{Failure, ToolError, ToolResult};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

fn paused() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

fn call(id: &str, name: &str, args: serde_json::Value) -> Call {
    Call::new(id, name, Arguments::Json(args))
}

/// A token cancelled once `after` completes (on the test's runtime).
fn cancelled_when(
    after: impl std::future::Future<Output = ()> + Send + 'static,
) -> CancellationToken {
    let token = CancellationToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        after.await;
        cancel.cancel();
    });
    token
}

/// `calls`, cancelled once `after` completes.
fn cancelled_turn(
    calls: impl IntoIterator<Item = Call>,
    after: impl std::future::Future<Output = ()> + Send + 'static,
) -> Turn {
    Turn::new(calls).with_cancellation(cancelled_when(after))
}

/// Runs a parked call again with `answer`.
async fn resume(
    toolbox: &Toolbox,
    parked: &CallOutcome,
    answer: Answer,
) -> Result<CallOutcome, ResumeError> {
    let turn = Turn::default().resume(parked, answer)?;
    Ok(toolbox.run(turn).await.remove(0))
}

fn add_tool() -> impl Tool {
    tool::function("add", "Add", |x: Add| (x.a + x.b).to_string())
        .unwrap()
        .with_safety(ToolSafety::ReadOnly)
}

fn sleeper(name: &str, secs: u64) -> impl Tool {
    tool::function(name, "Sleeps", move |_: NoArgs| async move {
        tokio::time::sleep(Duration::from_secs(secs)).await;
        format!("slept {secs}s")
    })
    .unwrap()
    .with_safety(ToolSafety::ReadOnly)
}

/// A read-only tool named `flaky` that always fails transiently, and the
/// count of its calls.
fn always_busy() -> (impl Tool, Arc<AtomicU32>) {
    let calls = Arc::new(AtomicU32::new(0));
    let counter = Arc::clone(&calls);
    let flaky = tool::function("flaky", "Flaky", move |_: NoArgs| {
        counter.fetch_add(1, Ordering::SeqCst);
        ToolResult::<u8>::fail(Failure::new(ToolError::new("busy")).transient())
    })
    .unwrap()
    .with_safety(ToolSafety::ReadOnly);
    (flaky, calls)
}

fn no_retries() -> RetryPolicy {
    RetryPolicy::new().max_attempts(1)
}

#[test]
fn a_turn_can_be_spawned() {
    fn send<F: Future + Send>(_: &F) {}
    let toolbox = Toolbox::new();
    let turn = toolbox.run([call("c1", "add", json!({}))]);
    send(&turn);
    let cancellable = toolbox
        .run(Turn::new([call("c1", "add", json!({}))]).with_cancellation(CancellationToken::new()));
    send(&cancellable);
}

#[test]
fn registration_refuses_duplicates_and_bad_names() {
    struct Named(&'static str);
    impl Tool for Named {
        fn name(&self) -> &str {
            self.0
        }
        fn description(&self) -> &str {
            "a hand-written tool"
        }
        fn input_schema(&self) -> &schemars::Schema {
            static SCHEMA: std::sync::OnceLock<schemars::Schema> = std::sync::OnceLock::new();
            SCHEMA.get_or_init(|| schemars::json_schema!({"type": "object"}))
        }
        fn output_schema(&self) -> &schemars::Schema {
            self.input_schema()
        }
        fn model_facing_schema(&self) -> &schemars::Schema {
            self.input_schema()
        }
        fn call<'a>(&'a self, _: &Arguments, _: &CallContext<'_>) -> tool::Calling<'a> {
            use toolresult::IntoToolResult;
            tool::Calling::ready("ok".lower())
        }
    }
    let mut toolbox = Toolbox::new();
    toolbox.register(add_tool()).unwrap();
    assert_eq!(
        toolbox.register(add_tool()).unwrap_err(),
        RegisterError::Duplicate("add".to_owned())
    );
    let bad = toolbox.register(Named("files.read")).unwrap_err();
    assert_eq!(
        bad.to_string(),
        "invalid tool name `files.read`: it holds `.` at byte 5; a tool name holds only ASCII letters, digits, `_` and `-`"
    );
    toolbox.register(Named("hand_written")).unwrap();
    assert_eq!(toolbox.names().collect::<Vec<_>>(), ["add", "hand_written"]);
    assert_eq!(
        toolbox.get("add").map(Tool::safety),
        Some(ToolSafety::ReadOnly)
    );
    assert!(toolbox.get("nope").is_none());
}

#[test]
fn declarations_of_all_tools_in_one_call() {
    let mut toolbox = Toolbox::new();
    toolbox.register(add_tool()).unwrap();
    toolbox.register(sleeper("nap", 1)).unwrap();
    let tools = toolbox.tools();
    let names = |value: serde_json::Value, pointer: &str| -> Vec<String> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.pointer(pointer).unwrap().as_str().unwrap().to_owned())
            .collect()
    };
    let expected = ["add", "nap"];
    assert_eq!(
        names(
            serde_json::to_value(Anthropic::declare_tools(&tools)).unwrap(),
            "/name"
        ),
        expected
    );
    assert_eq!(
        names(
            serde_json::to_value(OpenAiChat::declare_tools(&tools)).unwrap(),
            "/function/name"
        ),
        expected
    );
    assert_eq!(
        names(
            serde_json::to_value(OpenAiResponses::declare_tools(&tools)).unwrap(),
            "/name"
        ),
        expected
    );
    assert_eq!(
        names(
            serde_json::to_value(Mcp::declare_tools(&tools)).unwrap(),
            "/name"
        ),
        expected
    );
    let gemini = serde_json::to_value(Gemini::declare_tools(&tools)).unwrap();
    assert_eq!(
        names(gemini["functionDeclarations"].clone(), "/name"),
        expected
    );
}

#[test]
fn every_call_answered_once_in_order_under_its_id() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox.register(add_tool()).unwrap();
        toolbox.register(sleeper("slow", 5)).unwrap();
        toolbox.register(sleeper("quick", 1)).unwrap();
        let calls = vec![
            call("c1", "slow", json!({})),
            call("c2", "add", json!({"a": 1, "b": 2})),
            call("c3", "quick", json!({})),
            Call::new(
                "c4",
                "add",
                Arguments::Text(r#"{"a": 40, "b": 2}"#.to_owned()),
            ),
        ];
        let started = tokio::time::Instant::now();
        let outcomes = toolbox.run(calls).await;
        // Concurrent: the turn takes as long as the slowest call.
        assert_eq!(started.elapsed(), Duration::from_secs(5));
        let answers: Vec<(&str, &str, u32)> = outcomes
            .iter()
            .map(|o| {
                (
                    o.call.id.as_str(),
                    o.lowered.result.output.as_str(),
                    o.attempts,
                )
            })
            .collect();
        assert_eq!(
            answers,
            [
                ("c1", "slept 5s", 1),
                ("c2", "3", 1),
                ("c3", "slept 1s", 1),
                ("c4", "42", 1)
            ]
        );
    });
}

#[test]
fn sequential_mode_runs_one_call_after_another() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new().concurrency(1);
        toolbox.register(sleeper("slow", 5)).unwrap();
        toolbox.register(sleeper("quick", 1)).unwrap();
        let started = tokio::time::Instant::now();
        let outcomes = toolbox
            .run([
                call("a", "slow", json!({})),
                call("b", "quick", json!({})),
                call("c", "slow", json!({})),
            ])
            .await;
        assert_eq!(started.elapsed(), Duration::from_secs(11));
        assert_eq!(outcomes.len(), 3);
        let limited = Toolbox::new().concurrency(2);
        let mut limited = limited;
        limited.register(sleeper("slow", 5)).unwrap();
        let started = tokio::time::Instant::now();
        limited
            .run((0..4).map(|i| call(&format!("s{i}"), "slow", json!({}))))
            .await;
        assert_eq!(started.elapsed(), Duration::from_secs(10));
    });
}

#[test]
fn a_slow_call_times_out_as_a_transient_failure_and_is_dropped() {
    paused().block_on(async {
        let finished = Arc::new(AtomicU32::new(0));
        let seen = Arc::clone(&finished);
        let mut toolbox = Toolbox::new().timeout(Duration::from_secs(2)).retry(no_retries());
        toolbox
            .register(
                tool::function("slow", "Slow", move |_: NoArgs| {
                    let seen = Arc::clone(&seen);
                    async move {
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        seen.fetch_add(1, Ordering::SeqCst);
                        "late"
                    }
                })
                .unwrap(),
            )
            .unwrap();
        toolbox.register(add_tool()).unwrap();
        let started = tokio::time::Instant::now();
        let outcomes = toolbox
            .run([call("c1", "slow", json!({})), call("c2", "add", json!({"a": 1, "b": 1}))])
            .await;
        assert_eq!(started.elapsed(), Duration::from_secs(2));
        let timed_out = &outcomes[0].lowered;
        assert_eq!(
            timed_out.result.output,
            r#"{"error":{"message":"the tool did not finish within 2s","suggestion":"try again, or ask for less at once"}}"#
        );
        assert_eq!(timed_out.diagnostics.is_transient(), Some(true));
        let source = timed_out.diagnostics.source().unwrap().downcast_ref::<TimedOut>().unwrap();
        assert_eq!((source.tool(), source.after()), ("slow", Duration::from_secs(2)));
        assert_eq!(outcomes[1].lowered.result.output, "2");
        // The dropped future never finishes, however long we wait.
        tokio::time::sleep(Duration::from_secs(120)).await;
        assert_eq!(finished.load(Ordering::SeqCst), 0);
    });
}

#[test]
fn a_per_tool_timeout_overrides_the_toolbox() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new()
            .timeout(Duration::from_secs(2))
            .retry(no_retries());
        toolbox
            .register(sleeper("patient", 5))
            .unwrap()
            .timeout(Duration::from_secs(10));
        toolbox
            .register(sleeper("no_limit", 500))
            .unwrap()
            .timeout(None);
        let outcomes = toolbox
            .run([
                call("a", "patient", json!({})),
                call("b", "no_limit", json!({})),
            ])
            .await;
        assert_eq!(outcomes[0].lowered.result.output, "slept 5s");
        assert_eq!(outcomes[1].lowered.result.output, "slept 500s");
    });
}

#[test]
fn timeouts_are_retried_for_a_read_only_tool_and_not_for_an_additive_one() {
    paused().block_on(async {
        let policy = RetryPolicy::new()
            .max_attempts(3)
            .backoff(Backoff::constant(Duration::from_secs(1)));
        let mut toolbox = Toolbox::new().timeout(Duration::from_secs(2)).retry(policy);
        toolbox.register(sleeper("lookup", 60)).unwrap();
        toolbox
            .register(
                tool::function("append", "Appends", |_: NoArgs| async {
                    tokio::time::sleep(Duration::from_secs(60)).await;
                    "appended"
                })
                .unwrap()
                .with_safety(ToolSafety::Additive),
            )
            .unwrap();
        let started = tokio::time::Instant::now();
        let outcomes = toolbox
            .run([
                call("a", "lookup", json!({})),
                call("b", "append", json!({})),
            ])
            .await;
        // 2 s, 1 s backoff, 2 s, 1 s, 2 s.
        assert_eq!(started.elapsed(), Duration::from_secs(8));
        assert_eq!(outcomes[0].attempts, 3);
        assert_eq!(outcomes[1].attempts, 1);
        assert!(outcomes.iter().all(|o| o.lowered.result.is_error));
    });
}

#[test]
fn transient_failures_are_retried_from_the_rust_channel() {
    paused().block_on(async {
        let calls = Arc::new(AtomicU32::new(0));
        let counter = Arc::clone(&calls);
        let policy = RetryPolicy::new()
            .max_attempts(4)
            .backoff(Backoff::constant(Duration::from_millis(250)));
        let mut toolbox = Toolbox::new().retry(policy);
        toolbox
            .register(
                tool::function("flaky", "Flaky", move |_: NoArgs| {
                    if counter.fetch_add(1, Ordering::SeqCst) < 2 {
                        let reset = std::io::Error::new(
                            std::io::ErrorKind::ConnectionReset,
                            "peer 10.0.0.9 reset",
                        );
                        ToolResult::<&str>::fail(
                            Failure::new(ToolError::new("the connection dropped"))
                                .with_source(reset),
                        )
                    } else {
                        ToolResult::ok("fetched")
                    }
                })
                .unwrap()
                .with_safety(ToolSafety::Idempotent),
            )
            .unwrap();
        let started = tokio::time::Instant::now();
        let outcomes = toolbox.run([call("c1", "flaky", json!({}))]).await;
        assert_eq!(outcomes[0].lowered.result.output, "fetched");
        assert_eq!(outcomes[0].attempts, 3);
        assert_eq!(calls.load(Ordering::SeqCst), 3);
        assert_eq!(started.elapsed(), Duration::from_millis(500));
    });
}

#[test]
fn a_per_tool_retry_policy_overrides_the_toolbox() {
    paused().block_on(async {
        let (flaky, calls) = always_busy();
        let mut toolbox = Toolbox::new().retry(no_retries());
        toolbox.register(flaky).unwrap().retry(
            RetryPolicy::new()
                .max_attempts(5)
                .backoff(Backoff::constant(Duration::from_secs(1))),
        );
        let outcomes = toolbox.run([call("c1", "flaky", json!({}))]).await;
        assert_eq!(outcomes[0].attempts, 5);
        assert_eq!(calls.load(Ordering::SeqCst), 5);
    });
}

#[test]
fn panics_in_sync_and_async_tools_are_answered_safely() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox
            .register(
                tool::function("sync_boom", "Panics", |_: NoArgs| -> String {
                    panic!("token=SECRET")
                })
                .unwrap(),
            )
            .unwrap();
        toolbox
            .register(
                tool::function("async_boom", "Panics later", |_: NoArgs| async {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    if true {
                        panic!("token=SECRET");
                    }
                    "never"
                })
                .unwrap(),
            )
            .unwrap();
        let outcomes = toolbox
            .run([
                call("a", "sync_boom", json!({})),
                call("b", "async_boom", json!({})),
            ])
            .await;
        for outcome in &outcomes {
            assert_eq!(
                outcome.lowered.result.output,
                r#"{"error":{"message":"the tool failed with an unexpected error (ToolPanicked)"}}"#
            );
            let panicked = outcome
                .lowered
                .diagnostics
                .source()
                .unwrap()
                .downcast_ref::<ToolPanicked>()
                .unwrap();
            assert_eq!(panicked.message(), "token=SECRET");
            assert_eq!(outcome.attempts, 1, "a panic is permanent");
        }
    });
}

#[test]
fn unknown_names_and_bad_arguments_are_answers_the_model_can_act_on() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox.register(add_tool()).unwrap();
        toolbox.register(sleeper("nap", 1)).unwrap();
        let outcomes = toolbox
            .run([
                call("c1", "substract", json!({"a": 1})),
                call("c2", "add", json!({"a": 1, "b": "two"})),
                Call::new("c3", "add", Arguments::Text("{\"a\": 1,".to_owned())),
                call("c4", &"x".repeat(100), json!({})),
            ])
            .await;
        assert_eq!(
            outcomes[0].lowered.result.output,
            r#"{"error":{"message":"there is no tool named `substract`","suggestion":"call one of: `add`, `nap`"}}"#
        );
        assert_eq!(outcomes[0].attempts, 0);
        let unknown = outcomes[0].lowered.diagnostics.source().unwrap().downcast_ref::<UnknownTool>().unwrap();
        assert_eq!(unknown.name(), "substract");
        assert_eq!(
            outcomes[1].lowered.result.output,
            r#"{"error":{"message":"invalid arguments at `b`: invalid type: string \"two\", expected i64","suggestion":"call `add` again with arguments that match its input schema"}}"#
        );
        assert_eq!(
            outcomes[2].lowered.result.output,
            r#"{"error":{"message":"invalid arguments: the arguments are not JSON: EOF while parsing a value at line 1 column 8","suggestion":"call `add` again with arguments that match its input schema"}}"#
        );
        assert!(outcomes[3].lowered.result.output.contains(&format!("`{}…`", "x".repeat(64))));
        assert!(outcomes.iter().all(|o| o.lowered.result.is_error));
    });
}

#[test]
fn cancelling_a_turn_answers_running_and_waiting_calls_as_cancelled() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new().concurrency(2).timeout(None);
        toolbox.register(add_tool()).unwrap();
        toolbox.register(sleeper("slow", 10)).unwrap();
        toolbox.register(sleeper("quick", 1)).unwrap();
        let calls = vec![
            call("c1", "quick", json!({})),
            call("c2", "slow", json!({})),
            call("c3", "slow", json!({})),
            call("c4", "add", json!({"a": 1, "b": 1})),
        ];
        let started = tokio::time::Instant::now();
        let outcomes = toolbox
            .run(cancelled_turn(
                calls,
                tokio::time::sleep(Duration::from_secs(3)),
            ))
            .await;
        assert_eq!(started.elapsed(), Duration::from_secs(3));
        let got: Vec<(&str, &str)> = outcomes
            .iter()
            .map(|o| (o.call.id.as_str(), o.lowered.result.output.as_str()))
            .collect();
        let cancelled = r#"{"error":{"message":"the call was cancelled before it finished"}}"#;
        // Two at a time: c1 and c2 start; c3 when c1 is done at 1 s; c4
        // waits for a free slot, and the cancel at 3 s comes first.
        assert_eq!(
            got,
            [
                ("c1", "slept 1s"),
                ("c2", cancelled),
                ("c3", cancelled),
                ("c4", cancelled)
            ]
        );
        assert_eq!(
            outcomes.iter().map(|o| o.attempts).collect::<Vec<_>>(),
            [1, 1, 1, 0]
        );
        for outcome in &outcomes[1..] {
            assert!(
                outcome
                    .lowered
                    .diagnostics
                    .source()
                    .unwrap()
                    .is::<Cancelled>()
            );
            assert_eq!(outcome.lowered.diagnostics.is_transient(), Some(false));
        }
    });
}

#[test]
fn a_cancelled_call_is_not_retried() {
    paused().block_on(async {
        let (flaky, attempts) = always_busy();
        let policy = RetryPolicy::new()
            .max_attempts(10)
            .backoff(Backoff::constant(Duration::from_secs(1)));
        let mut toolbox = Toolbox::new().retry(policy);
        toolbox.register(flaky).unwrap();
        let outcomes = toolbox
            .run(cancelled_turn(
                [call("c1", "flaky", json!({}))],
                tokio::time::sleep(Duration::from_millis(2500)),
            ))
            .await;
        assert_eq!(
            attempts.load(Ordering::SeqCst),
            3,
            "attempts at 0 s, 1 s and 2 s"
        );
        assert!(
            outcomes[0]
                .lowered
                .diagnostics
                .source()
                .unwrap()
                .is::<Cancelled>()
        );
        tokio::time::sleep(Duration::from_secs(60)).await;
        assert_eq!(
            attempts.load(Ordering::SeqCst),
            3,
            "nothing is retried after the cancel"
        );
    });
}

#[test]
fn a_cancellation_before_the_turn_answers_every_call() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox.register(add_tool()).unwrap();
        let outcomes = toolbox
            .run({
                let token = CancellationToken::new();
                token.cancel();
                Turn::new([
                    call("c1", "add", json!({"a": 1, "b": 1})),
                    call("c2", "nope", json!({})),
                ])
                .with_cancellation(token)
            })
            .await;
        assert_eq!(outcomes.len(), 2);
        assert!(
            outcomes
                .iter()
                .all(|o| o.attempts == 0 && o.lowered.result.is_error)
        );
    });
}

#[test]
fn a_suspended_call_resumes_with_its_answer() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox
            .register(
                tool::function(
                    "deploy",
                    "Deploys",
                    |_: NoArgs, cx: &CallContext| match cx.answer() {
                        Some(answer) if answer.ok => {
                            ToolResult::<String>::ok("deployed".to_owned())
                        }
                        Some(answer) => ToolResult::ok(format!(
                            "not deployed: {}",
                            answer.reason.clone().unwrap_or_default()
                        )),
                        None => ToolResult::pending(
                            Request::input("Deploy to production?").with_id("approve-1"),
                        ),
                    },
                )
                .unwrap(),
            )
            .unwrap();
        let parked = toolbox.run([call("c1", "deploy", json!({}))]).await;
        assert!(parked[0].is_pending());
        assert_eq!(parked[0].lowered.result.output, "Deploy to production?");
        assert_eq!(
            resume(&toolbox, &parked[0], Answer::granted("other", None))
                .await
                .unwrap_err(),
            ResumeError::OtherRequest {
                request: "approve-1".to_owned(),
                answer: "other".to_owned()
            }
        );
        // An answer's id comes from outside: the error never grows with it.
        let long = "x".repeat(1_000_000);
        let refused = resume(&toolbox, &parked[0], Answer::granted(long, None))
            .await
            .unwrap_err();
        assert_eq!(
            refused,
            ResumeError::OtherRequest {
                request: "approve-1".to_owned(),
                answer: format!("{}…", "x".repeat(64)),
            }
        );
        assert!(
            refused.to_string().len() < 200,
            "{}",
            refused.to_string().len()
        );
        let resumed = resume(&toolbox, &parked[0], Answer::granted("approve-1", None))
            .await
            .unwrap();
        assert_eq!(resumed.call.id, "c1");
        assert_eq!(resumed.lowered.result.output, "deployed");
        let declined = resume(
            &toolbox,
            &parked[0],
            Answer::declined("approve-1", "not today"),
        )
        .await
        .unwrap();
        assert_eq!(declined.lowered.result.output, "not deployed: not today");
        assert_eq!(
            resume(&toolbox, &resumed, Answer::granted("approve-1", None))
                .await
                .unwrap_err(),
            ResumeError::NotPending
        );
    });
}

#[test]
fn an_off_executor_tool_runs_on_the_blocking_pool() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_time()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut toolbox = Toolbox::new().timeout(Duration::from_secs(5));
        toolbox
            .register(
                tool::function(
                    "thread",
                    "Names its thread",
                    |_: NoArgs, cx: &CallContext| {
                        format!("{:?}|{}", std::thread::current().name(), cx.call_id())
                    },
                )
                .unwrap()
                .blocking(),
            )
            .unwrap();
        toolbox
            .register(
                tool::function("boom", "Panics", |_: NoArgs| -> String { panic!("SECRET") })
                    .unwrap()
                    .blocking(),
            )
            .unwrap();
        let outcomes = toolbox
            .run([
                call("c1", "thread", json!({})),
                Call::new("c2", "thread", Arguments::Text("not json".to_owned())),
                call("c3", "boom", json!({})),
            ])
            .await;
        let on = &outcomes[0].lowered.result.output;
        assert!(!on.contains("tokio-runtime-worker"), "{on}");
        assert!(
            outcomes[1]
                .lowered
                .result
                .output
                .contains("the arguments are not JSON")
        );
        assert!(
            outcomes[2]
                .lowered
                .diagnostics
                .source()
                .unwrap()
                .is::<ToolPanicked>()
        );
        assert!(!outcomes[2].lowered.result.output.contains("SECRET"));
    });
}

#[test]
fn an_off_executor_call_that_times_out_is_answered_at_once() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_time()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut toolbox = Toolbox::new()
            .timeout(Duration::from_millis(50))
            .retry(no_retries());
        toolbox
            .register(
                tool::function("stuck", "Blocks", |_: NoArgs| {
                    std::thread::sleep(Duration::from_millis(400));
                    "late"
                })
                .unwrap()
                .blocking(),
            )
            .unwrap();
        let started = std::time::Instant::now();
        let outcomes = toolbox.run([call("c1", "stuck", json!({}))]).await;
        assert!(
            started.elapsed() < Duration::from_millis(350),
            "{:?}",
            started.elapsed()
        );
        assert!(
            outcomes[0]
                .lowered
                .diagnostics
                .source()
                .unwrap()
                .is::<TimedOut>()
        );
    });
}

#[test]
fn the_reply_answers_the_turn_in_the_providers_shape() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox.register(add_tool()).unwrap();
        let message = r#"{"role":"assistant","content":null,"tool_calls":[
            {"id":"call_a","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}},
            {"id":"call_b","type":"function","function":{"name":"mul","arguments":"{}"}}]}"#;
        let outcomes = toolbox.run(OpenAiChat::read_calls(message).unwrap()).await;
        let reply = serde_json::to_string(&OpenAiChat::reply(&outcomes, PartPolicy::Strict).unwrap()).unwrap();
        assert_eq!(
            reply,
            r#"[{"role":"tool","tool_call_id":"call_a","content":"3"},{"role":"tool","tool_call_id":"call_b","content":"{\"error\":{\"message\":\"there is no tool named `mul`\",\"suggestion\":\"call one of: `add`\"}}"}]"#
        );
    });
}

/// A value whose `Drop` panics, held across an await by a tool.
struct Bomb;

impl Drop for Bomb {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            panic!("the bomb's drop panics");
        }
    }
}

fn bomb_tool(name: &str) -> impl Tool {
    tool::function(name, "Holds a bomb while it waits", |_: NoArgs| async {
        let bomb = Bomb;
        tokio::time::sleep(Duration::from_secs(10)).await;
        drop(bomb);
        "never"
    })
    .unwrap()
}

#[test]
fn a_future_whose_drop_panics_cannot_escape_a_timeout_or_a_cancel() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new()
            .timeout(Duration::from_secs(1))
            .retry(no_retries());
        toolbox.register(bomb_tool("timed")).unwrap();
        toolbox
            .register(bomb_tool("cancelled"))
            .unwrap()
            .timeout(None);
        toolbox.register(add_tool()).unwrap();
        let outcomes = toolbox
            .run(cancelled_turn(
                [
                    call("c1", "timed", json!({})),
                    call("c2", "cancelled", json!({})),
                    call("c3", "add", json!({"a": 1, "b": 2})),
                ],
                tokio::time::sleep(Duration::from_secs(2)),
            ))
            .await;
        assert!(
            outcomes[0]
                .lowered
                .diagnostics
                .source()
                .unwrap()
                .is::<TimedOut>()
        );
        assert!(
            outcomes[1]
                .lowered
                .diagnostics
                .source()
                .unwrap()
                .is::<Cancelled>()
        );
        assert_eq!(outcomes[2].lowered.result.output, "3");
        // A single call, timed out, takes the other path of the turn.
        let single = toolbox.run([call("c4", "timed", json!({}))]).await;
        assert!(
            single[0]
                .lowered
                .diagnostics
                .source()
                .unwrap()
                .is::<TimedOut>()
        );
    });
}

#[derive(Debug, thiserror::Error)]
#[error("a source whose drop panics")]
struct BombError(Bomb);

impl std::fmt::Debug for Bomb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Bomb")
    }
}

#[test]
fn a_retried_failure_whose_source_drop_panics_cannot_escape() {
    paused().block_on(async {
        let calls = Arc::new(AtomicU32::new(0));
        let counter = Arc::clone(&calls);
        let policy = RetryPolicy::new()
            .max_attempts(3)
            .backoff(Backoff::constant(Duration::from_millis(10)));
        let mut toolbox = Toolbox::new().retry(policy);
        toolbox
            .register(
                tool::function(
                    "flaky",
                    "Fails with a bomb, then answers",
                    move |_: NoArgs| {
                        if counter.fetch_add(1, Ordering::SeqCst) == 0 {
                            ToolResult::<&str>::fail(
                                Failure::new(ToolError::new("busy"))
                                    .with_source(BombError(Bomb))
                                    .transient(),
                            )
                        } else {
                            ToolResult::ok("done")
                        }
                    },
                )
                .unwrap()
                .with_safety(ToolSafety::ReadOnly),
            )
            .unwrap();
        let outcomes = toolbox.run([call("c1", "flaky", json!({}))]).await;
        assert_eq!(outcomes[0].lowered.result.output, "done");
        assert_eq!(outcomes[0].attempts, 2);
    });
}

#[test]
fn off_the_executor_a_tool_reads_its_arguments_as_on_it() {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct X {
        x: f64,
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_time()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox
            .register(tool::function("on", "On the executor", |a: X| a.x.to_string()).unwrap())
            .unwrap();
        toolbox
            .register(
                tool::function("off", "Off the executor", |a: X| a.x.to_string())
                    .unwrap()
                    .blocking(),
            )
            .unwrap();
        // An unknown field with a number beyond f64 is skipped unread on both paths.
        let text = r#"{"x": 1.5, "extra": 1e999}"#;
        let outcomes = toolbox
            .run([
                Call::new("c1", "on", Arguments::Text(text.to_owned())),
                Call::new("c2", "off", Arguments::Text(text.to_owned())),
            ])
            .await;
        assert_eq!(outcomes[0].lowered.result.output, "1.5");
        assert_eq!(outcomes[1].lowered.result.output, "1.5");
    });
}

/// A driver that keeps a journal of every step, as a durable engine would,
/// and answers a parked call with the answers it is given, one per wait.
#[derive(Default)]
struct Journal {
    steps: std::sync::Mutex<Vec<(String, u32, u32, String)>>,
    answers: std::sync::Mutex<Vec<Answer>>,
    slept: std::sync::Mutex<Vec<Duration>>,
}

impl Driver for Journal {
    type Error = std::convert::Infallible;

    async fn step(
        &self,
        call: &Call,
        run: u32,
        attempt: u32,
        attempting: impl std::future::Future<Output = Attempt> + Send,
    ) -> Result<Attempt, Self::Error> {
        let done = attempting.await;
        // What a journal keeps, read back: the same attempt, no source.
        let kept = serde_json::to_string(&done).unwrap();
        self.steps
            .lock()
            .unwrap()
            .push((call.id.clone(), run, attempt, kept.clone()));
        Ok(serde_json::from_str(&kept).unwrap())
    }

    async fn sleep(&self, delay: Duration) -> Result<(), Self::Error> {
        self.slept.lock().unwrap().push(delay);
        Ok(())
    }

    async fn wait_for_answer(&self, _: &Call, _: &Request) -> Result<Option<Answer>, Self::Error> {
        Ok(self.answers.lock().unwrap().pop())
    }
}

#[test]
fn a_driver_keeps_each_attempt_and_the_toolbox_keeps_the_rules() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new().retry(
            RetryPolicy::new()
                .max_attempts(3)
                .backoff(Backoff::constant(Duration::from_millis(250))),
        );
        let (flaky, calls) = always_busy();
        toolbox.register(flaky).unwrap();
        toolbox
            .register(
                tool::function(
                    "deploy",
                    "Deploys",
                    |_: NoArgs, cx: &CallContext| match cx.answer() {
                        Some(answer) if answer.ok => {
                            ToolResult::<String>::ok("deployed".to_owned())
                        }
                        Some(_) => ToolResult::ok("not deployed".to_owned()),
                        None => ToolResult::pending(Request::input("Deploy?").with_id("approve-1")),
                    },
                )
                .unwrap(),
            )
            .unwrap();
        let journal = Journal::default();
        journal
            .answers
            .lock()
            .unwrap()
            .push(Answer::granted("approve-1", None));
        let outcomes = toolbox
            .run_on(
                &journal,
                [
                    call("c1", "flaky", json!({})),
                    call("c2", "deploy", json!({})),
                    call("c3", "nope", json!({})),
                ],
            )
            .await
            .unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 3, "one tool call per attempt");
        assert_eq!(
            *journal.slept.lock().unwrap(),
            [Duration::from_millis(250); 2]
        );
        let steps: Vec<(String, u32, u32, String)> = journal.steps.lock().unwrap().clone();
        let decisions: Vec<(&str, u32, u32, &str)> = steps
            .iter()
            .map(|(id, run, attempt, kept)| {
                let decision = &kept[kept.find(r#""decision":"#).unwrap()..];
                (id.as_str(), *run, *attempt, decision)
            })
            .collect();
        assert_eq!(
            decisions,
            [
                ("c1", 0, 1, r#""decision":{"retry":{"delayMs":250}}}"#),
                ("c1", 0, 2, r#""decision":{"retry":{"delayMs":250}}}"#),
                (
                    "c1",
                    0,
                    3,
                    r#""decision":{"stop":{"reason":"attempts_exhausted","attempts":3}}}"#
                ),
                ("c2", 0, 1, r#""decision":{"stop":{"reason":"suspended"}}}"#),
                ("c2", 1, 1, r#""decision":{"stop":{"reason":"succeeded"}}}"#),
                ("c3", 0, 1, r#""decision":{"stop":{"reason":"permanent"}}}"#),
            ]
        );
        assert_eq!(
            outcomes[0].stop,
            StopReason::AttemptsExhausted { attempts: 3 }
        );
        assert_eq!(outcomes[0].attempts, 3);
        assert_eq!(outcomes[0].lowered.diagnostics.is_transient(), Some(true));
        // Read back from the journal: the summary, never the source.
        assert!(outcomes[0].lowered.diagnostics.source().is_none());
        assert_eq!(outcomes[1].lowered.result.output, "deployed");
        assert_eq!(
            (outcomes[1].attempts, outcomes[1].stop),
            (2, StopReason::Succeeded)
        );
        // An unknown tool: answered, no attempt counted.
        assert_eq!(
            (outcomes[2].attempts, outcomes[2].stop),
            (0, StopReason::Permanent)
        );
        assert_eq!(
            outcomes[2].lowered.diagnostics.source_type_name(),
            Some("UnknownTool")
        );
    });
}

#[test]
fn a_journaled_attempt_reads_back_whatever_its_parts_weigh() {
    // A part over the default 20 MiB limit, made the documented way.
    fn big_scan(_: NoArgs) -> toolresult::canonical::ToolResult {
        let part = toolresult::canonical::ContentPart::from_reader(
            &vec![7u8; 21 * 1024 * 1024][..],
            "application/pdf",
            toolresult::canonical::PartLimit::new(64 * 1024 * 1024),
        )
        .unwrap();
        toolresult::canonical::ToolResult::ok("scan.pdf").with_parts([part])
    }
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox
            .register(tool::function("scan", "Scan", big_scan).unwrap())
            .unwrap();
        let journal = Journal::default();
        let outcomes = toolbox
            .run_on(&journal, [call("c1", "scan", json!({}))])
            .await
            .unwrap();
        let parts = &outcomes[0].lowered.result.parts;
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].byte_len(), 21 * 1024 * 1024);
    });
}

#[test]
fn a_request_without_an_id_is_given_one_it_can_be_answered_by() {
    // A suspension built by hand, or forwarded from another port, with a
    // kind and no id: no answer could match it.
    fn forwarded(_: NoArgs, cx: &CallContext) -> toolresult::canonical::ToolResult {
        if let Some(answer) = cx.answer() {
            return toolresult::canonical::ToolResult::ok(format!("approved: {}", answer.ok));
        }
        toolresult::canonical::ToolResult::error("Approve the deploy?").with_meta(
            "pending",
            json!({"kind": "input", "prompt": "Approve the deploy?"}),
        )
    }
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox
            .register(tool::function("forward", "Forward", forwarded).unwrap())
            .unwrap();
        // What a journal keeps names the request the call waits on.
        let journal = Journal::default();
        let parked = toolbox
            .run_on(&journal, [call("c1", "forward", json!({}))])
            .await
            .unwrap();
        let request = parked[0].lowered.result.pending_request().unwrap();
        assert_eq!(request.id.len(), 36, "{request:?}");
        let kept = journal.steps.lock().unwrap()[0].3.clone();
        assert!(
            kept.contains(&format!(r#""id":"{}""#, request.id)),
            "{kept}"
        );
        // And an answer to that id resumes it.
        let turn = Turn::default()
            .resume(&parked[0], Answer::granted(request.id.clone(), None))
            .unwrap();
        let done = toolbox.run(turn).await;
        assert_eq!(done[0].lowered.result.output, "approved: true");
    });
}

/// A value of the turn whose `Drop` panics.
#[derive(Clone)]
struct BombValue(Arc<AtomicU32>);

impl Drop for BombValue {
    fn drop(&mut self) {
        if self.0.fetch_add(1, Ordering::SeqCst) == 0 && !std::thread::panicking() {
            panic!("the value's drop panics");
        }
    }
}

#[test]
fn a_turn_value_whose_drop_panics_costs_no_outcome() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox.register(add_tool()).unwrap();
        for calls in [1, 3] {
            let drops = Arc::new(AtomicU32::new(0));
            let turn = Turn::new(
                (0..calls).map(|i| call(&format!("c{i}"), "add", json!({"a": i, "b": 1}))),
            )
            .with_value(BombValue(Arc::clone(&drops)))
            .with_observer({
                let bomb = BombValue(Arc::new(AtomicU32::new(0)));
                move |_: &toolresult::tool::CallEvent<'_>| {
                    let _ = &bomb;
                }
            });
            let outcomes = toolbox.run(turn).await;
            assert_eq!(outcomes.len(), calls as usize);
            assert_eq!(outcomes[0].lowered.result.output, "1");
            assert!(drops.load(Ordering::SeqCst) >= 1, "the value was dropped");
        }
    });
}

#[test]
fn a_retry_callback_that_panics_does_not_escape_the_turn() {
    paused().block_on(async {
        let told = Arc::new(AtomicU32::new(0));
        let seen = Arc::clone(&told);
        let policy = RetryPolicy::new()
            .max_attempts(3)
            .backoff(Backoff::constant(Duration::from_millis(10)))
            .on_retry(move |_| {
                seen.fetch_add(1, Ordering::SeqCst);
                panic!("the observer panics");
            });
        let mut toolbox = Toolbox::new().retry(policy);
        let (flaky, calls) = always_busy();
        toolbox.register(flaky).unwrap();
        let outcomes = toolbox.run([call("c1", "flaky", json!({}))]).await;
        // The retries go ahead as decided: the callback observes, it does
        // not steer.
        assert_eq!(calls.load(Ordering::SeqCst), 3);
        assert_eq!(told.load(Ordering::SeqCst), 2);
        assert_eq!(outcomes[0].attempts, 3);
        assert_eq!(
            outcomes[0].stop,
            StopReason::AttemptsExhausted { attempts: 3 }
        );
    });
}

#[test]
fn past_the_limit_a_call_starts_when_any_place_frees_and_answers_stay_in_order() {
    paused().block_on(async {
        let mut toolbox = Toolbox::new().concurrency(2);
        toolbox.register(sleeper("s1", 1)).unwrap();
        toolbox.register(sleeper("s3", 3)).unwrap();
        toolbox.register(sleeper("s5", 5)).unwrap();
        let started = tokio::time::Instant::now();
        let outcomes = toolbox
            .run([
                call("c0", "s5", json!({})),
                call("c1", "s1", json!({})),
                call("c2", "s1", json!({})),
                call("c3", "s1", json!({})),
                call("c4", "s3", json!({})),
            ])
            .await;
        // c1, c2 and c3 take the second place in turn while c0 runs; c4
        // starts at 3 s, when c3 ends, and ends at 6 s.
        assert_eq!(started.elapsed(), Duration::from_secs(6));
        let answered: Vec<(&str, &str)> = outcomes
            .iter()
            .map(|o| (o.call.id.as_str(), o.lowered.result.output.as_str()))
            .collect();
        assert_eq!(
            answered,
            [
                ("c0", "slept 5s"),
                ("c1", "slept 1s"),
                ("c2", "slept 1s"),
                ("c3", "slept 1s"),
                ("c4", "slept 3s"),
            ]
        );
    });
}
