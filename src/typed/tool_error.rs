//! `ToolError`, the default model-facing error shape.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The default model-facing error: `{"message", "suggestion"?}`.
///
/// It says what went wrong in words the model can act on, and optionally
/// what to try instead. It never carries the Rust-side source error.
///
/// ```
/// use toolresult::ToolError;
/// let err = ToolError::new("No such config key: nope").with_suggestion("try `region`");
/// assert_eq!(
///     serde_json::to_string(&err)?,
///     r#"{"message":"No such config key: nope","suggestion":"try `region`"}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[schemars(description = "What went wrong, and optionally what to try instead.")]
#[non_exhaustive]
pub struct ToolError {
    /// What went wrong.
    pub message: String,
    /// What the model could try instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

impl ToolError {
    /// An error with a message and no suggestion.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            suggestion: None,
        }
    }

    /// The same error with a suggestion.
    #[must_use]
    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestion = Some(suggestion.into());
        self
    }
}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        Self::new(message)
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        Self::new(message)
    }
}
