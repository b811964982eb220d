//! `Decision` and `StopReason`: what a policy says after an attempt.

use std::fmt;
use std::time::Duration;

/// What to do after an attempt: call again after a delay, or stop.
///
/// ```
/// use std::time::Duration;
/// use toolresult::retry::{Decision, StopReason};
///
/// let decision = Decision::Retry(Duration::from_millis(200));
/// assert!(decision.is_retry());
/// assert_eq!(decision.delay(), Some(Duration::from_millis(200)));
/// assert_eq!(Decision::Stop(StopReason::Permanent).stop_reason(), Some(StopReason::Permanent));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[must_use = "a decision should be acted on"]
pub enum Decision {
    /// Call again after this delay.
    Retry(Duration),
    /// Do not call again; the last outcome is final.
    Stop(StopReason),
}

impl Decision {
    /// Whether to call again.
    #[must_use]
    pub const fn is_retry(&self) -> bool {
        matches!(self, Self::Retry(_))
    }

    /// The delay before the next call, when retrying.
    #[must_use]
    pub const fn delay(&self) -> Option<Duration> {
        match self {
            Self::Retry(delay) => Some(*delay),
            Self::Stop(_) => None,
        }
    }

    /// Why the policy stopped, when it did.
    #[must_use]
    pub const fn stop_reason(&self) -> Option<StopReason> {
        match self {
            Self::Retry(_) => None,
            Self::Stop(reason) => Some(*reason),
        }
    }
}

/// Why a policy does not call again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// The call succeeded.
    Succeeded,
    /// The call is suspended, waiting for an answer: not a failure to retry.
    Suspended,
    /// The call was cancelled ([`Cancelled`](super::Cancelled) in the chain).
    Cancelled,
    /// The failure is permanent (by its hint, a classifier or the heuristics).
    Permanent,
    /// Nothing classified the failure, and unknown failures are not retried.
    Unknown,
    /// The failure is transient, but the tool is neither idempotent nor
    /// read-only and the caller did not opt in to retrying it.
    NotIdempotent,
    /// The attempt limit was reached.
    AttemptsExhausted {
        /// The attempts made.
        attempts: u32,
    },
    /// The failure asked to wait longer than the policy's longest retry-after.
    RetryAfterTooLong {
        /// The delay asked for.
        retry_after: Duration,
    },
}

impl StopReason {
    /// A short name for events and logs: `succeeded`, `permanent`, ...
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Suspended => "suspended",
            Self::Cancelled => "cancelled",
            Self::Permanent => "permanent",
            Self::Unknown => "unknown",
            Self::NotIdempotent => "not_idempotent",
            Self::AttemptsExhausted { .. } => "attempts_exhausted",
            Self::RetryAfterTooLong { .. } => "retry_after_too_long",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Succeeded => f.write_str("the call succeeded"),
            Self::Suspended => f.write_str("the call is suspended"),
            Self::Cancelled => f.write_str("the call was cancelled"),
            Self::Permanent => f.write_str("the failure is permanent"),
            Self::Unknown => f.write_str("the failure is not known to be transient"),
            Self::NotIdempotent => f.write_str("the tool is not idempotent"),
            Self::AttemptsExhausted { attempts } => {
                write!(f, "the attempt limit was reached after {attempts} attempts")
            }
            Self::RetryAfterTooLong { retry_after } => {
                write!(f, "the retry-after {retry_after:?} is longer than allowed")
            }
        }
    }
}
