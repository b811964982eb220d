//! Lowering: a typed result (or anything a tool returns) into the canonical
//! result, with the Rust channel handed over beside it as [`Diagnostics`].
//!
//! | what the tool returns | `output` | `isError` |
//! |---|---|---|
//! | `ToolResult::ok(value)`, `Ok(value)` | the JSON of `value` (a JSON string unquoted) | false |
//! | `ToolResult::fail(e)`, `Err(failure)` | `{"error": e}` | true |
//! | `Err(io_error)` (any std error) | `{"error":{"message":"the tool failed with an unexpected error (std::io::Error, kind NotFound)"}}` | true |
//! | `String`, `&str` | the text | false |
//! | `serde_json::Value` | its JSON (a string unquoted) | false |
//! | `()` | `null` | false |
//! | `canonical::ToolResult` | itself | itself |
//!
//! A value or error whose `Serialize` fails becomes the error result
//! [`SERIALISE_FAILED_OUTPUT`], with the serde error as the source; lowering
//! never panics.

mod diagnostics;
pub(crate) mod json;
pub(crate) mod unexpected;

use std::error::Error as StdError;

use serde::Serialize;

use crate::canonical;
use crate::typed::Failure;
use crate::{ToolError, ToolResult};

pub use diagnostics::Diagnostics;
pub use json::SERIALISE_FAILED_OUTPUT;
pub use unexpected::{
    UnexpectedError, UnexpectedFormatter, default_unexpected_formatter, format_unexpected,
    set_unexpected_formatter,
};

/// A lowered result: the canonical result for the model, and the
/// diagnostics for Rust. Take it apart with a destructuring `let` or
/// [`Lowered::into_parts`].
#[derive(Debug)]
#[must_use = "the lowered result should be returned to the model"]
#[non_exhaustive]
pub struct Lowered {
    /// What the model is handed.
    pub result: canonical::ToolResult,
    /// What Rust keeps.
    pub diagnostics: Diagnostics,
}

impl Lowered {
    /// A lowered result from its two halves.
    pub fn new(result: canonical::ToolResult, diagnostics: Diagnostics) -> Self {
        Self {
            result,
            diagnostics,
        }
    }

    /// The two halves.
    #[must_use]
    pub fn into_parts(self) -> (canonical::ToolResult, Diagnostics) {
        (self.result, self.diagnostics)
    }
}

/// Anything a tool can return, lowered into the canonical result.
///
/// ```
/// use toolresult::{IntoToolResult, ToolResult};
///
/// assert_eq!(ToolResult::<_>::ok("plain text").into_tool_result().output, "plain text");
/// assert_eq!(ToolResult::<_>::ok(vec![1, 2]).into_tool_result().output, "[1,2]");
/// assert_eq!("done".into_tool_result().output, "done");
/// assert_eq!(serde_json::json!({"a": 1}).into_tool_result().output, r#"{"a":1}"#);
///
/// let failed: Result<u8, std::io::Error> = Err(std::io::ErrorKind::NotFound.into());
/// let lowered = failed.lower();
/// assert_eq!(
///     lowered.result.output,
///     r#"{"error":{"message":"the tool failed with an unexpected error (std::io::Error, kind NotFound)"}}"#
/// );
/// assert_eq!(lowered.diagnostics.source_type_name(), Some("std::io::Error"));
/// ```
pub trait IntoToolResult {
    /// Lowers into the canonical result and the diagnostics.
    fn lower(self) -> Lowered;

    /// Lowers into the canonical result alone; the diagnostics are dropped.
    fn into_tool_result(self) -> canonical::ToolResult
    where
        Self: Sized,
    {
        self.lower().result
    }
}

/// An error a tool body can fail with: converted into a [`Failure`] whose
/// model-facing error is serialised.
///
/// Implemented for [`Failure<E>`], for [`ToolError`], and for every
/// `std::error::Error` (as an unexpected failure: a safe message, the error
/// kept as the source).
pub trait IntoFailure {
    /// The model-facing error.
    type Error: Serialize;

    /// The failure.
    fn into_failure(self) -> Failure<Self::Error>;
}

impl<E: Serialize> IntoFailure for Failure<E> {
    type Error = E;
    fn into_failure(self) -> Failure<E> {
        self
    }
}

impl IntoFailure for ToolError {
    type Error = ToolError;
    fn into_failure(self) -> Failure<ToolError> {
        Failure::new(self)
    }
}

impl<X> IntoFailure for X
where
    X: StdError + Send + Sync + 'static,
{
    type Error = ToolError;
    fn into_failure(self) -> Failure<ToolError> {
        Failure::unexpected(self)
    }
}

impl<T: Serialize, E: Serialize> IntoToolResult for ToolResult<T, E> {
    fn lower(self) -> Lowered {
        let ToolResult {
            outcome,
            parts,
            metadata,
        } = self;
        let (rendered, diagnostics) = match outcome {
            Ok(value) => (json::success_output(&value), Diagnostics::success()),
            Err(failure) => {
                let (error, channel) = failure.into_rust_channel();
                (
                    json::failure_output(&error),
                    Diagnostics::from_failure(channel),
                )
            }
        };
        let failed = diagnostics.is_failure();
        match rendered {
            Ok(output) => Lowered::new(
                canonical::ToolResult {
                    output,
                    is_error: failed,
                    parts,
                    metadata,
                },
                diagnostics,
            ),
            Err(serde_error) => json::serialise_failed(serde_error, parts, metadata),
        }
    }
}

impl<T: Serialize, F: IntoFailure> IntoToolResult for Result<T, F> {
    fn lower(self) -> Lowered {
        let typed: ToolResult<T, F::Error> = self.map_err(IntoFailure::into_failure).into();
        typed.lower()
    }
}

impl IntoToolResult for canonical::ToolResult {
    fn lower(self) -> Lowered {
        let diagnostics = if self.is_error {
            Diagnostics::failure()
        } else {
            Diagnostics::success()
        };
        Lowered::new(self, diagnostics)
    }
}

impl IntoToolResult for String {
    fn lower(self) -> Lowered {
        canonical::ToolResult::ok(self).lower()
    }
}

impl IntoToolResult for &str {
    fn lower(self) -> Lowered {
        canonical::ToolResult::ok(self).lower()
    }
}

impl IntoToolResult for serde_json::Value {
    fn lower(self) -> Lowered {
        match self {
            serde_json::Value::String(text) => text.lower(),
            other => ToolResult::<_, ToolError>::ok(other).lower(),
        }
    }
}

impl IntoToolResult for () {
    fn lower(self) -> Lowered {
        ToolResult::<_, ToolError>::ok(()).lower()
    }
}
