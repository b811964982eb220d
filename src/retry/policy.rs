//! `RetryPolicy`: the rules, and the pure decision any engine can call.

use std::error::Error as StdError;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use super::backoff::jitter_unit;
use super::classify::{ErasedClassifier, classify_chain, erase, is_cancelled};
use super::{Backoff, Classification, Decision, RetryEvent, RetryInput, StopReason};
use crate::tool::{ToolSafety, drop_quietly};

/// The observer of retries.
type OnRetry = Arc<dyn Fn(&RetryEvent) + Send + Sync>;

/// When and how often to call a failing tool again.
///
/// A failure is retried when all of these hold:
///
/// - it is not a success, not a suspension and not cancelled;
/// - it classifies as transient ([`Classification`](super::Classification) has the
///   order), or as unknown with
///   [`unknown_is_transient`](Self::unknown_is_transient) set;
/// - the tool's [`ToolSafety`], given with each decision, allows a repeat
///   call (the tool is idempotent), or
///   [`retry_non_idempotent`](Self::retry_non_idempotent) is set. **A tool
///   that says nothing promises nothing, and is not retried**: declare what
///   it does where it is defined
///   ([`FunctionTool::with_safety`](crate::tool::FunctionTool::with_safety));
/// - fewer than [`max_attempts`](Self::max_attempts) calls were made (default 3,
///   counting the first);
/// - its retry-after, if any, is no longer than
///   [`max_retry_after`](Self::max_retry_after) (default 60 s).
///
/// The delay is the jittered [`Backoff`] for the attempt, or the failure's
/// retry-after if that is longer: `max(jittered backoff, retry_after)`. The
/// backoff is capped at its cap; a retry-after is honoured beyond the cap (an
/// earlier call would be refused anyway) up to `max_retry_after`, past which
/// the policy stops with [`StopReason::RetryAfterTooLong`] rather than wait.
///
/// [`decide`](Self::decide) is a function of the policy, the outcome and
/// the attempt number: no sleeping, no I/O, no state (it tells the
/// [`on_retry`](Self::on_retry) callback of a retry, if there is one). With a
/// [`jitter_seed`](Self::jitter_seed) it is deterministic; without one the
/// jitter draws fresh entropy at each call.
///
/// A policy is cheap to clone (its classifiers and callback are shared) and
/// `Send + Sync`.
///
/// ```
/// use std::time::Duration;
/// use toolresult::retry::{Backoff, Decision, RetryPolicy, StopReason};
/// use toolresult::tool::ToolSafety;
/// use toolresult::{Failure, IntoToolResult, ToolError};
///
/// let policy = RetryPolicy::new()
///     .max_attempts(3)
///     .backoff(Backoff::exponential(Duration::from_millis(100), 2.0, Duration::from_secs(5))?);
///
/// let busy = Failure::new(ToolError::new("the service is busy")).transient();
/// assert_eq!(policy.decide(ToolSafety::ReadOnly, &busy, 1), Decision::Retry(Duration::from_millis(100)));
/// assert_eq!(policy.decide(ToolSafety::ReadOnly, &busy, 2), Decision::Retry(Duration::from_millis(200)));
/// assert_eq!(policy.decide(ToolSafety::ReadOnly, &busy, 3), Decision::Stop(StopReason::AttemptsExhausted { attempts: 3 }));
///
/// // The same decision on the lowered result.
/// let lowered = toolresult::ToolResult::<u8>::fail(busy).lower();
/// assert_eq!(policy.decide(ToolSafety::ReadOnly, &lowered, 1), Decision::Retry(Duration::from_millis(100)));
/// # Ok::<(), toolresult::retry::BackoffError>(())
/// ```
#[derive(Clone)]
#[must_use = "a policy does nothing until it decides or runs"]
pub struct RetryPolicy {
    max_attempts: u32,
    backoff: Backoff,
    seed: Option<u64>,
    max_retry_after: Option<Duration>,
    unknown_is_transient: bool,
    retry_non_idempotent: bool,
    classifiers: Vec<ErasedClassifier>,
    on_retry: Option<OnRetry>,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self::new()
    }
}

impl RetryPolicy {
    /// The default policy: 3 attempts, the default [`Backoff`], unknown
    /// failures not retried, a 60 s longest retry-after, and tools that are
    /// not idempotent never retried.
    pub fn new() -> Self {
        Self {
            max_attempts: 3,
            backoff: Backoff::default(),
            seed: None,
            max_retry_after: Some(Duration::from_secs(60)),
            unknown_is_transient: false,
            retry_non_idempotent: false,
            classifiers: Vec::new(),
            on_retry: None,
        }
    }

