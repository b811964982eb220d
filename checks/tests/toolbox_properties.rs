//! Properties of `Toolbox::run` over arbitrary turns, cancelled or not,, on paused tokio
//! time.
//!
//! Each generated turn is a list of calls; each call is one of: a success,
//! a permanent failure (its source error holds a secret), a transient
//! failure `k` times then a success (the secret in the transient source), a
//! panic (the secret in the payload, sync or async), a hang past its
//! timeout, an unknown tool name, or bad arguments (a wrong type, or text
//! that is not JSON). Every call that names a tool has a tool of its own,
//! registered with a generated [`ToolSafety`]; the toolbox has a generated
//! timeout, retry policy (`max_attempts`, a constant backoff without
//! jitter, `retry_non_idempotent` on or off) and concurrency (1, 2 or
//! unlimited), and the turn is cancelled at a generated time, at once, or
//! never.
//!
//! Every expectation comes from a small model written here, not from the
//! code under test:
//!
//! - each call's attempts and their start times (relative to the call's
//!   start) follow from its behaviour: a body takes `d`, a hang takes the
//!   timeout; a retry (allowed when the failure is transient, the tool is
//!   idempotent or `retry_non_idempotent` is set, and fewer than
//!   `max_attempts` were made) starts `delay` after the failure;
//! - calls start in call order as concurrency slots free up (list
//!   scheduling: each takes the slot that frees first), so every call has
//!   an exact start and end time;
//! - the cancel time is always 50 ms off the 100 ms grid every other event
//!   is on, so no event ties with it: a call that ends before it keeps its
//!   answer, one running at it is answered cancelled with the attempts
//!   started before it, one not started is answered cancelled with 0.
//!
//! Because the system is causal, the schedule before the cancel is the same
//! with or without it, so the model is exact for concurrency limits and
//! cancellation together.
//!
//! Checked per case: one answer per call, in call order, ids and names
//! matched; each output, `isError`, source type and attempt count; how many
//! times each tool body actually ran (a counter shared with the body), also
//! long after the turn (nothing runs after a cancel); the turn's duration;
//! each provider's `reply` against the full JSON that provider documents;
//! and that no secret appears in any rendering or in the outputs.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;
use std::sync::Once;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde_json::{Value, json};
use toolresult::provider::{
    Anthropic, Call, Gemini, Mcp, OpenAiChat, OpenAiResponses, PartPolicy, Provider,
};
use toolresult::retry::{Backoff, Cancelled, RetryPolicy};
use toolresult::tool::Arguments;
use toolresult::tool::{self, InvalidArguments, ToolPanicked, ToolSafety};
use toolresult::toolbox::{CallOutcome, TimedOut, Toolbox, UnknownTool};
use toolresult::{Failure, ToolError, ToolResult};

/// Every duration of the model is a whole number of these.
const UNIT_MS: u64 = 100;
/// How long a hanging tool would take: far past any timeout.
const HANG_MS: u64 = 1_000_000;
/// What every secret starts with; no rendering may hold it.
const SECRET: &str = "SECRET-";

const CANCELLED: &str = r#"{"error":{"message":"the call was cancelled before it finished"}}"#;
const PANICKED: &str =
    r#"{"error":{"message":"the tool failed with an unexpected error (ToolPanicked)"}}"#;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Input {
    #[allow(dead_code)]
    x: u32,
}

/// What one call of the turn does.
#[derive(Debug, Clone)]
enum Behaviour {
    /// Takes `d` units, then succeeds.
    Success { d: u64 },
    /// Takes `d` units, then fails for good (secret in the source).
    Permanent { d: u64 },
    /// Each attempt takes `d` units; the first `k` fail transiently (secret
    /// in the source), then it succeeds.
    Flaky { d: u64, k: u32 },
    /// Panics with the secret: at once in a sync tool, after `d` units in
    /// an async one.
    Panic { d: u64, sync: bool },
    /// Never finishes within the timeout.
    Hang,
    /// Calls a name no tool has.
    Unknown,
    /// Calls its tool with arguments that do not decode.
    BadArgs { not_json: bool },
}

