//! The retry policy reads the Rust channel: hint, heuristics, classifiers,
//! retry-after, tool safety, cancellation; the blocking runner, the backon
//! and tower adapters, the callback and the tracing events.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use toolresult::retry::{
    Backoff, Cancelled, Classification, Decision, RetryEvent, RetryPolicy, StopReason,
};
use toolresult::tool::ToolSafety;
use toolresult::{Failure, IntoToolResult, Lowered, ToolResult};

mod retry_support;
use retry_support::{READ_ONLY, SECRET, failure, io, read_only_policy};

/// Runs `call` (given the 1-based call number) of a read-only tool under
/// `policy`, recording the delays.
fn run<R: toolresult::retry::RetryInput>(
    policy: &RetryPolicy,
    call: impl FnMut(u32) -> R,
) -> (toolresult::retry::RunOutcome<R>, Vec<Duration>) {
    run_as(policy, READ_ONLY, call)
}

/// [`run`] for a tool of the given safety.
fn run_as<R: toolresult::retry::RetryInput>(
    policy: &RetryPolicy,
    safety: ToolSafety,
    mut call: impl FnMut(u32) -> R,
) -> (toolresult::retry::RunOutcome<R>, Vec<Duration>) {
    let mut slept = Vec::new();
    let mut n = 0;
    let outcome = policy.run_with_sleeper(
        safety,
        |d| slept.push(d),
        || {
            n += 1;
            call(n)
        },
    );
    (outcome, slept)
}

fn ms(values: &[u64]) -> Vec<Duration> {
    values.iter().map(|&v| Duration::from_millis(v)).collect()
}

// --- the explicit hint ---------------------------------------------------

#[test]
fn transient_true_is_retried_up_to_the_limit_then_surfaced() {
    let (run, slept) = run(&read_only_policy(), |n| -> ToolResult<u8> {
        ToolResult::fail(failure(n).transient())
    });
    assert_eq!(run.attempts, 4);
    assert_eq!(run.stop, StopReason::AttemptsExhausted { attempts: 4 });
    assert_eq!(slept, ms(&[10, 20, 40]));
    // The last failure is what comes back, model channel intact.
    assert_eq!(
        run.outcome.lower().result.output,
        r#"{"error":{"message":"attempt 4 failed"}}"#
    );
}

#[test]
fn transient_true_recovers_when_a_later_call_succeeds() {
    let (run, slept) = run(&read_only_policy(), |n| -> ToolResult<&str> {
        if n < 3 {
            ToolResult::fail(failure(n).transient())
        } else {
            ToolResult::ok("fetched")
        }
    });
    assert_eq!((run.attempts, run.stop), (3, StopReason::Succeeded));
    assert_eq!(run.outcome.value(), Some(&"fetched"));
    assert_eq!(slept, ms(&[10, 20]));
}

#[test]
fn transient_false_is_never_retried_even_over_a_timeout_source() {
    let (run, slept) = run(&read_only_policy(), |n| -> ToolResult<u8> {
        ToolResult::fail(
            failure(n)
                .with_source(io(std::io::ErrorKind::TimedOut))
                .permanent(),
        )
    });
    assert_eq!((run.attempts, run.stop), (1, StopReason::Permanent));
    assert!(slept.is_empty());
}

#[test]
fn a_success_is_never_retried() {
    let policy = read_only_policy();
    assert_eq!(
        policy.decide(READ_ONLY, &ToolResult::<u8>::ok(1), 1),
        Decision::Stop(StopReason::Succeeded)
    );
}

// --- no hint: the heuristics over the chain ------------------------------

