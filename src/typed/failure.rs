//! `Failure<E>`: the failure side of a typed result, and the error type of a
//! tool body, so `?` works inside it.

use std::backtrace::{Backtrace, BacktraceStatus};
use std::error::Error as StdError;
use std::fmt;
use std::time::Duration;

use crate::ToolError;
use crate::lower::unexpected::{UnexpectedError, format_unexpected, short_type_name};

/// A failed tool call: the model-facing error `E`, and for Rust alone the
/// source error, a transient hint and a retry-after.
///
/// A failure always has its `E`; the source is optional and never reaches the
/// model. The transient hint is tri-state: `Some(true)` retry, `Some(false)`
/// never, `None` let the retry policy decide from the source.
///
/// A tool body returns `Result<T, Failure<E>>`, so `?` works on:
/// - a `Result<_, E>`: the error becomes the model-facing error;
/// - with the default `E = ToolError`, any `std::error::Error`: an
///   *unexpected* failure whose model-facing message names the error's type
///   but never its text, with the error kept as the source;
/// - any result, through [`ResultExt`](crate::ResultExt): a model-facing
///   error of your choosing with the original error as the source.
///
/// ```
/// use std::time::Duration;
/// use toolresult::{Failure, ToolError};
///
/// fn fetch(key: &str) -> Result<String, Failure> {
///     if key.is_empty() {
///         return Err(ToolError::new("the key is empty").into());
///     }
///     let timeout = std::io::Error::new(std::io::ErrorKind::TimedOut, "upstream at 10.0.0.7 timed out");
///     Err(Failure::new(ToolError::new("the upstream timed out"))
///         .with_source(timeout)
///         .transient()
///         .with_retry_after(Duration::from_secs(2)))
/// }
///
/// let failure = fetch("k").unwrap_err();
/// assert_eq!(failure.error().message, "the upstream timed out");
/// assert_eq!(failure.is_transient(), Some(true));
/// assert_eq!(failure.retry_after(), Some(Duration::from_secs(2)));
/// let io = failure.source().unwrap().downcast_ref::<std::io::Error>().unwrap();
/// assert_eq!(io.kind(), std::io::ErrorKind::TimedOut);
///
/// // `?` on any std error: a safe message, the text kept for Rust only.
/// fn parse(n: &str) -> Result<u8, Failure> {
///     Ok(n.parse::<u8>()?)
/// }
/// let failure = parse("secret-300").unwrap_err();
/// assert_eq!(
///     failure.error().message,
///     "the tool failed with an unexpected error (std::num::ParseIntError)"
/// );
/// assert!(!failure.error().message.contains("secret"));
/// ```
#[must_use = "a failure does nothing until it is returned or lowered"]
pub struct Failure<E = ToolError> {
    error: E,
    source: Option<Source>,
    transient: Option<bool>,
    retry_after: Option<Duration>,
}

/// The source error and the name of its concrete type, kept for diagnostics.
pub(crate) struct Source {
    pub(crate) error: anyhow::Error,
    pub(crate) type_name: &'static str,
}

impl<E> Failure<E> {
    /// A failure with this model-facing error, no source, no hint.
    pub fn new(error: E) -> Self {
        Self {
            error,
            source: None,
            transient: None,
            retry_after: None,
        }
    }

    /// The same failure with `source` as its Rust-side cause.
    pub fn with_source<X>(mut self, source: X) -> Self
    where
        X: StdError + Send + Sync + 'static,
    {
        self.source = Some(Source {
            type_name: short_type_name::<X>(),
            error: anyhow::Error::new(source),
        });
        self
    }

    /// The same failure with an `anyhow::Error` as its cause (its backtrace,
    /// if it captured one, stays available).
    pub fn with_anyhow(mut self, source: anyhow::Error) -> Self {
        self.source = Some(Source {
            type_name: "anyhow::Error",
            error: source,
        });
        self
    }

    /// Marks the failure transient: worth retrying.
    pub fn transient(self) -> Self {
        self.with_transient(Some(true))
    }

    /// Marks the failure permanent: never worth retrying.
    pub fn permanent(self) -> Self {
        self.with_transient(Some(false))
    }

