//! What the retry tests share: a policy with exact delays for the read-only
//! tool they call, a failure that names its attempt, and an I/O error
//! carrying a secret.

use std::time::Duration;

use toolresult::retry::{Backoff, RetryPolicy};
use toolresult::tool::ToolSafety;
use toolresult::{Failure, ToolError};

pub const SECRET: &str = "sk-live-retry-sentinel-2c9f";

/// The safety of the tool the retry tests call: read-only, so retried.
pub const READ_ONLY: ToolSafety = ToolSafety::ReadOnly;

/// A policy with exact, easy delays (10, 20, 40, ... ms), for a read-only
/// tool: pass [`READ_ONLY`] to `decide` and `run`.
pub fn read_only_policy() -> RetryPolicy {
    RetryPolicy::new().max_attempts(4).backoff(
        Backoff::exponential(Duration::from_millis(10), 2.0, Duration::from_secs(1))
            .expect("valid backoff"),
    )
}

/// An I/O error of `kind` whose text holds the secret.
pub fn io(kind: std::io::ErrorKind) -> std::io::Error {
    std::io::Error::new(kind, format!("socket detail {SECRET}"))
}

/// A failure of attempt `n`, so the surfaced outcome shows which call it was.
pub fn failure(n: u32) -> Failure {
    Failure::new(ToolError::new(format!("attempt {n} failed")))
}
