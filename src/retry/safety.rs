//! `ToolSafety`: whether calling a tool twice is harmless.

/// What a tool promises about calling it again, which decides whether a
/// policy may retry it.
///
/// A tool that is neither idempotent nor read-only (the default: nothing
/// promised) is not retried unless the caller opts in with
/// [`RetryPolicy::retry_non_idempotent`](super::RetryPolicy::retry_non_idempotent):
/// a second `send_email` is a second email.
///
/// ```
/// use toolresult::retry::ToolSafety;
///
/// assert!(!ToolSafety::default().allows_retry());
/// assert!(ToolSafety::read_only().allows_retry());
/// assert!(ToolSafety::idempotent().allows_retry());
/// assert!(ToolSafety::default().with_idempotent(true).is_idempotent());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ToolSafety {
    /// Calling the tool again with the same arguments has no further effect.
    pub idempotent: bool,
    /// The tool changes nothing at all.
    pub read_only: bool,
}

impl ToolSafety {
    /// A tool that promises nothing: not retried by default.
    #[must_use]
    pub const fn unknown() -> Self {
        Self {
            idempotent: false,
            read_only: false,
        }
    }

    /// An idempotent tool: a repeat call has no further effect.
    #[must_use]
    pub const fn idempotent() -> Self {
        Self {
            idempotent: true,
            read_only: false,
        }
    }

    /// A read-only tool (read-only implies idempotent).
    #[must_use]
    pub const fn read_only() -> Self {
        Self {
            idempotent: true,
            read_only: true,
        }
    }

    /// The same safety with the idempotent flag set to `idempotent`.
    #[must_use]
    pub const fn with_idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent = idempotent;
        self
    }

    /// The same safety with the read-only flag set to `read_only`.
    #[must_use]
    pub const fn with_read_only(mut self, read_only: bool) -> Self {
        self.read_only = read_only;
        self
    }

    /// Whether the tool is idempotent.
    #[must_use]
    pub const fn is_idempotent(&self) -> bool {
        self.idempotent
    }

    /// Whether the tool is read-only.
    #[must_use]
    pub const fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Whether calling the tool again is safe: idempotent or read-only.
    #[must_use]
    pub const fn allows_retry(&self) -> bool {
        self.idempotent || self.read_only
    }
}