#[test]
fn no_hint_follows_the_io_heuristics_over_the_whole_chain() {
    use std::io::ErrorKind::*;
    let policy = read_only_policy();
    for (kind, retried) in [
        (TimedOut, true),
        (ConnectionReset, true),
        (ConnectionRefused, true),
        (ConnectionAborted, true),
        (BrokenPipe, true),
        (InvalidData, false),
        (InvalidInput, false),
        (NotFound, false),
        (PermissionDenied, false),
    ] {
        // Buried under two layers of context, as real tool bodies do.
        let source = anyhow::Error::new(io(kind))
            .context("reading the forecast")
            .context("calling the weather service");
        let outcome: ToolResult<u8> = ToolResult::fail(failure(1).with_source(source));
        let hint = outcome
            .failure()
            .expect("a failure")
            .diagnostics()
            .is_transient();
        assert_eq!(hint, None, "{kind:?}");
        let expected = if retried {
            Decision::Retry(Duration::from_millis(10))
        } else {
            Decision::Stop(StopReason::Permanent)
        };
        assert_eq!(policy.decide(READ_ONLY, &outcome, 1), expected, "{kind:?}");
    }
}

#[test]
fn no_hint_reads_an_io_error_wrapped_inside_a_custom_io_error() {
    // `io::Error::other` hides its payload from `source()`; the walk still finds it.
    let inner = io(std::io::ErrorKind::ConnectionReset);
    let outer = std::io::Error::other(anyhow::Error::new(inner).context("pool"));
    let policy = read_only_policy();
    let outcome: ToolResult<u8> = ToolResult::fail(failure(1).with_source(outer));
    assert!(policy.decide(READ_ONLY, &outcome, 1).is_retry());
}

#[test]
fn no_hint_and_nothing_known_is_unknown_and_not_retried_unless_asked() {
    let outcome: ToolResult<u8> = ToolResult::fail(failure(1).with_source(std::fmt::Error));
    let policy = read_only_policy();
    assert_eq!(policy.classification(&outcome), Classification::Unknown);
    assert_eq!(
        policy.decide(READ_ONLY, &outcome, 1),
        Decision::Stop(StopReason::Unknown)
    );
    // Without any source at all, the same.
    let bare: ToolResult<u8> = ToolResult::fail(failure(1));
    assert_eq!(
        policy.decide(READ_ONLY, &bare, 1),
        Decision::Stop(StopReason::Unknown)
    );
    // Opting in retries both.
    let eager = read_only_policy().unknown_is_transient(true);
    assert!(eager.decide(READ_ONLY, &outcome, 1).is_retry());
    assert!(eager.decide(READ_ONLY, &bare, 1).is_retry());
}

#[derive(Debug, thiserror::Error)]
#[error("http {status}: {body}")]
struct HttpError {
    status: u16,
    body: String,
}

fn http_policy() -> RetryPolicy {
    read_only_policy().classify::<HttpError, _, _>(|e| match e.status {
        408 | 429 | 500..=599 => Some(Classification::Transient),
        400..=499 => Some(Classification::Permanent),
        _ => None,
    })
}

#[test]
fn user_classifiers_decide_for_their_own_error_types_anywhere_in_the_chain() {
    let policy = http_policy();
    for (status, retried) in [
        (408, true),
        (429, true),
        (503, true),
        (404, false),
        (401, false),
    ] {
        let source = anyhow::Error::new(HttpError {
            status,
            body: SECRET.to_owned(),
        })
        .context("fetching");
        let outcome: ToolResult<u8> = ToolResult::fail(failure(1).with_source(source));
        assert_eq!(
            policy.decide(READ_ONLY, &outcome, 1).is_retry(),
            retried,
            "{status}"
        );
    }
    // A classifier that passes (`None`) lets the walk go on to the I/O table.
    let passing = anyhow::Error::new(io(std::io::ErrorKind::TimedOut)).context(HttpError {
        status: 302,
        body: String::new(),
    });
    let outcome: ToolResult<u8> = ToolResult::fail(failure(1).with_source(passing));
    assert!(policy.decide(READ_ONLY, &outcome, 1).is_retry());
}

#[test]
fn the_explicit_hint_wins_over_classifiers() {
    let source = HttpError {
        status: 404,
        body: String::new(),
    };
    let outcome: ToolResult<u8> = ToolResult::fail(failure(1).with_source(source).transient());
    assert!(http_policy().decide(READ_ONLY, &outcome, 1).is_retry());
}

// --- retry-after -----------------------------------------------------------