    /// Sets the tri-state transient hint (`None` leaves it to the policy).
    pub fn with_transient(mut self, transient: Option<bool>) -> Self {
        self.transient = transient;
        self
    }

    /// The same failure with a delay before any retry.
    pub fn with_retry_after(mut self, delay: Duration) -> Self {
        self.retry_after = Some(delay);
        self
    }

    /// The model-facing error.
    #[must_use]
    pub fn error(&self) -> &E {
        &self.error
    }

    /// The model-facing error, taken out (the Rust channel is dropped).
    #[must_use]
    pub fn into_error(self) -> E {
        self.error
    }

    /// The source error: downcast it with `downcast_ref`, walk it with `chain`.
    #[must_use]
    pub fn source(&self) -> Option<&anyhow::Error> {
        self.source.as_ref().map(|s| &s.error)
    }

    /// The concrete type name of the source error.
    #[must_use]
    pub fn source_type_name(&self) -> Option<&'static str> {
        self.source.as_ref().map(|s| s.type_name)
    }

    /// The backtrace of the source, when one was captured (by anyhow, with
    /// `RUST_BACKTRACE` or `RUST_LIB_BACKTRACE` set).
    #[must_use]
    pub fn backtrace(&self) -> Option<&Backtrace> {
        let backtrace = self.source()?.backtrace();
        (backtrace.status() == BacktraceStatus::Captured).then_some(backtrace)
    }

    /// The transient hint.
    #[must_use]
    pub fn is_transient(&self) -> Option<bool> {
        self.transient
    }

    /// The delay asked for before a retry.
    #[must_use]
    pub fn retry_after(&self) -> Option<Duration> {
        self.retry_after
    }

    /// The same Rust channel with another model-facing error.
    pub fn map_error<F>(self, f: impl FnOnce(E) -> F) -> Failure<F> {
        Failure {
            error: f(self.error),
            source: self.source,
            transient: self.transient,
            retry_after: self.retry_after,
        }
    }

    pub(crate) fn into_rust_channel(self) -> (E, RustChannel) {
        (
            self.error,
            RustChannel {
                source: self.source,
                transient: self.transient,
                retry_after: self.retry_after,
            },
        )
    }
}

/// The Rust-facing half of a failure, as lowering hands it to `Diagnostics`.
pub(crate) struct RustChannel {
    pub(crate) source: Option<Source>,
    pub(crate) transient: Option<bool>,
    pub(crate) retry_after: Option<Duration>,
}

impl Failure<ToolError> {
    /// An unexpected failure: the model is told the error's type (and I/O
    /// kind), never its text; the error is kept as the source.
    ///
    /// The message comes from the formatter in force
    /// ([`set_unexpected_formatter`](crate::lower::set_unexpected_formatter)).
    pub fn unexpected<X>(source: X) -> Self
    where
        X: StdError + Send + Sync + 'static,
    {
        let error = format_unexpected(&UnexpectedError::of(&source));
        Self::new(error).with_source(source)
    }

    /// An unexpected failure from an `anyhow::Error`; the I/O kind is read
    /// from its chain.
    pub fn unexpected_anyhow(source: anyhow::Error) -> Self {
        let known = UnexpectedError::describe("anyhow::Error", source.as_ref());
        Self::new(format_unexpected(&known)).with_anyhow(source)
    }
}

impl<E> From<E> for Failure<E> {
    fn from(error: E) -> Self {
        Self::new(error)
    }
}

/// `?` on any std error inside a body returning `Result<_, Failure>`.
impl<X> From<X> for Failure<ToolError>
where
    X: StdError + Send + Sync + 'static,
{
    fn from(source: X) -> Self {
        Self::unexpected(source)
    }
}

impl<E: fmt::Debug> fmt::Debug for Failure<E> {
    /// Shows the model-facing error and the hints; of the source only its
    /// type, so logging a failure cannot leak the source's text by accident.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Failure")
            .field("error", &self.error)
            .field("source_type", &self.source_type_name())
            .field("transient", &self.transient)
            .field("retry_after", &self.retry_after)
            .finish()
    }
}
