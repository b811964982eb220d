//! The Rust-side sources of the answers the toolbox writes itself: a tool
//! that took too long, a name no tool has, a registration refused.

use std::time::Duration;

use crate::tool::InvalidToolName;

/// A call did not finish within its timeout. The source of the transient
/// error result the call is answered with; its future was dropped.
///
/// ```
/// use std::time::Duration;
/// use toolresult::toolbox::TimedOut;
///
/// let err = TimedOut::new("slow_search", Duration::from_millis(1500));
/// assert_eq!(err.to_string(), "the tool `slow_search` did not finish within 1.5s");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the tool `{tool}` did not finish within {}", seconds(*.after))]
pub struct TimedOut {
    tool: String,
    after: Duration,
}

impl TimedOut {
    /// The tool `tool` timed out after `after`.
    #[must_use]
    pub fn new(tool: impl Into<String>, after: Duration) -> Self {
        Self {
            tool: tool.into(),
            after,
        }
    }

    /// The name of the tool.
    #[must_use]
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The timeout it did not finish within.
    #[must_use]
    pub fn after(&self) -> Duration {
        self.after
    }
}

/// A duration as the model reads it: `1.5s`, `30s`, `250ms`.
pub(crate) fn seconds(duration: Duration) -> String {
    if duration < Duration::from_secs(1) {
        format!("{}ms", duration.as_millis())
    } else {
        let secs = duration.as_secs_f64();
        let text = format!("{secs:.3}");
        format!("{}s", text.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// The model called a tool the toolbox does not have. The source of the
/// error result that lists the tools it could call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no tool is named `{name}`")]
pub struct UnknownTool {
    pub(crate) name: String,
}

impl UnknownTool {
    /// The name the model used, as shown to it (cut to 64 characters).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// A tool the toolbox refused to register.
///
/// ```
/// use toolresult::toolbox::{RegisterError, Toolbox};
/// use toolresult::tool;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register(tool::function("now", "The time", |_: NoArgs| "noon")?)?;
/// let again = toolbox.register(tool::function("now", "The time again", |_: NoArgs| "noon")?);
/// assert_eq!(again.unwrap_err().to_string(), "a tool named `now` is already registered");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegisterError {
    /// Another tool already has the name.
    #[error("a tool named `{0}` is already registered")]
    Duplicate(String),
    /// The name is one some provider would refuse.
    #[error(transparent)]
    InvalidName(#[from] InvalidToolName),
}