#[test]
fn retry_after_is_honoured_when_longer_than_the_backoff() {
    let (run, slept) = run(&read_only_policy(), |n| -> ToolResult<u8> {
        let f = failure(n).transient();
        // The second failure asks for less than its backoff: the backoff wins.
        let asked = if n == 2 { 5 } else { 250 };
        ToolResult::fail(f.with_retry_after(Duration::from_millis(asked)))
    });
    assert_eq!(run.attempts, 4);
    assert_eq!(slept, ms(&[250, 20, 250]));
}

#[test]
fn retry_after_beyond_the_cap_is_honoured_but_beyond_the_limit_stops() {
    let policy = read_only_policy().max_retry_after(Some(Duration::from_secs(30)));
    let asks = |secs| -> ToolResult<u8> {
        ToolResult::fail(
            failure(1)
                .transient()
                .with_retry_after(Duration::from_secs(secs)),
        )
    };
    // The backoff's cap is 1 s; a retry-after of 20 s is still waited for.
    assert_eq!(
        policy.decide(READ_ONLY, &asks(20), 1),
        Decision::Retry(Duration::from_secs(20))
    );
    assert_eq!(
        policy.decide(READ_ONLY, &asks(31), 1),
        Decision::Stop(StopReason::RetryAfterTooLong {
            retry_after: Duration::from_secs(31)
        })
    );
    let patient = policy.max_retry_after(None);
    assert!(patient.decide(READ_ONLY, &asks(3600), 1).is_retry());
}

// --- tool safety -------------------------------------------------------------

#[test]
fn a_tool_that_promises_nothing_is_not_retried_by_default() {
    let (run, slept) = run_as(
        &read_only_policy(),
        ToolSafety::default(),
        |n| -> ToolResult<u8> { ToolResult::fail(failure(n).transient()) },
    );
    assert_eq!((run.attempts, run.stop), (1, StopReason::NotIdempotent));
    assert!(slept.is_empty());
    // A tool defined without a safety promises nothing, and `RetryPolicy::new()`
    // does not retry it.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Mail {
        _to: String,
    }
    let send = toolresult::tool::function("send_email", "Sends an email", |_: Mail| ()).unwrap();
    assert_eq!(toolresult::Tool::safety(&send), ToolSafety::Destructive);
    let outcome: ToolResult<u8> = ToolResult::fail(failure(1).transient());
    assert_eq!(
        RetryPolicy::new().decide(toolresult::Tool::safety(&send), &outcome, 1),
        Decision::Stop(StopReason::NotIdempotent)
    );
    assert_eq!(
        RetryPolicy::new().decide(ToolSafety::Additive, &outcome, 1),
        Decision::Stop(StopReason::NotIdempotent)
    );
}

#[test]
fn idempotent_tools_and_callers_who_opt_in_are_retried() {
    let outcome: ToolResult<u8> = ToolResult::fail(failure(1).transient());
    for safety in [
        ToolSafety::ReadOnly,
        ToolSafety::Idempotent,
        ToolSafety::IdempotentDestructive,
    ] {
        assert!(
            read_only_policy().decide(safety, &outcome, 1).is_retry(),
            "{safety:?}"
        );
    }
    let opted_in = read_only_policy().retry_non_idempotent(true);
    assert!(
        opted_in
            .decide(ToolSafety::default(), &outcome, 1)
            .is_retry()
    );
    assert!(
        opted_in
            .decide(ToolSafety::Additive, &outcome, 1)
            .is_retry()
    );
}

// --- cancellation and suspension ----------------------------------------------

#[test]
fn a_cancelled_call_is_never_retried_whatever_its_hint() {
    let policy = read_only_policy().unknown_is_transient(true);
    let direct: ToolResult<u8> = ToolResult::fail(failure(1).with_source(Cancelled).transient());
    let buried: ToolResult<u8> = ToolResult::fail(
        failure(1)
            .with_source(anyhow::Error::new(Cancelled).context("deadline passed"))
            .transient(),
    );
    let in_io: ToolResult<u8> =
        ToolResult::fail(failure(1).with_source(std::io::Error::other(Cancelled)));
    for outcome in [direct, buried, in_io] {
        let (run, slept) = run(&policy, |_| -> &ToolResult<u8> { &outcome });
        assert_eq!((run.attempts, run.stop), (1, StopReason::Cancelled));
        assert!(slept.is_empty());
    }
}

