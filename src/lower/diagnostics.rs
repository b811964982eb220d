//! `Diagnostics`: the Rust channel of a lowered result.

use std::fmt;
use std::time::Duration;

use crate::typed::RustChannel;

/// What the Rust side knows of a lowered call, handed over beside the
/// canonical result so middleware can decide (retry, log, alert) without
/// parsing text. Never serialised; its `Debug` shows the source's type, not
/// its text.
///
/// ```
/// use toolresult::{Failure, IntoToolResult, ToolError, ToolResult};
///
/// let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "db at 10.1.2.3");
/// let result: ToolResult<u32> =
///     Failure::new(ToolError::new("the database is unavailable")).with_source(refused).into();
/// let lowered = result.lower();
/// assert!(lowered.result.is_error);
/// let diagnostics = &lowered.diagnostics;
/// assert!(diagnostics.is_failure());
/// assert_eq!(diagnostics.source_type_name(), Some("std::io::Error"));
/// assert!(diagnostics.source().unwrap().is::<std::io::Error>());
/// ```
#[derive(Default)]
pub struct Diagnostics {
    pub(crate) failed: bool,
    pub(crate) source: Option<anyhow::Error>,
    pub(crate) source_type: Option<&'static str>,
    pub(crate) transient: Option<bool>,
    pub(crate) retry_after: Option<Duration>,
}

impl Diagnostics {
    /// The diagnostics of a success: nothing to report.
    #[must_use]
    pub fn success() -> Self {
        Self::default()
    }

    pub(crate) fn from_failure(channel: RustChannel) -> Self {
        let (source, source_type) = match channel.source {
            Some(source) => (Some(source.error), Some(source.type_name)),
            None => (None, None),
        };
        Self {
            failed: true,
            source,
            source_type,
            transient: channel.transient,
            retry_after: channel.retry_after,
        }
    }

    /// Diagnostics of a failure with no source: a result lowered from text
    /// that says it failed, say.
    #[must_use]
    pub fn failure() -> Self {
        Self {
            failed: true,
            ..Self::default()
        }
    }

    /// Whether the call failed (a suspension counts as a failure).
    #[must_use]
    pub fn is_failure(&self) -> bool {
        self.failed
    }

    /// The source error, if the failure had one.
    #[must_use]
    pub fn source(&self) -> Option<&anyhow::Error> {
        self.source.as_ref()
    }

    /// The source error, taken out.
    #[must_use]
    pub fn into_source(self) -> Option<anyhow::Error> {
        self.source
    }

    /// The concrete type name of the source error.
    #[must_use]
    pub fn source_type_name(&self) -> Option<&'static str> {
        self.source_type
    }

    /// The transient hint: `Some(true)` retry, `Some(false)` never, `None` undecided.
    #[must_use]
    pub fn is_transient(&self) -> Option<bool> {
        self.transient
    }

    /// The delay asked for before a retry.
    #[must_use]
    pub fn retry_after(&self) -> Option<Duration> {
        self.retry_after
    }
}

impl fmt::Debug for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Diagnostics")
            .field("failed", &self.failed)
            .field("source_type", &self.source_type)
            .field("transient", &self.transient)
            .field("retry_after", &self.retry_after)
            .finish()
    }
}