#[derive(Debug, Clone)]
struct CallSpec {
    behaviour: Behaviour,
    safety: ToolSafety,
}

#[derive(Debug, Clone, Copy)]
enum Cancel {
    Never,
    Immediately,
    /// Cancelled at this many milliseconds (never on the 100 ms grid).
    AtMs(u64),
}

#[derive(Debug, Clone)]
struct Turn {
    calls: Vec<CallSpec>,
    timeout: u64,
    max_attempts: u32,
    delay: u64,
    retry_non_idempotent: bool,
    concurrency: Option<usize>,
    cancel: Cancel,
}

fn behaviour() -> impl Strategy<Value = Behaviour> {
    prop_oneof![
        (0..=4u64).prop_map(|d| Behaviour::Success { d }),
        (0..=4u64).prop_map(|d| Behaviour::Permanent { d }),
        (0..=4u64, 0..=4u32).prop_map(|(d, k)| Behaviour::Flaky { d, k }),
        (0..=4u64, any::<bool>()).prop_map(|(d, sync)| Behaviour::Panic {
            d: if sync { 0 } else { d },
            sync
        }),
        Just(Behaviour::Hang),
        Just(Behaviour::Unknown),
        any::<bool>().prop_map(|not_json| Behaviour::BadArgs { not_json }),
    ]
}

fn safety() -> impl Strategy<Value = ToolSafety> {
    prop::sample::select(vec![
        ToolSafety::ReadOnly,
        ToolSafety::Idempotent,
        ToolSafety::IdempotentDestructive,
        ToolSafety::Additive,
        ToolSafety::Destructive,
    ])
}

fn turn() -> impl Strategy<Value = Turn> {
    let call =
        (behaviour(), safety()).prop_map(|(behaviour, safety)| CallSpec { behaviour, safety });
    let cancel = prop_oneof![
        3 => Just(Cancel::Never),
        1 => Just(Cancel::Immediately),
        4 => (0..80u64).prop_map(|k| Cancel::AtMs(k * UNIT_MS + UNIT_MS / 2)),
    ];
    (
        prop::collection::vec(call, 0..7),
        5..=9u64,
        1..=4u32,
        0..=3u64,
        prop::bool::weighted(0.25),
        prop::sample::select(vec![Some(1), Some(2), None]),
        cancel,
    )
        .prop_map(
            |(calls, timeout, max_attempts, delay, retry_non_idempotent, concurrency, cancel)| {
                Turn {
                    calls,
                    timeout,
                    max_attempts,
                    delay,
                    retry_non_idempotent,
                    concurrency,
                    cancel,
                }
            },
        )
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------- the model

/// Which source error an answer carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    None,
    /// A `std::io::Error` whose text is the call's secret.
    Io,
    Panicked,
    TimedOut,
    Unknown,
    InvalidArguments,
    Cancelled,
}

/// What the model says one call's answer is.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Answer {
    output: String,
    is_error: bool,
    attempts: u32,
    /// How many times the tool's body ran.
    body_runs: u32,
    source: Source,
}

/// One call, uncancelled: when its attempts start (ms after the call
/// starts), whether an attempt runs the tool's body, how long it takes in
/// all, and its answer.
struct Plan {
    attempt_starts: Vec<u64>,
    runs_body: bool,
    total_ms: u64,
    answer: Answer,
}

fn error_json(message: &str, suggestion: Option<&str>) -> String {
    let mut error = json!({ "message": message });
    if let Some(suggestion) = suggestion {
        error["suggestion"] = json!(suggestion);
    }
    json!({ "error": error }).to_string()
}

/// A duration as the timeout message words it: `500ms`, `1.5s`, `2s`.
fn words(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms}ms")
    } else if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        format!("{}s", text.trim_end_matches('0'))
    }
}

fn tool_name(index: usize) -> String {
    format!("tool_{index}")
}