#[test]
fn a_suspended_call_is_waiting_for_an_answer_not_failing() {
    let pending = toolresult::canonical::ToolResult::auth_required("https://auth.example/x", None);
    let lowered = pending.clone().lower();
    let policy = read_only_policy().unknown_is_transient(true);
    assert_eq!(
        policy.decide(READ_ONLY, &lowered, 1),
        Decision::Stop(StopReason::Suspended)
    );
    let mut flagged = pending;
    flagged.is_error = true;
    assert_eq!(
        policy.decide(READ_ONLY, &flagged, 1),
        Decision::Stop(StopReason::Suspended)
    );
}

// --- the lowered level ------------------------------------------------------------

#[test]
fn the_same_decisions_on_the_lowered_result_and_diagnostics() {
    let policy = read_only_policy();
    let cases: Vec<(ToolResult<u8>, Decision)> = vec![
        (
            ToolResult::fail(failure(1).transient()),
            Decision::Retry(Duration::from_millis(10)),
        ),
        (
            ToolResult::fail(failure(1).permanent()),
            Decision::Stop(StopReason::Permanent),
        ),
        (
            ToolResult::fail(failure(1).with_source(io(std::io::ErrorKind::ConnectionRefused))),
            Decision::Retry(Duration::from_millis(10)),
        ),
        (
            ToolResult::fail(
                failure(1)
                    .transient()
                    .with_retry_after(Duration::from_millis(70)),
            ),
            Decision::Retry(Duration::from_millis(70)),
        ),
        (ToolResult::ok(7), Decision::Stop(StopReason::Succeeded)),
    ];
    for (typed, expected) in cases {
        assert_eq!(policy.decide(READ_ONLY, &typed, 1), expected);
        let lowered: Lowered = typed.lower();
        assert_eq!(policy.decide(READ_ONLY, &lowered, 1), expected);
    }
}

#[test]
fn a_bare_canonical_error_is_unknown_and_a_plain_result_type_works_too() {
    let policy = read_only_policy();
    let canonical = toolresult::canonical::ToolResult::error("the disk is full");
    assert_eq!(
        policy.decide(READ_ONLY, &canonical, 1),
        Decision::Stop(StopReason::Unknown)
    );
    let ok: Result<u8, Failure> = Ok(3);
    assert_eq!(
        policy.decide(READ_ONLY, &ok, 1),
        Decision::Stop(StopReason::Succeeded)
    );
    let err: Result<u8, Failure> = Err(failure(1).transient());
    assert!(policy.decide(READ_ONLY, &err, 1).is_retry());
}

#[test]
fn the_runner_retries_a_lowered_tool() {
    let (run, _) = run(&read_only_policy(), |n| {
        let typed: ToolResult<String> = if n < 2 {
            ToolResult::fail(failure(n).with_source(io(std::io::ErrorKind::TimedOut)))
        } else {
            ToolResult::ok("ok".to_owned())
        };
        typed.lower()
    });
    assert_eq!((run.attempts, run.stop), (2, StopReason::Succeeded));
    assert_eq!(run.outcome.result.output, "ok");
}

// --- backoff and jitter ------------------------------------------------------------

#[test]
fn exponential_backoff_grows_and_is_capped() {
    let backoff =
        Backoff::exponential(Duration::from_millis(100), 3.0, Duration::from_millis(1000))
            .expect("valid backoff");
    let delays: Vec<_> = (1..=5).map(|n| backoff.delay(n)).collect();
    assert_eq!(delays, ms(&[100, 300, 900, 1000, 1000]));
    assert_eq!(backoff.delay(u32::MAX), Duration::from_millis(1000));
}

