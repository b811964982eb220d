//! The policy as a [`tower::retry::Policy`] (feature `tower`).
//!
//! [`TowerPolicy`] retries a service's errors and also its *successful*
//! responses that carry a failure: a [`Lowered`](crate::Lowered) with
//! `result.is_error` and transient diagnostics is retried like an error. The
//! request must be `Clone`. The delay is slept with `tokio::time::sleep` (a
//! Tokio runtime with its timer is needed) unless another sleeper is given.
//!
//! ```
//! use std::time::Duration;
//! use tower::{Service, ServiceExt, retry::Retry, service_fn};
//! use toolresult::retry::{Backoff, RetryPolicy, tower::TowerPolicy};
//! use toolresult::tool::ToolSafety;
//! use toolresult::{Failure, IntoToolResult, Lowered, ToolError, ToolResult};
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let policy = RetryPolicy::new()
//!     .backoff(Backoff::constant(Duration::from_millis(1)));
//! let calls = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
//! let counter = calls.clone();
//! let tool = service_fn(move |city: String| {
//!     let n = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
//!     async move {
//!         let result: ToolResult<String> = if n == 0 {
//!             ToolResult::fail(Failure::new(ToolError::new("busy")).transient())
//!         } else {
//!             ToolResult::ok(format!("sunny in {city}"))
//!         };
//!         Ok::<Lowered, std::convert::Infallible>(result.lower())
//!     }
//! });
//! let mut service = Retry::new(TowerPolicy::new(policy, ToolSafety::ReadOnly), tool);
//! let lowered = service.ready().await.unwrap().call("Oslo".to_owned()).await.unwrap();
//! assert_eq!(lowered.result.output, "sunny in Oslo");
//! assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 2);
//! # });
//! ```

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use super::{Decision, RetryInput, RetryPolicy};
use crate::tool::ToolSafety;

/// The future a [`TowerPolicy`] returns to delay a retry.
pub(crate) type SleepFuture = Pin<Box<dyn Future<Output = ()> + Send>>;

type Sleeper = Arc<dyn Fn(Duration) -> SleepFuture + Send + Sync>;

/// A [`RetryPolicy`] as a tower retry policy.
///
/// tower clones the policy for each request, so the attempt count starts
/// afresh per request.
#[derive(Clone)]
#[must_use = "a tower policy does nothing until given to tower::retry::Retry"]
pub struct TowerPolicy {
    policy: RetryPolicy,
    safety: ToolSafety,
    attempt: u32,
    sleeper: Sleeper,
}

impl TowerPolicy {
    /// The policy for the service of a tool whose safety is `safety`,
    /// sleeping with `tokio::time::sleep`.
    pub fn new(policy: RetryPolicy, safety: ToolSafety) -> Self {
        Self {
            policy,
            safety,
            attempt: 0,
            sleeper: Arc::new(|delay| Box::pin(tokio::time::sleep(delay))),
        }
    }

    /// The same policy, delaying with `sleep` instead (another runtime's
    /// timer, or a test that records the delays).
    pub fn with_sleeper<F, Fut>(mut self, sleep: F) -> Self
    where
        F: Fn(Duration) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.sleeper = Arc::new(move |delay| Box::pin(sleep(delay)));
        self
    }

    /// The retry policy.
    pub fn policy(&self) -> &RetryPolicy {
        &self.policy
    }

    /// The calls made so far for the current request.
    #[must_use]
    pub fn attempts(&self) -> u32 {
        self.attempt
    }

    fn after<I: RetryInput + ?Sized>(&mut self, outcome: &I) -> Option<SleepFuture> {
        self.attempt = self.attempt.saturating_add(1);
        match self.policy.decide(self.safety, outcome, self.attempt) {
            Decision::Retry(delay) => Some((self.sleeper)(delay)),
            Decision::Stop(_) => None,
        }
    }
}

impl fmt::Debug for TowerPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TowerPolicy")
            .field("policy", &self.policy)
            .field("safety", &self.safety)
            .field("attempt", &self.attempt)
            .finish_non_exhaustive()
    }
}

/// Errors and failed responses alike go through the policy's decision.
impl<Req, Res, E> ::tower::retry::Policy<Req, Res, E> for TowerPolicy
where
    Req: Clone,
    Res: RetryInput,
    E: RetryInput,
{
    type Future = SleepFuture;

    fn retry(&mut self, _req: &mut Req, result: &mut Result<Res, E>) -> Option<Self::Future> {
        match result {
            Ok(response) => self.after(response),
            Err(error) => self.after(error),
        }
    }

    fn clone_request(&mut self, req: &Req) -> Option<Req> {
        Some(req.clone())
    }
}
