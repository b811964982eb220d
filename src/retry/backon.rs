//! The policy in [`backon`]'s hooks (feature `backon`).
//!
//! backon runs the loop and sleeps; the policy supplies the delays
//! ([`PolicyBackoff::new`]), which errors are retried
//! ([`PolicyBackoff::when`]), the retry-after rule
//! ([`PolicyBackoff::adjust`]) and the retry events
//! ([`PolicyBackoff::notify`]). The error type of the
//! retried closure is anything a decision reads ([`RetryInput`]): a
//! [`Failure`](crate::Failure) from a tool body, say.
//!
//! backon's async `Retry` has all four hooks. Its `BlockingRetry` has no
//! `adjust`, so with it a failure's retry-after is not applied; use
//! [`RetryPolicy::run`] for blocking calls that must honour it.
//!
//! ```
//! use std::time::Duration;
//! use backon::BlockingRetryable;
//! use toolresult::retry::backon::PolicyBackoff;
//! use toolresult::retry::{Backoff, RetryPolicy};
//! use toolresult::tool::ToolSafety;
//! use toolresult::{Failure, ToolError};
//!
//! let policy = RetryPolicy::new()
//!     .backoff(Backoff::constant(Duration::from_millis(1)));
//! let mut calls = 0;
//! let fetch = || -> Result<&'static str, Failure> {
//!     calls += 1;
//!     if calls < 3 {
//!         Err(Failure::new(ToolError::new("busy")).transient())
//!     } else {
//!         Ok("fetched")
//!     }
//! };
//! let fetched = fetch
//!     .retry(PolicyBackoff::new(&policy))
//!     .sleep(|_| {}) // backon's `std-blocking-sleep` feature gives std::thread::sleep
//!     .when(PolicyBackoff::when(&policy, ToolSafety::ReadOnly))
//!     .notify(PolicyBackoff::notify(&policy))
//!     .call();
//! assert_eq!(fetched.unwrap(), "fetched");
//! ```

use std::time::Duration;

use super::{RetryEvent, RetryInput, RetryPolicy};
use crate::tool::ToolSafety;

/// The policy in backon's four hooks: itself the backoff (one delay per
/// failed attempt, `None` once the attempt limit is reached), and
/// [`when`](Self::when), [`adjust`](Self::adjust) and
/// [`notify`](Self::notify).
#[derive(Debug, Clone)]
#[must_use = "a backoff does nothing unless iterated"]
pub struct PolicyBackoff {
    policy: RetryPolicy,
    attempt: u32,
}

impl PolicyBackoff {
    /// The policy's delays as a backon backoff: the jittered backoff after
    /// each failed attempt, ending when the attempt limit is reached. Pass
    /// it to `.retry(...)`.
    pub fn new(policy: &RetryPolicy) -> Self {
        Self {
            policy: policy.clone(),
            attempt: 0,
        }
    }

    /// The `.when(...)` hook: whether an error may be retried at all by its
    /// classification, cancellation and the safety of the tool called (the
    /// attempt limit is the backoff's).
    pub fn when<X>(
        policy: &RetryPolicy,
        safety: ToolSafety,
    ) -> impl FnMut(&X) -> bool + Send + Sync + 'static
    where
        X: RetryInput + ?Sized,
    {
        let policy = policy.clone();
        move |error: &X| policy.retryable(safety, error).is_ok()
    }

    /// The `.adjust(...)` hook: the backoff's delay combined with the error's
    /// retry-after by the policy's rule (`max` of the two; `None`, so no retry,
    /// past the longest retry-after).
    pub fn adjust<X>(
        policy: &RetryPolicy,
    ) -> impl FnMut(&X, Option<Duration>) -> Option<Duration> + Send + Sync + 'static
    where
        X: RetryInput + ?Sized,
    {
        let policy = policy.clone();
        move |error: &X, delay: Option<Duration>| {
            policy.with_retry_after(delay?, error.retry_after()).ok()
        }
    }

    /// The `.notify(...)` hook: a [`RetryEvent`] to the policy's observers
    /// before each retry, counting attempts from 1.
    pub fn notify<X>(policy: &RetryPolicy) -> impl FnMut(&X, Duration) + Send + Sync + 'static
    where
        X: RetryInput + ?Sized,
    {
        let policy = policy.clone();
        let mut attempt: u32 = 0;
        move |error: &X, delay: Duration| {
            attempt = attempt.saturating_add(1);
            policy.notify(&RetryEvent {
                attempt,
                delay,
                classification: policy.classification(error),
                error_type: error.source_type_name(),
                transient: error.is_transient(),
                retry_after: error.retry_after(),
            });
        }
    }
}

impl Iterator for PolicyBackoff {
    type Item = Duration;

    fn next(&mut self) -> Option<Duration> {
        self.attempt = self.attempt.saturating_add(1);
        (self.attempt < self.policy.attempt_limit())
            .then(|| self.policy.backoff_delay(self.attempt))
    }
}