#[test]
fn seeded_jitter_is_deterministic_and_stays_within_its_band() {
    let jittered = |seed| {
        let policy = read_only_policy()
            .max_attempts(8)
            .backoff(
                Backoff::exponential(Duration::from_millis(100), 2.0, Duration::from_secs(60))
                    .and_then(|b| b.with_jitter(0.5))
                    .expect("valid backoff"),
            )
            .jitter_seed(seed);
        run(&policy, |n| -> ToolResult<u8> {
            ToolResult::fail(failure(n).transient())
        })
        .1
    };
    let first = jittered(7);
    assert_eq!(first, jittered(7), "same seed, same delays");
    assert_ne!(first, jittered(8), "another seed, other delays");
    for (n, delay) in first.iter().enumerate() {
        let full = Duration::from_millis(100 * (1 << n));
        assert!(
            *delay <= full && *delay >= full / 2,
            "{delay:?} vs {full:?}"
        );
    }
}

#[test]
fn bad_backoffs_are_refused_with_the_value_named() {
    let err = Backoff::exponential(Duration::from_secs(1), 0.5, Duration::from_secs(2))
        .expect_err("factor below 1");
    assert_eq!(
        err.to_string(),
        "the backoff factor must be a finite number of at least 1, got 0.5"
    );
    let err = Backoff::exponential(Duration::from_secs(2), 2.0, Duration::from_secs(1))
        .expect_err("cap below base");
    assert_eq!(
        err.to_string(),
        "the backoff cap 1s is below its base delay 2s"
    );
    let err = Backoff::default().with_jitter(1.5).expect_err("jitter");
    assert_eq!(
        err.to_string(),
        "the backoff jitter must be between 0 and 1, got 1.5"
    );
    let err = Backoff::default().with_jitter(f64::NAN).expect_err("NaN");
    assert_eq!(
        err.to_string(),
        "the backoff jitter must be between 0 and 1, got NaN"
    );
}

// --- observability --------------------------------------------------------------------

fn recording_policy() -> (RetryPolicy, Arc<Mutex<Vec<RetryEvent>>>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&events);
    let policy = read_only_policy().on_retry(move |event| {
        log.lock().expect("log").push(*event);
    });
    (policy, events)
}

#[test]
fn the_callback_sees_each_retry_with_its_delay_and_diagnostics_never_text() {
    let (policy, events) = recording_policy();
    let (run, _) = run(&policy, |n| -> ToolResult<u8> {
        ToolResult::fail(
            failure(n)
                .with_source(io(std::io::ErrorKind::TimedOut))
                .with_retry_after(Duration::from_millis(if n == 1 { 15 } else { 1 })),
        )
    });
    assert_eq!(run.attempts, 4);
    let events = events.lock().expect("log");
    let seen: Vec<_> = events
        .iter()
        .map(|e| {
            (
                e.attempt,
                e.delay,
                e.classification,
                e.error_type,
                e.transient,
            )
        })
        .collect();
    let io_type = Some("std::io::Error");
    assert_eq!(
        seen,
        [
            (1, ms(&[15])[0], Classification::Transient, io_type, None),
            (2, ms(&[20])[0], Classification::Transient, io_type, None),
            (3, ms(&[40])[0], Classification::Transient, io_type, None),
        ]
    );
    assert_eq!(events[0].retry_after, Some(Duration::from_millis(15)));
    let debug = format!("{events:?}");
    assert!(!debug.contains(SECRET), "{debug}");
}

#[test]
fn a_stop_is_not_reported_as_a_retry() {
    let (policy, events) = recording_policy();
    let outcome: ToolResult<u8> = ToolResult::fail(failure(1).permanent());
    assert!(!policy.decide(READ_ONLY, &outcome, 1).is_retry());
    assert!(events.lock().expect("log").is_empty());
    // A retry decided is told, once.
    let transient: ToolResult<u8> = ToolResult::fail(failure(1).transient());
    assert!(policy.decide(READ_ONLY, &transient, 1).is_retry());
    assert_eq!(events.lock().expect("log").len(), 1);
}