    /// The most calls in all, counting the first (0 reads as 1: the first
    /// call is always made).
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The delays between attempts.
    pub fn backoff(mut self, backoff: Backoff) -> Self {
        self.backoff = backoff;
        self
    }

    /// Fixes the jitter's seed, making every decision deterministic (for
    /// tests and replays; in production leave it unset so that callers
    /// spread out).
    pub fn jitter_seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// The longest retry-after honoured (`None`: any); a failure asking for
    /// more stops with [`StopReason::RetryAfterTooLong`].
    pub fn max_retry_after(mut self, limit: Option<Duration>) -> Self {
        self.max_retry_after = limit;
        self
    }

    /// Whether a failure nothing classifies is retried (default `false`).
    pub fn unknown_is_transient(mut self, retry: bool) -> Self {
        self.unknown_is_transient = retry;
        self
    }

    /// Retries a tool that is neither idempotent nor read-only (default
    /// `false`): the caller takes on the repeat side effects.
    pub fn retry_non_idempotent(mut self, retry: bool) -> Self {
        self.retry_non_idempotent = retry;
        self
    }

    /// Registers a classifier for source errors of type `X`, consulted for
    /// failures with no transient hint at each error of the chain that is an
    /// `X`. Return a [`Classification`] to decide (`Unknown` included) or
    /// `None` to pass to the rest of the chain. Classifiers run in the order
    /// registered.
    ///
    /// ```
    /// use toolresult::retry::{Classification, Decision, RetryPolicy};
    /// use toolresult::tool::ToolSafety;
    /// use toolresult::{Failure, ToolError};
    ///
    /// #[derive(Debug, thiserror::Error)]
    /// #[error("http status {status}")]
    /// struct HttpError { status: u16 }
    ///
    /// let policy = RetryPolicy::new()
    ///     .classify::<HttpError, _, _>(|e| match e.status {
    ///         408 | 429 | 500..=599 => Classification::Transient,
    ///         _ => Classification::Permanent,
    ///     });
    /// let unavailable = Failure::new(ToolError::new("try later")).with_source(HttpError { status: 503 });
    /// assert!(policy.decide(ToolSafety::ReadOnly, &unavailable, 1).is_retry());
    /// let missing = Failure::new(ToolError::new("no such page")).with_source(HttpError { status: 404 });
    /// assert!(!policy.decide(ToolSafety::ReadOnly, &missing, 1).is_retry());
    /// ```
    pub fn classify<X, F, R>(mut self, classifier: F) -> Self
    where
        X: StdError + 'static,
        F: Fn(&X) -> R + Send + Sync + 'static,
        R: Into<Option<Classification>>,
    {
        self.classifiers.push(erase(classifier));
        self
    }

    /// Calls `callback` before each retry with what is known of it (never
    /// the error's text). Called by [`decide`](Self::decide) and so by every
    /// engine here. A panic in `callback` is caught and dropped, and the
    /// retry goes ahead: an observer does not steer the policy.
    pub fn on_retry<F>(mut self, callback: F) -> Self
    where
        F: Fn(&RetryEvent) + Send + Sync + 'static,
    {
        self.on_retry = Some(Arc::new(callback));
        self
    }

    /// The most calls in all, counting the first.
    #[must_use]
    pub fn attempt_limit(&self) -> u32 {
        self.max_attempts
    }

    /// The backoff in force.
    #[must_use]
    pub fn backoff_config(&self) -> &Backoff {
        &self.backoff
    }

    /// How `input` classifies: cancelled is permanent, then the hint, then
    /// the classifiers and heuristics over the source chain. A success
    /// classifies as unknown (there is nothing to classify).
    #[must_use]
    pub fn classification<I: RetryInput + ?Sized>(&self, input: &I) -> Classification {
        if input.error_source().is_some_and(is_cancelled) {
            return Classification::Permanent;
        }
        match input.is_transient() {
            Some(true) => Classification::Transient,
            Some(false) => Classification::Permanent,
            None => input
                .error_source()
                .map_or(Classification::Unknown, |source| {
                    classify_chain(source, &self.classifiers)
                }),
        }
    }

