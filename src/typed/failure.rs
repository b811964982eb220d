//! `Failure<E>`: the failure side of a typed result, and the error type of a
//! tool body, so `?` works inside it.

use std::fmt;
use std::time::Duration;

use super::Diagnostics;
use super::unexpected::{UnexpectedError, model_facing_type_name};
use crate::ToolError;

/// A failed tool call: the model-facing error `E`, and for Rust alone its
/// [`Diagnostics`] (the source error, a transient hint and a retry-after).
///
/// A failure always has its `E`; the source is optional and never reaches the
/// model. The transient hint is tri-state: [`transient`](Self::transient)
/// retry, [`permanent`](Self::permanent) never, unset let the retry policy
/// decide from the source.
///
/// A tool body returns `Result<T, Failure<E>>`, so `?` works on:
/// - a `Result<_, E>`: the error becomes the model-facing error;
/// - with the default `E = ToolError`, any `std::error::Error` and any
///   `anyhow::Error`: an *unexpected* failure whose model-facing message names
///   the error's type but never its text, with the error kept as the source;
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
/// assert_eq!(failure.diagnostics().is_transient(), Some(true));
/// assert_eq!(failure.diagnostics().retry_after(), Some(Duration::from_secs(2)));
/// let io = failure.diagnostics().source().unwrap().downcast_ref::<std::io::Error>().unwrap();
/// assert_eq!(io.kind(), std::io::ErrorKind::TimedOut);
///
/// // `?` on any std error, or on an `anyhow::Result`: a safe message, the
/// // text kept for Rust only.
/// fn parse(n: &str) -> Result<u8, Failure> {
///     Ok(n.parse::<u8>()?)
/// }
/// let failure = parse("secret-300").unwrap_err();
/// assert_eq!(
///     failure.error().message,
///     "the tool failed with an unexpected error (std::num::ParseIntError)"
/// );
/// fn load() -> Result<u8, Failure> {
///     let value: anyhow::Result<u8> = Err(anyhow::anyhow!("token=secret"));
///     Ok(value?)
/// }
/// let failure = load().unwrap_err();
/// assert_eq!(failure.error().message, "the tool failed with an unexpected error (anyhow::Error)");
/// assert_eq!(failure.diagnostics().source().unwrap().to_string(), "token=secret");
/// ```
///
/// `?` rests on one invariant: neither `Failure` nor [`ToolError`]
/// implements `std::error::Error`, so the conversion from any error into a
/// `Failure` cannot overlap the conversion of a failure into itself. It is
/// held by this test, which must not compile:
///
/// ```compile_fail
/// fn is_error<X: std::error::Error>() {}
/// is_error::<toolresult::Failure>();
/// ```
///
/// ```compile_fail
/// fn is_error<X: std::error::Error>() {}
/// is_error::<toolresult::ToolError>();
/// ```
#[must_use = "a failure does nothing until it is returned or lowered"]
pub struct Failure<E = ToolError> {
    error: E,
    diagnostics: Diagnostics,
}

impl<E> Failure<E> {
    /// A failure with this model-facing error, no source, no hint.
    pub fn new(error: E) -> Self {
        Self {
            error,
            diagnostics: Diagnostics::default(),
        }
    }

    /// The same failure with `source` (any `std::error::Error`, or an
    /// `anyhow::Error` with its context and backtrace) as its Rust-side cause.
    pub fn with_source(mut self, source: impl Into<anyhow::Error>) -> Self {
        self.diagnostics.set_source(source);
        self
    }

    /// Marks the failure transient: worth retrying.
    pub fn transient(mut self) -> Self {
        self.diagnostics.set_transient(true);
        self
    }

    /// Marks the failure permanent: never worth retrying.
    pub fn permanent(mut self) -> Self {
        self.diagnostics.set_transient(false);
        self
    }

    /// The same failure with a delay before any retry.
    pub fn with_retry_after(mut self, delay: Duration) -> Self {
        self.diagnostics.set_retry_after(delay);
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

    /// The Rust channel: source, transient hint, retry-after.
    #[must_use]
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.diagnostics
    }

    /// The two channels, taken apart.
    #[must_use]
    pub fn into_parts(self) -> (E, Diagnostics) {
        (self.error, self.diagnostics)
    }

    /// The same Rust channel with another model-facing error.
    pub fn map_error<F>(self, f: impl FnOnce(E) -> F) -> Failure<F> {
        let mut diagnostics = self.diagnostics;
        // The new error is the caller's own wording: a tool's formatter of
        // unexpected errors must not replace it.
        diagnostics.set_unexpected(None);
        Failure {
            error: f(self.error),
            diagnostics,
        }
    }
}

impl Failure<ToolError> {
    /// An unexpected failure: the model is told the error's type (and I/O
    /// kind), never its text; the error is kept as the source.
    pub fn unexpected<X>(source: X) -> Self
    where
        X: Into<anyhow::Error>,
    {
        let type_name = model_facing_type_name::<X>();
        let source: anyhow::Error = source.into();
        let known = UnexpectedError::describe(type_name, source.as_ref());
        let mut failure = Self::new(known.default_error());
        failure.diagnostics.set_source_named(source, type_name);
        failure.diagnostics.set_unexpected(Some(known));
        failure
    }
}

impl<E> From<E> for Failure<E> {
    fn from(error: E) -> Self {
        Self::new(error)
    }
}

/// `?` on any std error or `anyhow::Error` inside a body returning
/// `Result<_, Failure>`: an unexpected failure.
impl<X> From<X> for Failure<ToolError>
where
    X: Into<anyhow::Error>,
{
    fn from(source: X) -> Self {
        Self::unexpected(source)
    }
}

impl<E: fmt::Debug> fmt::Debug for Failure<E> {
    /// Shows the model-facing error and the diagnostics, whose `Debug` names
    /// the source's type, never its text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Failure")
            .field("error", &self.error)
            .field("diagnostics", &self.diagnostics)
            .finish()
    }
}
