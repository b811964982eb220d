//! `Diagnostics`: the Rust channel of a result, the one type that holds it.

use std::backtrace::{Backtrace, BacktraceStatus};
use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

use super::unexpected::{UnexpectedError, model_facing_type_name};

/// What the Rust side knows of a call: the source error with its whole
/// chain, the tri-state transient hint and the retry-after.
///
/// A [`Failure`](crate::Failure) holds it while the tool runs, and lowering
/// hands it over beside the canonical result in [`Lowered`](crate::Lowered),
/// so middleware decides (retry, log, alert) without parsing text. It is
/// never serialised, and its `Debug` shows the source's type, never its text.
/// A success's diagnostics are empty.
///
/// ```
/// use toolresult::{Failure, IntoToolResult, ToolError, ToolResult};
///
/// let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "db at 10.1.2.3");
/// let result = ToolResult::<u32>::fail(
///     Failure::new(ToolError::new("the database is unavailable")).with_source(refused).transient(),
/// );
/// let lowered = result.lower();
/// assert!(lowered.result.is_error);
/// let diagnostics = &lowered.diagnostics;
/// assert_eq!(diagnostics.source_type_name(), Some("std::io::Error"));
/// assert!(diagnostics.source().unwrap().is::<std::io::Error>());
/// assert_eq!(diagnostics.is_transient(), Some(true));
/// assert!(!format!("{diagnostics:?}").contains("10.1.2.3"));
/// ```
#[derive(Default)]
pub struct Diagnostics {
    /// Empty (`None`) for a success and for a failure with no source and no
    /// hint: one null pointer, so a lowered result stays small as it moves.
    known: Option<Box<Known>>,
}

/// What diagnostics hold, once there is anything.
#[derive(Default)]
struct Known {
    source: Option<anyhow::Error>,
    source_type: Option<Cow<'static, str>>,
    transient: Option<bool>,
    retry_after: Option<Duration>,
    /// Set when the model-facing error was made from the source alone, so a
    /// tool's own formatter can word it again.
    unexpected: Option<UnexpectedError>,
}

impl Diagnostics {
    /// The fields, made when first set.
    fn known_mut(&mut self) -> &mut Known {
        self.known.get_or_insert_with(Box::default)
    }

    pub(crate) fn set_source<X>(&mut self, source: X)
    where
        X: Into<anyhow::Error>,
    {
        self.set_source_named(source.into(), model_facing_type_name::<X>());
    }

    pub(crate) fn set_source_named(&mut self, source: anyhow::Error, type_name: &'static str) {
        let known = self.known_mut();
        known.source_type = Some(Cow::Borrowed(type_name));
        known.source = Some(source);
    }

    pub(crate) fn set_transient(&mut self, transient: bool) {
        self.known_mut().transient = Some(transient);
    }

    pub(crate) fn set_retry_after(&mut self, delay: Duration) {
        self.known_mut().retry_after = Some(delay);
    }

    /// The unexpected error the model-facing error was made from, if any.
    pub(crate) fn unexpected(&self) -> Option<UnexpectedError> {
        self.known.as_ref()?.unexpected
    }

    pub(crate) fn set_unexpected(&mut self, unexpected: Option<UnexpectedError>) {
        match (unexpected, &mut self.known) {
            (Some(unexpected), _) => self.known_mut().unexpected = Some(unexpected),
            (None, Some(known)) => known.unexpected = None,
            // Nothing to clear: stay empty.
            (None, None) => {}
        }
    }

    /// The source error: downcast it with `downcast_ref`, walk it with `chain`.
    #[must_use]
    pub fn source(&self) -> Option<&anyhow::Error> {
        self.known.as_ref()?.source.as_ref()
    }

    /// The source error, taken out.
    #[must_use]
    pub fn into_source(self) -> Option<anyhow::Error> {
        self.known?.source
    }

    /// The name of the source error's type, as the crate shows it
    /// (`std::io::Error`, `ToolPanicked`, `DbError`): stable and short, never
    /// the source's text.
    #[must_use]
    pub fn source_type_name(&self) -> Option<&str> {
        self.known.as_ref()?.source_type.as_deref()
    }

    /// The source's type name as the lowering recorded it, `'static`; `None`
    /// for diagnostics read back from a record.
    pub(crate) fn static_source_type(&self) -> Option<&'static str> {
        match self.known.as_ref()?.source_type.as_ref()? {
            Cow::Borrowed(name) => Some(name),
            Cow::Owned(_) => None,
        }
    }

    /// Diagnostics read back from a record of them (a journal): the hints
    /// and the source's type name, with no source.
    pub(crate) fn from_record(
        transient: Option<bool>,
        retry_after: Option<Duration>,
        source_type: Option<String>,
    ) -> Self {
        if transient.is_none() && retry_after.is_none() && source_type.is_none() {
            return Self::default();
        }
        Self {
            known: Some(Box::new(Known {
                source: None,
                source_type: source_type.map(Cow::Owned),
                transient,
                retry_after,
                unexpected: None,
            })),
        }
    }

    /// The transient hint: `Some(true)` retry, `Some(false)` never, `None`
    /// let the retry policy decide from the source.
    #[must_use]
    pub fn is_transient(&self) -> Option<bool> {
        self.known.as_ref()?.transient
    }

    /// The delay asked for before a retry.
    #[must_use]
    pub fn retry_after(&self) -> Option<Duration> {
        self.known.as_ref()?.retry_after
    }

    /// The backtrace of the source, when one was captured (by anyhow, with
    /// `RUST_BACKTRACE` or `RUST_LIB_BACKTRACE` set).
    #[must_use]
    pub fn backtrace(&self) -> Option<&Backtrace> {
        let backtrace = self.source()?.backtrace();
        (backtrace.status() == BacktraceStatus::Captured).then_some(backtrace)
    }
}

impl fmt::Debug for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Diagnostics")
            .field("source_type", &self.source_type_name())
            .field("transient", &self.is_transient())
            .field("retry_after", &self.retry_after())
            .finish()
    }
}
