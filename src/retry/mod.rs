//! Retrying failed tool calls from the Rust channel, never from text.
//!
//! A [`RetryPolicy`] reads what a tool said about its failure (the transient
//! hint, the retry-after, the source error's chain) and decides whether and
//! when to call again. It reads typed results before lowering and lowered
//! ones alike ([`RetryInput`]).
//!
//! - [`Classification`]: cancelled, then the hint, then user classifiers and the
//!   `std::io::ErrorKind` heuristics over the whole chain.
//! - [`RetryPolicy::decide`]: the decision any engine can call between
//!   attempts (it tells the `on_retry` callback of a retry).
//! - [`RetryPolicy::run`]: a blocking runner.
//! - `backon` (feature `backon`) and `tower` (feature `tower`): the policy in
//!   those engines.
//! - [`RetryEvent`]: what the `on_retry` callback and `tracing` (feature
//!   `tracing`) are told, never an error's text.
//!
//! ```
//! use std::time::Duration;
//! use toolresult::retry::{Backoff, RetryPolicy, StopReason};
//! use toolresult::tool::ToolSafety;
//! use toolresult::{Failure, ToolError, ToolResult};
//!
//! let policy = RetryPolicy::new()
//!     .max_attempts(4)
//!     .backoff(Backoff::constant(Duration::from_millis(1)));
//!
//! let mut calls = 0;
//! let run = policy.run(ToolSafety::ReadOnly, || -> ToolResult<&str> {
//!     calls += 1;
//!     if calls < 3 {
//!         let reset = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
//!         ToolResult::fail(Failure::new(ToolError::new("the connection dropped")).with_source(reset))
//!     } else {
//!         ToolResult::ok("fetched")
//!     }
//! });
//! assert_eq!(run.attempts, 3);
//! assert_eq!(run.stop, StopReason::Succeeded);
//! assert_eq!(run.outcome.value(), Some(&"fetched"));
//! ```

mod backoff;
#[cfg(feature = "backon")]
pub mod backon;
mod blocking;
mod cancel;
mod classify;
mod decision;
mod event;
mod input;
mod policy;
#[cfg(feature = "tower")]
pub mod tower;

pub use backoff::{Backoff, BackoffError};
pub use blocking::RunOutcome;
pub use cancel::Cancelled;
pub use classify::Classification;
pub use decision::{Decision, StopReason};
pub use event::RetryEvent;
pub use input::RetryInput;
pub use policy::RetryPolicy;