    /// What to do after attempt number `attempt` (1-based: 1 after the first
    /// call; 0 reads as 1) of a tool whose safety is `safety` ended in
    /// `input`. Nothing is slept or called but the policy's observers:
    /// when the decision is to retry, the [`on_retry`](Self::on_retry)
    /// callback (and `tracing`, with the `tracing` feature) is told, as
    /// every engine here does between attempts; without a callback the
    /// decision has no effect beyond its value.
    pub fn decide<I: RetryInput + ?Sized>(
        &self,
        safety: ToolSafety,
        input: &I,
        attempt: u32,
    ) -> Decision {
        match self.assess(safety, input, attempt) {
            Ok((delay, classification)) => {
                let event = RetryEvent {
                    attempt: attempt.max(1),
                    delay,
                    classification,
                    error_type: input.source_type_name(),
                    transient: input.is_transient(),
                    retry_after: input.retry_after(),
                };
                self.notify(&event);
                Decision::Retry(delay)
            }
            Err(reason) => {
                #[cfg(feature = "tracing")]
                super::event::trace_stop(attempt.max(1), reason, input.source_type_name());
                Decision::Stop(reason)
            }
        }
    }

    /// Tells the `on_retry` callback, and `tracing` with the `tracing`
    /// feature, of `event`. A panic in the callback is contained here: the
    /// observer of a retry cannot stop it, so the retry goes ahead as
    /// decided.
    pub(crate) fn notify(&self, event: &RetryEvent) {
        if let Some(callback) = &self.on_retry
            && let Err(payload) = catch_unwind(AssertUnwindSafe(|| callback(event)))
        {
            drop_quietly(payload);
        }
        #[cfg(feature = "tracing")]
        super::event::trace_retry(event);
    }

    /// Whether `input` may be retried at all, attempts and delays aside:
    /// `Ok` with its classification, or the reason not to.
    pub(crate) fn retryable<I: RetryInput + ?Sized>(
        &self,
        safety: ToolSafety,
        input: &I,
    ) -> Result<Classification, StopReason> {
        if !input.is_failure() {
            return Err(StopReason::Succeeded);
        }
        if input.is_suspended() {
            return Err(StopReason::Suspended);
        }
        if input.error_source().is_some_and(is_cancelled) {
            return Err(StopReason::Cancelled);
        }
        let classification = self.classification(input);
        match classification {
            Classification::Transient => {}
            Classification::Unknown if self.unknown_is_transient => {}
            Classification::Unknown => return Err(StopReason::Unknown),
            _ => return Err(StopReason::Permanent),
        }
        if !safety.allows_retry() && !self.retry_non_idempotent {
            return Err(StopReason::NotIdempotent);
        }
        Ok(classification)
    }

    /// The jittered backoff after `attempt`.
    pub(crate) fn backoff_delay(&self, attempt: u32) -> Duration {
        let attempt = attempt.max(1);
        self.backoff
            .jittered(attempt, jitter_unit(self.seed, attempt))
    }

    /// Combines a backoff delay with a retry-after by the policy's rule.
    pub(crate) fn with_retry_after(
        &self,
        backoff: Duration,
        retry_after: Option<Duration>,
    ) -> Result<Duration, StopReason> {
        match retry_after {
            None => Ok(backoff),
            Some(asked) if self.max_retry_after.is_some_and(|limit| asked > limit) => {
                Err(StopReason::RetryAfterTooLong { retry_after: asked })
            }
            Some(asked) => Ok(backoff.max(asked)),
        }
    }

    /// A retry's delay and the failure's classification, or why not to
    /// retry (classifying nothing that is not retried).
    fn assess<I: RetryInput + ?Sized>(
        &self,
        safety: ToolSafety,
        input: &I,
        attempt: u32,
    ) -> Result<(Duration, Classification), StopReason> {
        let attempt = attempt.max(1);
        let classification = self.retryable(safety, input)?;
        if attempt >= self.max_attempts {
            return Err(StopReason::AttemptsExhausted { attempts: attempt });
        }
        let delay = self.with_retry_after(self.backoff_delay(attempt), input.retry_after())?;
        Ok((delay, classification))
    }
}

impl fmt::Debug for RetryPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RetryPolicy")
            .field("max_attempts", &self.max_attempts)
            .field("backoff", &self.backoff)
            .field("seed", &self.seed)
            .field("max_retry_after", &self.max_retry_after)
            .field("unknown_is_transient", &self.unknown_is_transient)
            .field("retry_non_idempotent", &self.retry_non_idempotent)
            .field("classifiers", &self.classifiers.len())
            .field("on_retry", &self.on_retry.is_some())
            .finish()
    }
}