#[test]
fn a_callback_that_panics_does_not_stop_the_retry() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&calls);
    let policy = read_only_policy().on_retry(move |_| {
        seen.fetch_add(1, Ordering::SeqCst);
        panic!("the observer panics");
    });
    let transient: ToolResult<u8> = ToolResult::fail(failure(1).transient());
    assert!(policy.decide(READ_ONLY, &transient, 1).is_retry());
    let (run, _) = run(&policy, |n| -> ToolResult<u8> {
        if n < 3 {
            ToolResult::fail(failure(n).transient())
        } else {
            ToolResult::ok(7)
        }
    });
    assert_eq!(run.stop, StopReason::Succeeded);
    assert_eq!(run.attempts, 3);
    assert_eq!(calls.load(Ordering::SeqCst), 3);
}

#[test]
fn the_policy_debug_shows_settings_not_closures() {
    let (policy, _) = recording_policy();
    let debug = format!("{policy:?}");
    assert!(debug.contains("max_attempts: 4"), "{debug}");
    assert!(debug.contains("on_retry: true"), "{debug}");
}

// --- backon --------------------------------------------------------------------------------

#[cfg(feature = "backon")]
mod backon_adapter {
    use super::*;
    use ::backon::{BlockingRetryable, Retryable};
    use toolresult::retry::backon::PolicyBackoff as hooks;

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime")
            .block_on(future)
    }

    /// An async read-only tool that fails with `fail(n)` for call `n` until
    /// `fail` says `None`.
    async fn scenario(
        policy: &RetryPolicy,
        fail: impl Fn(u32) -> Option<Failure> + Send + Sync + 'static,
    ) -> (Result<&'static str, Failure>, u32, Vec<Duration>) {
        scenario_as(policy, READ_ONLY, fail).await
    }

    /// [`scenario`] for a tool of the given safety.
    async fn scenario_as(
        policy: &RetryPolicy,
        safety: ToolSafety,
        fail: impl Fn(u32) -> Option<Failure> + Send + Sync + 'static,
    ) -> (Result<&'static str, Failure>, u32, Vec<Duration>) {
        let calls = Arc::new(Mutex::new(0u32));
        let slept = Arc::new(Mutex::new(Vec::new()));
        let (counter, sleeps) = (Arc::clone(&calls), Arc::clone(&slept));
        let fail = Arc::new(fail);
        let outcome = (move || {
            let counter = Arc::clone(&counter);
            let fail = Arc::clone(&fail);
            async move {
                let n = {
                    let mut c = counter.lock().expect("calls");
                    *c += 1;
                    *c
                };
                fail(n).map_or(Ok("fetched"), Err)
            }
        })
        .retry(hooks::new(policy))
        .sleep(move |d| {
            sleeps.lock().expect("sleeps").push(d);
            std::future::ready(())
        })
        .when(hooks::when(policy, safety))
        .adjust(hooks::adjust(policy))
        .notify(hooks::notify(policy))
        .await;
        let calls = *calls.lock().expect("calls");
        let slept = slept.lock().expect("sleeps").clone();
        (outcome, calls, slept)
    }

    #[test]
    fn transient_is_retried_up_to_the_limit_then_surfaced() {
        let (outcome, calls, slept) = block_on(scenario(&read_only_policy(), |n| {
            Some(failure(n).transient())
        }));
        assert_eq!(calls, 4);
        assert_eq!(slept, ms(&[10, 20, 40]));
        let err = outcome.expect_err("still failing");
        assert_eq!(err.error().message, "attempt 4 failed");
    }

    #[test]
    fn recovery_permanent_heuristics_and_safety() {
        let policy = read_only_policy();
        let (outcome, calls, _) = block_on(scenario(&policy, |n| {
            (n < 3).then(|| failure(n).with_source(io(std::io::ErrorKind::ConnectionReset)))
        }));
        assert_eq!((outcome.ok(), calls), (Some("fetched"), 3));

        let (_, calls, _) = block_on(scenario(&policy, |n| Some(failure(n).permanent())));
        assert_eq!(calls, 1, "Some(false) is never retried");

        let (_, calls, _) = block_on(scenario(&policy, |n| {
            Some(failure(n).with_source(io(std::io::ErrorKind::InvalidData)))
        }));
        assert_eq!(calls, 1, "invalid data is permanent");

        let (_, calls, _) = block_on(scenario(&policy, |n| {
            Some(failure(n).with_source(Cancelled).transient())
        }));
        assert_eq!(calls, 1, "cancelled is never retried");

        let (_, calls, _) = block_on(scenario_as(&policy, ToolSafety::default(), |n| {
            Some(failure(n).transient())
        }));
        assert_eq!(calls, 1, "a tool that promises nothing is not retried");
    }

    #[test]
    fn retry_after_is_applied_by_adjust_and_too_long_stops() {
        let policy = read_only_policy().max_retry_after(Some(Duration::from_secs(1)));
        let (_, calls, slept) = block_on(scenario(&policy, |n| {
            (n < 3).then(|| {
                failure(n)
                    .transient()
                    .with_retry_after(Duration::from_millis(300))
            })
        }));
        assert_eq!((calls, slept), (3, ms(&[300, 300])));

        let (_, calls, _) = block_on(scenario(&policy, |n| {
            Some(
                failure(n)
                    .transient()
                    .with_retry_after(Duration::from_secs(5)),
            )
        }));
        assert_eq!(calls, 1);
    }

    #[test]
    fn the_callback_sees_each_retry() {
        let (policy, events) = recording_policy();
        let _ = block_on(scenario(&policy, |n| Some(failure(n).transient())));
        let attempts: Vec<_> = events
            .lock()
            .expect("log")
            .iter()
            .map(|e| (e.attempt, e.delay, e.transient))
            .collect();
        assert_eq!(
            attempts,
            [
                (1, ms(&[10])[0], Some(true)),
                (2, ms(&[20])[0], Some(true)),
                (3, ms(&[40])[0], Some(true)),
            ]
        );
    }

    #[test]
    fn blocking_retry_uses_the_same_hooks() {
        let policy = read_only_policy();
        let mut calls = 0;
        let outcome = (|| -> Result<&str, Failure> {
            calls += 1;
            if calls < 4 {
                Err(failure(calls).transient())
            } else {
                Ok("done")
            }
        })
        .retry(hooks::new(&policy))
        .sleep(|_| {})
        .when(hooks::when(&policy, READ_ONLY))
        .call();
        // The limit is 4 calls in all; the fourth succeeds.
        assert_eq!(outcome.ok(), Some("done"));
        assert_eq!(calls, 4);
    }
}