fn call_name(index: usize, spec: &CallSpec) -> String {
    match spec.behaviour {
        Behaviour::Unknown => format!("missing_{index}"),
        _ => tool_name(index),
    }
}

fn secret(index: usize) -> String {
    format!("{SECRET}{index}")
}

fn plan(turn: &Turn, index: usize, spec: &CallSpec, registered: &[String]) -> Plan {
    let timeout_ms = turn.timeout * UNIT_MS;
    let delay_ms = turn.delay * UNIT_MS;
    let may_retry = spec.safety.allows_retry() || turn.retry_non_idempotent;
    // `n` attempts of `each` ms, `delay_ms` apart.
    let attempts = |n: u32, each: u64| -> (Vec<u64>, u64) {
        let starts = (0..u64::from(n)).map(|j| j * (each + delay_ms)).collect();
        (starts, u64::from(n) * each + u64::from(n - 1) * delay_ms)
    };
    let answer = |output: String, is_error: bool, n: u32, source: Source| Answer {
        output,
        is_error,
        attempts: n,
        body_runs: n,
        source,
    };
    match spec.behaviour {
        Behaviour::Success { d } => {
            let (attempt_starts, total_ms) = attempts(1, d * UNIT_MS);
            Plan {
                attempt_starts,
                runs_body: true,
                total_ms,
                answer: answer(format!("ok {index}"), false, 1, Source::None),
            }
        }
        Behaviour::Permanent { d } => {
            let (attempt_starts, total_ms) = attempts(1, d * UNIT_MS);
            let output = error_json(&format!("permanent failure {index}"), None);
            Plan {
                attempt_starts,
                runs_body: true,
                total_ms,
                answer: answer(output, true, 1, Source::Io),
            }
        }
        Behaviour::Flaky { d, k } => {
            let n = if may_retry {
                (k + 1).min(turn.max_attempts)
            } else {
                1
            };
            let (attempt_starts, total_ms) = attempts(n, d * UNIT_MS);
            let answer = if n == k + 1 {
                answer(format!("ok {index} after {k}"), false, n, Source::None)
            } else {
                let output = error_json(&format!("transient failure {index}"), None);
                answer(output, true, n, Source::Io)
            };
            Plan {
                attempt_starts,
                runs_body: true,
                total_ms,
                answer,
            }
        }
        Behaviour::Panic { d, .. } => {
            let (attempt_starts, total_ms) = attempts(1, d * UNIT_MS);
            Plan {
                attempt_starts,
                runs_body: true,
                total_ms,
                answer: answer(PANICKED.to_owned(), true, 1, Source::Panicked),
            }
        }
        Behaviour::Hang => {
            let n = if may_retry { turn.max_attempts } else { 1 };
            let (attempt_starts, total_ms) = attempts(n, timeout_ms);
            let output = error_json(
                &format!("the tool did not finish within {}", words(timeout_ms)),
                Some("try again, or ask for less at once"),
            );
            Plan {
                attempt_starts,
                runs_body: true,
                total_ms,
                answer: answer(output, true, n, Source::TimedOut),
            }
        }
        Behaviour::Unknown => {
            let suggestion = if registered.is_empty() {
                "there are no tools to call".to_owned()
            } else {
                let names: Vec<String> = registered.iter().map(|n| format!("`{n}`")).collect();
                format!("call one of: {}", names.join(", "))
            };
            let output = error_json(
                &format!("there is no tool named `missing_{index}`"),
                Some(&suggestion),
            );
            Plan {
                attempt_starts: Vec::new(),
                runs_body: false,
                total_ms: 0,
                answer: Answer {
                    output,
                    is_error: true,
                    attempts: 0,
                    body_runs: 0,
                    source: Source::Unknown,
                },
            }
        }
        Behaviour::BadArgs { not_json } => {
            let message = if not_json {
                let serde = serde_json::from_str::<Value>(NOT_JSON).unwrap_err();
                format!("invalid arguments: the arguments are not JSON: {serde}")
            } else {
                r#"invalid arguments at `x`: invalid type: string "nope", expected u32"#.to_owned()
            };
            let suggestion = format!(
                "call `{}` again with arguments that match its input schema",
                tool_name(index)
            );
            Plan {
                attempt_starts: vec![0],
                runs_body: false,
                total_ms: 0,
                answer: Answer {
                    output: error_json(&message, Some(&suggestion)),
                    is_error: true,
                    attempts: 1,
                    body_runs: 0,
                    source: Source::InvalidArguments,
                },
            }
        }
    }
}

