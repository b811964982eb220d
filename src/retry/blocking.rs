//! The blocking runner: call, decide, sleep, call again.

use std::time::Duration;

use super::{Decision, RetryInput, RetryPolicy, StopReason};
use crate::tool::ToolSafety;

/// The final outcome of a run, with how many calls it took and why it stopped.
#[derive(Debug)]
#[must_use = "the run's outcome should be returned or inspected"]
#[non_exhaustive]
pub struct RunOutcome<R> {
    /// The last call's outcome: a success, or the failure that stopped the run.
    pub outcome: R,
    /// The calls made, the first included.
    pub attempts: u32,
    /// Why the run stopped ([`StopReason::Succeeded`] on success).
    pub stop: StopReason,
}

impl RetryPolicy {
    /// Calls `call` (a call of a tool whose safety is `safety`) until the
    /// policy stops, sleeping the decided delay on
    /// the current thread (`std::thread::sleep`) between calls. `R` is
    /// anything a decision reads: a typed [`ToolResult`](crate::ToolResult),
    /// a `Result<T, Failure<E>>`, a [`Lowered`](crate::Lowered)...
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolresult::retry::{Backoff, RetryPolicy, StopReason};
    /// use toolresult::tool::ToolSafety;
    /// use toolresult::{Failure, IntoToolResult, ToolError, ToolResult};
    ///
    /// let policy = RetryPolicy::new()
    ///     .backoff(Backoff::constant(Duration::from_millis(1)));
    /// let mut calls = 0;
    /// let run = policy.run(ToolSafety::ReadOnly, || {
    ///     calls += 1;
    ///     if calls < 2 {
    ///         ToolResult::<&str>::fail(Failure::new(ToolError::new("busy")).transient()).lower()
    ///     } else {
    ///         ToolResult::<&str>::ok("done").lower()
    ///     }
    /// });
    /// assert_eq!(run.attempts, 2);
    /// assert_eq!(run.stop, StopReason::Succeeded);
    /// assert_eq!(run.outcome.result.output, "done");
    /// ```
    pub fn run<R, F>(&self, safety: ToolSafety, call: F) -> RunOutcome<R>
    where
        R: RetryInput,
        F: FnMut() -> R,
    {
        self.run_with_sleeper(safety, std::thread::sleep, call)
    }

    /// [`run`](Self::run) with `sleep` in place of `std::thread::sleep`: a
    /// test records the delays instead of waiting them out.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolresult::retry::{Backoff, RetryPolicy};
    /// use toolresult::tool::ToolSafety;
    /// use toolresult::{Failure, ToolError, ToolResult};
    ///
    /// let policy = RetryPolicy::new()
    ///     .backoff(Backoff::constant(Duration::from_secs(30)));
    /// let mut slept = Vec::new();
    /// let run = policy.run_with_sleeper(ToolSafety::ReadOnly, |d| slept.push(d), || {
    ///     ToolResult::<u8>::fail(Failure::new(ToolError::new("busy")).transient())
    /// });
    /// assert_eq!(run.attempts, 3);
    /// assert_eq!(slept, [Duration::from_secs(30), Duration::from_secs(30)]);
    /// ```
    pub fn run_with_sleeper<R, F, S>(
        &self,
        safety: ToolSafety,
        mut sleep: S,
        mut call: F,
    ) -> RunOutcome<R>
    where
        R: RetryInput,
        F: FnMut() -> R,
        S: FnMut(Duration),
    {
        let mut attempts: u32 = 0;
        loop {
            let outcome = call();
            attempts = attempts.saturating_add(1);
            match self.decide(safety, &outcome, attempts) {
                Decision::Retry(delay) => {
                    drop(outcome);
                    sleep(delay);
                }
                Decision::Stop(stop) => {
                    return RunOutcome {
                        outcome,
                        attempts,
                        stop,
                    };
                }
            }
        }
    }
}
