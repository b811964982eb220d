//! `ToolSafety`: what calling a tool does to the world, and so whether a
//! second call is harmless.

/// What a tool promises about its effects, declared when the tool is
/// defined ([`FunctionTool::with_safety`](super::FunctionTool::with_safety)).
///
/// The retry policy reads it (a tool is retried only when a repeat call is
/// harmless: [`allows_retry`](Self::allows_retry)), and MCP declarations
/// carry it as tool `annotations` (`readOnlyHint`, `idempotentHint`,
/// `destructiveHint`). Each variant is one consistent promise: a read-only
/// tool is idempotent and not destructive, so there is no state that
/// contradicts itself.
///
/// The default, [`Destructive`](Self::Destructive), promises nothing, as MCP
/// reads a tool without annotations: it may change or delete things and a
/// repeat call may do it again (a second `send_email` is a second email).
///
/// | variant | changes things | repeat call harmless (retried) | destructive |
/// |---|---|---|---|
/// | `ReadOnly` | no | yes | no |
/// | `Idempotent` | adds or sets | yes | no |
/// | `IdempotentDestructive` | overwrites or deletes | yes | yes |
/// | `Additive` | adds | no | no |
/// | `Destructive` (default) | anything | no | yes |
///
/// ```
/// use toolresult::tool::ToolSafety;
///
/// assert_eq!(ToolSafety::default(), ToolSafety::Destructive);
/// assert!(!ToolSafety::default().allows_retry());
/// assert!(ToolSafety::ReadOnly.allows_retry());
/// assert!(ToolSafety::IdempotentDestructive.is_destructive());
/// assert!(!ToolSafety::Additive.is_idempotent());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolSafety {
    /// Changes nothing (a lookup, a search).
    ReadOnly,
    /// Adds or sets state; a repeat call with the same arguments has no
    /// further effect (create-if-absent, set a flag).
    Idempotent,
    /// Overwrites or deletes state; a repeat call has no further effect
    /// (delete by id, overwrite a file with given contents).
    IdempotentDestructive,
    /// Adds state; each call adds again (append a row, post a message).
    Additive,
    /// May change or delete anything, and a repeat call may do it again. The
    /// default: a tool that says nothing promises nothing.
    #[default]
    Destructive,
}

impl ToolSafety {
    /// Whether the tool changes nothing.
    #[must_use]
    pub const fn is_read_only(self) -> bool {
        matches!(self, Self::ReadOnly)
    }

    /// Whether a repeat call with the same arguments has no further effect.
    #[must_use]
    pub const fn is_idempotent(self) -> bool {
        matches!(
            self,
            Self::ReadOnly | Self::Idempotent | Self::IdempotentDestructive
        )
    }

    /// Whether the tool may overwrite or delete state.
    #[must_use]
    pub const fn is_destructive(self) -> bool {
        matches!(self, Self::IdempotentDestructive | Self::Destructive)
    }

    /// Whether calling the tool again is harmless, so a failed call may be
    /// retried: the tool is idempotent (read-only tools are).
    #[must_use]
    pub const fn allows_retry(self) -> bool {
        self.is_idempotent()
    }
}
