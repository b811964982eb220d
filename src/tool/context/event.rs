//! What a tool reports while it runs: progress and log events, and the
//! observer they go to.

use std::sync::Arc;

/// What a tool reports while it runs, handed to the observer of its call
/// (`Turn::with_observer` in a toolbox, or
/// [`CallContext::with_observer`](super::CallContext::with_observer)), and, with the `tracing` feature, emitted
/// as a `tracing` event.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum CallEvent<'a> {
    /// Progress: `done` so far, out of `total` when it is known.
    Progress {
        /// The call's id.
        call_id: &'a str,
        /// The tool's name.
        tool: &'a str,
        /// How much is done.
        done: f64,
        /// How much there is in all, when known.
        total: Option<f64>,
        /// What the tool is doing, for a person.
        message: Option<&'a str>,
    },
    /// A log message, at one of MCP's (syslog's) levels.
    Log {
        /// The call's id.
        call_id: &'a str,
        /// The tool's name.
        tool: &'a str,
        /// How severe.
        level: LogLevel,
        /// The message.
        message: &'a str,
    },
}

/// The severity of a log message a tool sends through its context: the
/// syslog levels MCP's `logging` utility uses, least severe first.
///
/// ```
/// use toolresult::tool::LogLevel;
/// assert!(LogLevel::Warning > LogLevel::Info);
/// assert_eq!(LogLevel::Warning.as_str(), "warning");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// Normal operational messages.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// The level's name as MCP writes it: `debug`, `info`, ..., `emergency`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }
}

/// The observer of a call's events.
pub(crate) type Observer = Arc<dyn Fn(&CallEvent<'_>) + Send + Sync>;
