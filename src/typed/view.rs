//! `DynToolResult`: one object-safe view of the typed results of many tools.

use std::time::Duration;

use serde::Serialize;

use super::ToolResult;
use crate::canonical;
use crate::lower::{IntoToolResult, Lowered, SERIALISE_FAILED_OUTPUT};

/// What middleware holding the results of many different tools can ask of
/// each, whatever its `T` and `E`.
///
/// ```
/// use toolresult::{DynToolResult, ToolError, ToolResult};
///
/// let results: Vec<Box<dyn DynToolResult + Send>> = vec![
///     Box::new(ToolResult::<_>::ok(42)),
///     Box::new(ToolResult::<u8>::failure(toolresult::Failure::new(ToolError::new("busy")).transient())),
/// ];
/// let retry: Vec<bool> = results.iter().map(|r| r.is_transient() == Some(true)).collect();
/// assert_eq!(retry, [false, true]);
/// assert_eq!(results[0].to_tool_result().output, "42");
/// let lowered: Vec<_> = results.into_iter().map(|r| r.lower_boxed()).collect();
/// assert!(lowered[1].result.is_error);
/// ```
pub trait DynToolResult {
    /// Whether the call succeeded.
    fn is_success(&self) -> bool;
    /// The transient hint of a failure.
    fn is_transient(&self) -> Option<bool>;
    /// The retry-after of a failure.
    fn retry_after(&self) -> Option<Duration>;
    /// The source error of a failure.
    fn source(&self) -> Option<&anyhow::Error>;
    /// The canonical result the model would see, without consuming the typed one.
    fn to_tool_result(&self) -> canonical::ToolResult;
    /// Lowers the boxed result, diagnostics and all.
    fn lower_boxed(self: Box<Self>) -> Lowered;
}

impl<T: Serialize, E: Serialize> DynToolResult for ToolResult<T, E> {
    fn is_success(&self) -> bool {
        ToolResult::is_success(self)
    }

    fn is_transient(&self) -> Option<bool> {
        ToolResult::is_transient(self)
    }

    fn retry_after(&self) -> Option<Duration> {
        ToolResult::retry_after(self)
    }

    fn source(&self) -> Option<&anyhow::Error> {
        ToolResult::source(self)
    }

    fn to_tool_result(&self) -> canonical::ToolResult {
        let rendered = match &self.outcome {
            Ok(value) => crate::lower::json::success_output(value),
            Err(failure) => crate::lower::json::failure_output(failure.error()),
        };
        let (output, is_error) = match rendered {
            Ok(output) => (output, self.outcome.is_err()),
            Err(_) => (SERIALISE_FAILED_OUTPUT.to_owned(), true),
        };
        canonical::ToolResult {
            output,
            is_error,
            parts: self.parts.clone(),
            metadata: self.metadata.clone(),
        }
    }

    fn lower_boxed(self: Box<Self>) -> Lowered {
        (*self).lower()
    }
}