const NOT_JSON: &str = r#"{"x": 1,"#;

/// Every call's answer, and how long the turn takes (ms).
fn model(turn: &Turn) -> (Vec<Answer>, u64) {
    let registered: Vec<String> = turn
        .calls
        .iter()
        .enumerate()
        .filter(|(_, spec)| !matches!(spec.behaviour, Behaviour::Unknown))
        .map(|(index, _)| tool_name(index))
        .collect();
    let plans: Vec<Plan> = turn
        .calls
        .iter()
        .enumerate()
        .map(|(index, spec)| plan(turn, index, spec, &registered))
        .collect();
    // List scheduling: each call, in order, takes the slot that frees first.
    let slots = turn.concurrency.unwrap_or(usize::MAX).min(plans.len());
    let mut free: BinaryHeap<Reverse<u64>> = (0..slots).map(|_| Reverse(0)).collect();
    let mut spans = Vec::with_capacity(plans.len());
    for plan in &plans {
        let Reverse(start) = free.pop().expect("a slot");
        let end = start + plan.total_ms;
        free.push(Reverse(end));
        spans.push((start, end));
    }
    let all_done = spans.iter().map(|&(_, end)| end).max().unwrap_or(0);
    let cancel_ms = match turn.cancel {
        Cancel::Never => None,
        Cancel::Immediately => Some(0),
        Cancel::AtMs(ms) => Some(ms),
    };
    let answers = plans
        .into_iter()
        .zip(&spans)
        .map(|(plan, &(start, end))| match cancel_ms {
            // `end < 0` never holds: at once, even an instant call is cancelled.
            Some(at) if at == 0 || end > at => {
                let started = plan
                    .attempt_starts
                    .iter()
                    .filter(|&&offset| start + offset < at)
                    .count();
                let started = u32::try_from(started).expect("few attempts");
                Answer {
                    output: CANCELLED.to_owned(),
                    is_error: true,
                    attempts: started,
                    body_runs: if plan.runs_body { started } else { 0 },
                    source: Source::Cancelled,
                }
            }
            _ => plan.answer,
        })
        .collect();
    let elapsed = match cancel_ms {
        Some(at) if at == 0 || all_done > at => at,
        _ => all_done,
    };
    (answers, elapsed)
}

// ------------------------------------------------------------- the system

/// Silences the panics the tools throw on purpose (their payloads hold a
/// secret); any other panic is reported as usual.
fn quiet_tool_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let text = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or_default();
            if !text.starts_with("tool body panicked: ") {
                previous(info);
            }
        }));
    });
}

fn sleep_units(d: u64) -> tokio::time::Sleep {
    tokio::time::sleep(Duration::from_millis(d * UNIT_MS))
}

