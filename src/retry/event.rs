//! `RetryEvent`: what observers are told of each retry, never an error's text.

use std::time::Duration;

use super::Classification;

/// One retry about to happen, as the `on_retry` callback and the `tracing`
/// events see it. It holds the error's type name, never its text.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use toolresult::retry::{Backoff, RetryPolicy};
/// use toolresult::tool::ToolSafety;
/// use toolresult::{Failure, ToolError, ToolResult};
///
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let log = Arc::clone(&seen);
/// let policy = RetryPolicy::new()
///     .backoff(Backoff::none())
///     .on_retry(move |event| log.lock().unwrap().push((event.attempt, event.error_type)));
///
/// let timeout = std::io::Error::from(std::io::ErrorKind::TimedOut);
/// let run = policy.run(ToolSafety::ReadOnly, || {
///     ToolResult::<u8>::fail(
///         Failure::new(ToolError::new("timed out")).with_source(std::io::Error::from(timeout.kind())),
///     )
/// });
/// assert_eq!(run.attempts, 3);
/// let seen = seen.lock().unwrap();
/// assert_eq!(*seen, [(1, Some("std::io::Error")), (2, Some("std::io::Error"))]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryEvent {
    /// The attempt that failed (1-based); the next call is attempt + 1.
    pub attempt: u32,
    /// The delay before the next call.
    pub delay: Duration,
    /// How the failure was classified.
    pub classification: Classification,
    /// The concrete type name of the source error
    /// ([`Diagnostics::source_type_name`](crate::Diagnostics::source_type_name)).
    pub error_type: Option<&'static str>,
    /// The failure's transient hint, as the tool gave it.
    pub transient: Option<bool>,
    /// The retry-after the failure asked for.
    pub retry_after: Option<Duration>,
}

/// Emits the event to `tracing`: target `toolresult::retry`, level INFO,
/// with the event's fields and nothing else.
#[cfg(feature = "tracing")]
pub(crate) fn trace_retry(event: &RetryEvent) {
    tracing::info!(
        target: "toolresult::retry",
        attempt = event.attempt,
        delay_ms = u64::try_from(event.delay.as_millis()).unwrap_or(u64::MAX),
        classification = event.classification.as_str(),
        error_type = event.error_type.unwrap_or("none"),
        transient = ?event.transient,
        retry_after_ms = event.retry_after.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        "retrying the tool call"
    );
}

/// Emits a stop to `tracing` at DEBUG (a success is not reported).
#[cfg(feature = "tracing")]
pub(crate) fn trace_stop(
    attempt: u32,
    reason: super::StopReason,
    error_type: Option<&'static str>,
) {
    if reason != super::StopReason::Succeeded {
        tracing::debug!(
            target: "toolresult::retry",
            attempt,
            reason = reason.as_str(),
            error_type = error_type.unwrap_or("none"),
            "not retrying the tool call"
        );
    }
}
