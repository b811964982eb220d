//! `RetryInput`: what a retry decision reads of an outcome, typed or lowered.

use std::error::Error as StdError;
use std::time::Duration;

use crate::canonical;
use crate::{Failure, Lowered, ToolResult};

/// The Rust channel of an outcome, as a retry decision reads it: whether it
/// failed, the transient hint, the retry-after and the source error.
///
/// Implemented for a typed result before lowering ([`ToolResult`],
/// [`Failure`], `Result<T, Failure<E>>`), for a lowered one ([`Lowered`]), for a bare
/// [`canonical::ToolResult`] (its `isError`, nothing else known), and for the
/// error types engines carry (`anyhow::Error`, `Box<dyn Error + Send + Sync>`).
/// Implement it for your own outcome type to use it with any engine here.
///
/// ```
/// use toolresult::retry::RetryInput;
/// use toolresult::{Failure, IntoToolResult, ToolError, ToolResult};
///
/// let typed = ToolResult::<u8>::fail(Failure::new(ToolError::new("busy")).transient());
/// assert!(typed.is_failure());
/// assert_eq!(RetryInput::is_transient(&typed), Some(true));
/// let lowered = typed.lower();
/// assert_eq!(RetryInput::is_transient(&lowered), Some(true));
/// ```
pub trait RetryInput {
    /// Whether the outcome is a failure (a success is never retried).
    fn is_failure(&self) -> bool;

    /// Whether the outcome is a suspension waiting for an answer (never retried).
    fn is_suspended(&self) -> bool {
        false
    }

    /// The transient hint: `Some(true)` retry, `Some(false)` never, `None` let
    /// the heuristics decide.
    fn is_transient(&self) -> Option<bool>;

    /// The delay the failure asked for before a retry.
    fn retry_after(&self) -> Option<Duration>;

    /// The source error, whose chain the heuristics walk.
    fn error_source(&self) -> Option<&(dyn StdError + 'static)>;

    /// The concrete type name of the source error, for events and logs.
    fn source_type_name(&self) -> Option<&'static str>;
}

/// A borrowed outcome reads as the outcome.
impl<X: RetryInput + ?Sized> RetryInput for &X {
    fn is_failure(&self) -> bool {
        (**self).is_failure()
    }
    fn is_suspended(&self) -> bool {
        (**self).is_suspended()
    }
    fn is_transient(&self) -> Option<bool> {
        (**self).is_transient()
    }
    fn retry_after(&self) -> Option<Duration> {
        (**self).retry_after()
    }
    fn error_source(&self) -> Option<&(dyn StdError + 'static)> {
        (**self).error_source()
    }
    fn source_type_name(&self) -> Option<&'static str> {
        (**self).source_type_name()
    }
}

impl<E> RetryInput for Failure<E> {
    fn is_failure(&self) -> bool {
        true
    }
    fn is_transient(&self) -> Option<bool> {
        self.diagnostics().is_transient()
    }
    fn retry_after(&self) -> Option<Duration> {
        self.diagnostics().retry_after()
    }
    fn error_source(&self) -> Option<&(dyn StdError + 'static)> {
        self.diagnostics().source().map(AsRef::as_ref)
    }
    fn source_type_name(&self) -> Option<&'static str> {
        self.diagnostics().static_source_type()
    }
}

/// A success is not retried, a suspension never; a failure reads as its
/// [`Failure`].
impl<T, E> RetryInput for ToolResult<T, E> {
    fn is_failure(&self) -> bool {
        self.value().is_none()
    }
    fn is_suspended(&self) -> bool {
        self.pending_request().is_some()
    }
    fn is_transient(&self) -> Option<bool> {
        self.failure()?.is_transient()
    }
    fn retry_after(&self) -> Option<Duration> {
        RetryInput::retry_after(self.failure()?)
    }
    fn error_source(&self) -> Option<&(dyn StdError + 'static)> {
        self.failure()?.error_source()
    }
    fn source_type_name(&self) -> Option<&'static str> {
        self.failure()?.source_type_name()
    }
}

/// `Ok` is a success; `Err` is read as the error.
impl<T, X: RetryInput> RetryInput for Result<T, X> {
    fn is_failure(&self) -> bool {
        self.as_ref().is_err_and(RetryInput::is_failure)
    }
    fn is_suspended(&self) -> bool {
        self.as_ref().is_err_and(RetryInput::is_suspended)
    }
    fn is_transient(&self) -> Option<bool> {
        self.as_ref().err()?.is_transient()
    }
    fn retry_after(&self) -> Option<Duration> {
        self.as_ref().err()?.retry_after()
    }
    fn error_source(&self) -> Option<&(dyn StdError + 'static)> {
        self.as_ref().err()?.error_source()
    }
    fn source_type_name(&self) -> Option<&'static str> {
        self.as_ref().err()?.source_type_name()
    }
}

/// A lowered result: failed when `isError`; suspended when it holds a
/// pending request; the rest read from its diagnostics.
impl RetryInput for Lowered {
    fn is_failure(&self) -> bool {
        self.result.is_error
    }
    fn is_suspended(&self) -> bool {
        self.result.is_pending()
    }
    fn is_transient(&self) -> Option<bool> {
        self.diagnostics.is_transient()
    }
    fn retry_after(&self) -> Option<Duration> {
        self.diagnostics.retry_after()
    }
    fn error_source(&self) -> Option<&(dyn StdError + 'static)> {
        self.diagnostics.source().map(AsRef::as_ref)
    }
    fn source_type_name(&self) -> Option<&'static str> {
        self.diagnostics.static_source_type()
    }
}

/// A canonical result alone: `isError` and a pending request are all there is
/// to read, so a failure classifies as unknown.
impl RetryInput for canonical::ToolResult {
    fn is_failure(&self) -> bool {
        self.is_error
    }
    fn is_suspended(&self) -> bool {
        self.is_pending()
    }
    fn is_transient(&self) -> Option<bool> {
        None
    }
    fn retry_after(&self) -> Option<Duration> {
        None
    }
    fn error_source(&self) -> Option<&(dyn StdError + 'static)> {
        None
    }
    fn source_type_name(&self) -> Option<&'static str> {
        None
    }
}

/// An error with no hint: the heuristics read its chain.
impl RetryInput for anyhow::Error {
    fn is_failure(&self) -> bool {
        true
    }
    fn is_transient(&self) -> Option<bool> {
        None
    }
    fn retry_after(&self) -> Option<Duration> {
        None
    }
    fn error_source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(self.as_ref())
    }
    fn source_type_name(&self) -> Option<&'static str> {
        Some("anyhow::Error")
    }
}

/// A boxed error with no hint, as tower services return: the heuristics read
/// its chain.
impl RetryInput for Box<dyn StdError + Send + Sync> {
    fn is_failure(&self) -> bool {
        true
    }
    fn is_transient(&self) -> Option<bool> {
        None
    }
    fn retry_after(&self) -> Option<Duration> {
        None
    }
    fn error_source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(&**self)
    }
    fn source_type_name(&self) -> Option<&'static str> {
        Some("Box<dyn std::error::Error + Send + Sync>")
    }
}

/// An outcome that cannot be (a service's `Infallible` error).
impl RetryInput for std::convert::Infallible {
    fn is_failure(&self) -> bool {
        match *self {}
    }
    fn is_transient(&self) -> Option<bool> {
        match *self {}
    }
    fn retry_after(&self) -> Option<Duration> {
        match *self {}
    }
    fn error_source(&self) -> Option<&(dyn StdError + 'static)> {
        match *self {}
    }
    fn source_type_name(&self) -> Option<&'static str> {
        match *self {}
    }
}