fn build(turn: &Turn) -> (Toolbox, Vec<Arc<AtomicU32>>, Vec<Call>) {
    let policy = RetryPolicy::new()
        .max_attempts(turn.max_attempts)
        .backoff(Backoff::constant(Duration::from_millis(
            turn.delay * UNIT_MS,
        )))
        .retry_non_idempotent(turn.retry_non_idempotent);
    let mut toolbox = Toolbox::new()
        .timeout(Duration::from_millis(turn.timeout * UNIT_MS))
        .retry(policy);
    if let Some(limit) = turn.concurrency {
        toolbox = toolbox.concurrency(limit);
    }
    let mut counters = Vec::new();
    let mut calls = Vec::new();
    for (index, spec) in turn.calls.iter().enumerate() {
        let runs = Arc::new(AtomicU32::new(0));
        counters.push(Arc::clone(&runs));
        let name = tool_name(index);
        let secret = secret(index);
        let behaviour = spec.behaviour.clone();
        let registered = match behaviour {
            Behaviour::Unknown => None,
            Behaviour::Panic { sync: true, .. } => Some(
                toolbox.register(
                    tool::function(&name, "Panics", move |_: Input| -> ToolResult<String> {
                        runs.fetch_add(1, Ordering::SeqCst);
                        panic!("tool body panicked: {secret}")
                    })
                    .expect("a valid name")
                    .with_safety(spec.safety),
                ),
            ),
            _ => Some(
                toolbox.register(
                    tool::function(&name, "Behaves", move |_: Input| {
                        let before = runs.fetch_add(1, Ordering::SeqCst);
                        let behaviour = behaviour.clone();
                        let secret = secret.clone();
                        async move { body(index, &behaviour, before, &secret).await }
                    })
                    .expect("a valid name")
                    .with_safety(spec.safety),
                ),
            ),
        };
        if let Some(registered) = registered {
            registered.expect("registered");
        }
        let id = format!("call_{index}");
        let arguments = match spec.behaviour {
            Behaviour::BadArgs { not_json: true } => Arguments::Text(NOT_JSON.to_owned()),
            Behaviour::BadArgs { not_json: false } => Arguments::Json(json!({"x": "nope"})),
            _ if index.is_multiple_of(2) => Arguments::Text(r#"{"x": 7}"#.to_owned()),
            _ => Arguments::Json(json!({"x": 7})),
        };
        calls.push(Call::new(id, call_name(index, spec), arguments));
    }
    (toolbox, counters, calls)
}

/// An async tool's body; `before` is how many times it ran before.
async fn body(
    index: usize,
    behaviour: &Behaviour,
    before: u32,
    secret: &str,
) -> ToolResult<String> {
    match *behaviour {
        Behaviour::Success { d } => {
            sleep_units(d).await;
            ToolResult::ok(format!("ok {index}"))
        }
        Behaviour::Permanent { d } => {
            sleep_units(d).await;
            ToolResult::fail(
                Failure::new(ToolError::new(format!("permanent failure {index}")))
                    .with_source(std::io::Error::other(secret.to_owned()))
                    .permanent(),
            )
        }
        Behaviour::Flaky { d, k } => {
            sleep_units(d).await;
            if before < k {
                ToolResult::fail(
                    Failure::new(ToolError::new(format!("transient failure {index}")))
                        .with_source(std::io::Error::new(
                            std::io::ErrorKind::ConnectionReset,
                            secret.to_owned(),
                        ))
                        .transient(),
                )
            } else {
                ToolResult::ok(format!("ok {index} after {k}"))
            }
        }
        Behaviour::Panic { d, .. } => {
            sleep_units(d).await;
            panic!("tool body panicked: {secret}")
        }
        Behaviour::Hang => {
            tokio::time::sleep(Duration::from_millis(HANG_MS)).await;
            ToolResult::ok(format!("late {index}"))
        }
        Behaviour::Unknown | Behaviour::BadArgs { .. } => ToolResult::ok(format!("ok {index}")),
    }
}

/// What one outcome says, in the model's terms.
fn observed(outcome: &CallOutcome, runs: u32, secret: &str) -> Answer {
    let source = outcome.lowered.diagnostics.source();
    let kind = match source {
        None => Source::None,
        Some(s) if s.is::<Cancelled>() => Source::Cancelled,
        Some(s) if s.is::<TimedOut>() => Source::TimedOut,
        Some(s) if s.is::<UnknownTool>() => Source::Unknown,
        Some(s) if s.is::<InvalidArguments>() => Source::InvalidArguments,
        Some(s)
            if s.downcast_ref::<ToolPanicked>()
                .is_some_and(|p| p.message().contains(secret)) =>
        {
            Source::Panicked
        }
        // The secret is there, on the Rust channel, for the test to look for.
        Some(s)
            if s.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.to_string() == secret) =>
        {
            Source::Io
        }
        Some(other) => panic!("an unexpected source: {other:?}"),
    };
    Answer {
        output: outcome.lowered.result.output.clone(),
        is_error: outcome.lowered.result.is_error,
        attempts: outcome.attempts,
        body_runs: runs,
        source: kind,
    }
}