// --- tower ---------------------------------------------------------------------------------

#[cfg(feature = "tower")]
mod tower_adapter {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};
    use toolresult::retry::tower::TowerPolicy;
    use tower::{Service, ServiceExt, retry::Retry, service_fn};

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime")
            .block_on(future)
    }

    /// A read-only tool service whose call `n` answers `respond(n)`; returns
    /// the final response, the calls made and the delays slept.
    fn scenario<Res, E>(
        policy: RetryPolicy,
        respond: impl Fn(u32) -> Result<Res, E> + Send + Sync + Clone + 'static,
    ) -> (Result<Res, E>, u32, Vec<Duration>)
    where
        Res: toolresult::retry::RetryInput + Send + 'static,
        E: toolresult::retry::RetryInput + Send + 'static,
    {
        scenario_as(policy, READ_ONLY, respond)
    }

    /// [`scenario`] for a tool service of the given safety.
    fn scenario_as<Res, E>(
        policy: RetryPolicy,
        safety: ToolSafety,
        respond: impl Fn(u32) -> Result<Res, E> + Send + Sync + Clone + 'static,
    ) -> (Result<Res, E>, u32, Vec<Duration>)
    where
        Res: toolresult::retry::RetryInput + Send + 'static,
        E: toolresult::retry::RetryInput + Send + 'static,
    {
        let calls = Arc::new(AtomicU32::new(0));
        let slept = Arc::new(Mutex::new(Vec::new()));
        let (counter, sleeps) = (Arc::clone(&calls), Arc::clone(&slept));
        let tool = service_fn(move |_args: serde_json::Value| {
            let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
            let respond = respond.clone();
            async move { respond(n) }
        });
        let tower_policy = TowerPolicy::new(policy, safety).with_sleeper(move |d| {
            sleeps.lock().expect("sleeps").push(d);
            std::future::ready(())
        });
        let mut service = Retry::new(tower_policy, tool);
        let outcome = block_on(async {
            service
                .ready()
                .await
                .ok()
                .expect("ready")
                .call(serde_json::json!({"city": "Oslo"}))
                .await
        });
        let slept = slept.lock().expect("sleeps").clone();
        (outcome, calls.load(Ordering::SeqCst), slept)
    }

    fn lowered(typed: ToolResult<&'static str>) -> Result<Lowered, std::convert::Infallible> {
        Ok(typed.lower())
    }

    #[test]
    fn a_successful_response_flagged_as_a_transient_error_is_retried_to_the_limit() {
        let (outcome, calls, slept) = scenario(read_only_policy(), |n| {
            lowered(ToolResult::fail(failure(n).transient()))
        });
        assert_eq!(calls, 4);
        assert_eq!(slept, ms(&[10, 20, 40]));
        let Ok(last) = outcome;
        assert_eq!(
            last.result.output,
            r#"{"error":{"message":"attempt 4 failed"}}"#
        );
        assert!(last.result.is_error);
    }

    #[test]
    fn recovery_permanent_heuristics_cancellation_and_safety() {
        let (outcome, calls, _) = scenario(read_only_policy(), |n| {
            lowered(if n < 2 {
                ToolResult::fail(failure(n).with_source(io(std::io::ErrorKind::TimedOut)))
            } else {
                ToolResult::ok("sunny")
            })
        });
        let Ok(last) = outcome;
        assert_eq!((last.result.output.as_str(), calls), ("sunny", 2));

        for (name, make) in [
            (
                "permanent",
                (|n| failure(n).permanent()) as fn(u32) -> Failure,
            ),
            ("invalid data", |n| {
                failure(n).with_source(io(std::io::ErrorKind::InvalidData))
            }),
            ("cancelled", |n| {
                failure(n).with_source(Cancelled).transient()
            }),
        ] {
            let (_, calls, _) = scenario(read_only_policy(), move |n| {
                lowered(ToolResult::fail(make(n)))
            });
            assert_eq!(calls, 1, "{name}");
        }

        let (_, calls, _) = scenario_as(read_only_policy(), ToolSafety::default(), |n| {
            lowered(ToolResult::fail(failure(n).transient()))
        });
        assert_eq!(calls, 1, "a tool that promises nothing is not retried");
    }

    #[test]
    fn service_errors_go_through_the_heuristics_and_retry_after_is_honoured() {
        type BoxError = Box<dyn std::error::Error + Send + Sync>;
        let connected = || ToolResult::<&str>::ok("connected").lower();
        let (outcome, calls, _) =
            scenario(read_only_policy(), move |n| -> Result<Lowered, BoxError> {
                if n < 3 {
                    Err(Box::new(io(std::io::ErrorKind::ConnectionRefused)))
                } else {
                    Ok(connected())
                }
            });
        let output = outcome.ok().map(|l| l.result.output);
        assert_eq!((output.as_deref(), calls), (Some("connected"), 3));

        let (_, calls, slept) = scenario(read_only_policy(), |n| -> Result<Lowered, Failure> {
            if n < 3 {
                Err(failure(n)
                    .transient()
                    .with_retry_after(Duration::from_millis(500)))
            } else {
                Ok(ToolResult::<&str>::ok("done").lower())
            }
        });
        assert_eq!((calls, slept), (3, ms(&[500, 500])));
    }

    #[test]
    fn the_callback_sees_each_retry() {
        let (policy, events) = recording_policy();
        let _ = scenario(policy, |n| {
            lowered(ToolResult::fail(failure(n).transient()))
        });
        let attempts: Vec<_> = events
            .lock()
            .expect("log")
            .iter()
            .map(|e| (e.attempt, e.delay))
            .collect();
        assert_eq!(
            attempts,
            [(1, ms(&[10])[0]), (2, ms(&[20])[0]), (3, ms(&[40])[0])]
        );
    }
}
