//! `Cancelled`: the error of a tool call that was cancelled, never retried.

/// The error of a tool call that was cancelled (by the user, a deadline or a
/// shutdown). Put it anywhere in a failure's source chain and no policy will
/// retry the call, whatever its transient hint says: a cancelled call is over.
///
/// ```
/// use toolresult::retry::{Cancelled, Decision, RetryPolicy, StopReason};
/// use toolresult::tool::ToolSafety;
/// use toolresult::{Failure, ToolError};
///
/// let policy = RetryPolicy::new();
/// // Even a failure marked transient is not retried once it was cancelled.
/// let failure = Failure::new(ToolError::new("cancelled")).with_source(Cancelled).transient();
/// assert_eq!(policy.decide(ToolSafety::ReadOnly, &failure, 1), Decision::Stop(StopReason::Cancelled));
/// assert_eq!(Cancelled.to_string(), "the tool call was cancelled");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, thiserror::Error)]
#[error("the tool call was cancelled")]
pub struct Cancelled;