/// Each provider's reply to the turn, as the JSON that provider documents,
/// built from the model's answers.
fn expected_replies(turn: &Turn, answers: &[Answer]) -> [Value; 5] {
    let each = || {
        answers.iter().enumerate().map(|(index, answer)| {
            (
                format!("call_{index}"),
                call_name(index, &turn.calls[index]),
                answer,
            )
        })
    };
    let chat: Vec<Value> = each()
        .map(|(id, _, a)| json!({"role": "tool", "tool_call_id": id, "content": a.output}))
        .collect();
    let responses: Vec<Value> = each()
        .map(
            |(id, _, a)| json!({"type": "function_call_output", "call_id": id, "output": a.output}),
        )
        .collect();
    let blocks: Vec<Value> = each()
        .map(|(id, _, a)| {
            let mut block = json!({"type": "tool_result", "tool_use_id": id, "content": a.output});
            if a.is_error {
                block["is_error"] = json!(true);
            }
            block
        })
        .collect();
    let parts: Vec<Value> = each()
        .map(|(id, name, a)| {
            let key = if a.is_error { "error" } else { "output" };
            json!({"functionResponse": {"id": id, "name": name, "response": {key: a.output}}})
        })
        .collect();
    let mcp: Vec<Value> = each()
        .map(|(_, _, a)| json!({"content": [{"type": "text", "text": a.output}], "isError": a.is_error}))
        .collect();
    [
        Value::Array(chat),
        Value::Array(responses),
        json!({"role": "user", "content": blocks}),
        json!({"role": "user", "parts": parts}),
        Value::Array(mcp),
    ]
}

fn check(turn: &Turn) -> Result<(), TestCaseError> {
    quiet_tool_panics();
    let (expected, expected_ms) = model(turn);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("a runtime");
    let (toolbox, counters, calls) = build(turn);
    let cancel = turn.cancel;
    let (outcomes, elapsed, runs_at_end, runs_long_after) = runtime.block_on(async {
        let started = tokio::time::Instant::now();
        let token = tokio_util::sync::CancellationToken::new();
        match cancel {
            Cancel::Never => {}
            Cancel::Immediately => token.cancel(),
            Cancel::AtMs(ms) => {
                let token = token.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    token.cancel();
                });
            }
        }
        let turn = toolresult::toolbox::Turn::new(calls).with_cancellation(token);
        let outcomes = toolbox.run(turn).await;
        let elapsed = started.elapsed();
        let runs = |counters: &[Arc<AtomicU32>]| -> Vec<u32> {
            counters.iter().map(|c| c.load(Ordering::SeqCst)).collect()
        };
        let at_end = runs(&counters);
        // Long after: nothing dropped comes back, nothing is retried.
        tokio::time::sleep(Duration::from_millis(10 * HANG_MS)).await;
        (outcomes, elapsed, at_end, runs(&counters))
    });

    // One answer per call, in call order, under its id and name.
    prop_assert_eq!(outcomes.len(), turn.calls.len());
    for (index, outcome) in outcomes.iter().enumerate() {
        prop_assert_eq!(&outcome.call.id, &format!("call_{index}"));
        prop_assert_eq!(&outcome.call.name, &call_name(index, &turn.calls[index]));
    }
    let got: Vec<Answer> = outcomes
        .iter()
        .zip(&runs_at_end)
        .enumerate()
        .map(|(index, (outcome, &runs))| observed(outcome, runs, &secret(index)))
        .collect();
    prop_assert_eq!(&got, &expected);
    prop_assert_eq!(&runs_long_after, &runs_at_end);
    prop_assert_eq!(elapsed, Duration::from_millis(expected_ms));

    // Every provider's reply, in the shape it documents, with no secret.
    let rendered = [
        serde_json::to_string(&OpenAiChat::reply(&outcomes, PartPolicy::Strict).expect("chat"))
            .expect("json"),
        serde_json::to_string(
            &OpenAiResponses::reply(&outcomes, PartPolicy::Strict).expect("responses"),
        )
        .expect("json"),
        serde_json::to_string(&Anthropic::reply(&outcomes, PartPolicy::Strict).expect("anthropic"))
            .expect("json"),
        serde_json::to_string(&Gemini::reply(&outcomes, PartPolicy::Strict).expect("gemini"))
            .expect("json"),
        serde_json::to_string(&Mcp::reply(&outcomes, PartPolicy::Strict).unwrap()).expect("json"),
    ];
    let styles = [
        "openai_chat",
        "openai_responses",
        "anthropic",
        "gemini",
        "mcp",
    ];
    for ((style, text), want) in styles
        .iter()
        .zip(&rendered)
        .zip(expected_replies(turn, &expected))
    {
        prop_assert!(!text.contains(SECRET), "{} leaks a secret: {}", style, text);
        let value: Value = serde_json::from_str(text).expect("valid JSON");
        prop_assert_eq!(value, want, "{} reply", style);
    }
    for outcome in &outcomes {
        let debug = format!("{:?}", outcome.lowered.result);
        prop_assert!(
            !debug.contains(SECRET),
            "the result leaks a secret: {}",
            debug
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_call_is_answered_once_as_the_model_says(turn in turn()) {
        check(&turn)?;
    }
}

/// The model itself, on a hand-worked turn: two slots, a retry, a cancel.
#[test]
fn the_model_on_a_worked_turn() {
    let turn = Turn {
        calls: vec![
            CallSpec {
                behaviour: Behaviour::Flaky { d: 1, k: 2 },
                safety: ToolSafety::ReadOnly,
            },
            CallSpec {
                behaviour: Behaviour::Hang,
                safety: ToolSafety::Additive,
            },
            CallSpec {
                behaviour: Behaviour::Success { d: 4 },
                safety: ToolSafety::Destructive,
            },
            CallSpec {
                behaviour: Behaviour::Success { d: 4 },
                safety: ToolSafety::Destructive,
            },
        ],
        timeout: 5,
        max_attempts: 3,
        delay: 2,
        retry_non_idempotent: false,
        concurrency: Some(2),
        cancel: Cancel::AtMs(1150),
    };
    // Call 0: attempts at 0, 300, 600 ms, succeeds at 700 ms. Call 1: times
    // out at 500 ms, not retried (additive). Call 2 takes call 1's slot at
    // 500 ms, ends at 900 ms; call 3 takes call 0's at 700 ms and ends at
    // 1100 ms, before the cancel at 1150 ms.
    let (answers, elapsed) = model(&turn);
    assert_eq!(
        answers
            .iter()
            .map(|a| (a.attempts, a.is_error))
            .collect::<Vec<_>>(),
        [(3, false), (1, true), (1, false), (1, false)]
    );
    assert_eq!(
        answers[1].output,
        error_json(
            "the tool did not finish within 500ms",
            Some("try again, or ask for less at once")
        )
    );
    assert_eq!(elapsed, 1100);
    check(&turn).expect("the toolbox agrees");
    let earlier = Turn {
        cancel: Cancel::AtMs(650),
        ..turn
    };
    let (answers, elapsed) = model(&earlier);
    // At 650 ms call 0 is in its third attempt, call 2 is running, call 3
    // has not started.
    assert_eq!(
        answers
            .iter()
            .map(|a| (a.attempts, a.body_runs, a.source))
            .collect::<Vec<_>>(),
        [
            (3, 3, Source::Cancelled),
            (1, 1, Source::TimedOut),
            (1, 1, Source::Cancelled),
            (0, 0, Source::Cancelled)
        ]
    );
    assert_eq!(elapsed, 650);
    check(&earlier).expect("the toolbox agrees");
}
