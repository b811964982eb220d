//! `ToolResult<T, E>`: what a strongly typed tool returns.

use std::fmt;
use std::time::Duration;

use serde_json::{Map, Value};

use super::Failure;
use crate::ToolError;
use crate::canonical::ContentPart;

/// The result of a typed tool: a success `T` or a [`Failure<E>`], plus any
/// parts (a screenshot beside the data) and metadata for your code.
///
/// Two channels: the model sees the JSON of `T`, or `{"error": E}`, and the
/// parts; Rust sees the source error, the transient hint and the retry-after.
/// Lowering ([`IntoToolResult`](crate::IntoToolResult)) turns it into the
/// canonical result and hands the Rust channel over as
/// [`Diagnostics`](crate::Diagnostics).
///
/// A failure always carries its `E`, a success never carries a source, and
/// there is no `Default`: each state is built on purpose.
///
/// ```
/// use serde::Serialize;
/// use toolresult::{IntoToolResult, ToolError, ToolResult};
///
/// #[derive(Serialize)]
/// struct Weather { city: String, celsius: f32 }
///
/// fn weather(city: &str) -> ToolResult<Weather> {
///     match city {
///         "Oslo" => ToolResult::ok(Weather { city: city.into(), celsius: -3.5 }),
///         _ => ToolResult::fail(ToolError::new(format!("unknown city {city}"))),
///     }
/// }
///
/// let ok = weather("Oslo").into_tool_result();
/// assert_eq!(ok.output, r#"{"city":"Oslo","celsius":-3.5}"#);
/// let err = weather("Atlantis").into_tool_result();
/// assert_eq!(err.output, r#"{"error":{"message":"unknown city Atlantis"}}"#);
/// assert!(err.is_error);
/// ```
#[must_use = "a tool result should be lowered and returned to the model"]
pub struct ToolResult<T, E = ToolError> {
    pub(crate) outcome: Result<T, Failure<E>>,
    pub(crate) parts: Vec<ContentPart>,
    pub(crate) metadata: Option<Map<String, Value>>,
}

impl<T, E> ToolResult<T, E> {
    /// A success.
    pub fn ok(value: T) -> Self {
        Self::from_outcome(Ok(value))
    }

    /// A failure with this model-facing error and nothing else.
    pub fn fail(error: E) -> Self {
        Self::from_outcome(Err(Failure::new(error)))
    }

    /// A failure built with [`Failure`]'s builders.
    pub fn failure(failure: Failure<E>) -> Self {
        Self::from_outcome(Err(failure))
    }

    fn from_outcome(outcome: Result<T, Failure<E>>) -> Self {
        Self {
            outcome,
            parts: Vec::new(),
            metadata: None,
        }
    }

    /// The same result with one more part for the model.
    pub fn with_part(mut self, part: ContentPart) -> Self {
        self.parts.push(part);
        self
    }

    /// The same result with more parts for the model.
    pub fn with_parts(mut self, parts: impl IntoIterator<Item = ContentPart>) -> Self {
        self.parts.extend(parts);
        self
    }

    /// The same result with one metadata entry (for your code; the model never sees it).
    pub fn with_meta(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.metadata
            .get_or_insert_with(Map::new)
            .insert(key.into(), value.into());
        self
    }

    /// Whether the call succeeded.
    #[must_use]
    pub fn is_success(&self) -> bool {
        self.outcome.is_ok()
    }

    /// The success value.
    #[must_use]
    pub fn value(&self) -> Option<&T> {
        self.outcome.as_ref().ok()
    }

    /// The model-facing error of a failure.
    #[must_use]
    pub fn error(&self) -> Option<&E> {
        self.as_failure().map(Failure::error)
    }

    /// The failure, with its whole Rust channel.
    #[must_use]
    pub fn as_failure(&self) -> Option<&Failure<E>> {
        self.outcome.as_ref().err()
    }

    /// The source error of a failure (downcast it, walk its `chain`).
    #[must_use]
    pub fn source(&self) -> Option<&anyhow::Error> {
        self.as_failure()?.source()
    }

    /// The transient hint of a failure; `None` on success.
    #[must_use]
    pub fn is_transient(&self) -> Option<bool> {
        self.as_failure()?.is_transient()
    }

    /// The retry-after of a failure.
    #[must_use]
    pub fn retry_after(&self) -> Option<Duration> {
        self.as_failure()?.retry_after()
    }

    /// The parts that go to the model with the result.
    #[must_use]
    pub fn parts(&self) -> &[ContentPart] {
        &self.parts
    }

    /// The metadata.
    #[must_use]
    pub fn metadata(&self) -> Option<&Map<String, Value>> {
        self.metadata.as_ref()
    }

    /// The outcome, borrowed.
    ///
    /// # Errors
    /// The failure, when the call failed.
    pub fn as_result(&self) -> Result<&T, &Failure<E>> {
        self.outcome.as_ref()
    }

    /// The outcome as a `Result`; parts and metadata are dropped.
    ///
    /// # Errors
    /// The failure, when the call failed.
    pub fn into_result(self) -> Result<T, Failure<E>> {
        self.outcome
    }

    /// Maps the success value, keeping parts, metadata and any failure.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> ToolResult<U, E> {
        ToolResult {
            outcome: self.outcome.map(f),
            parts: self.parts,
            metadata: self.metadata,
        }
    }

    /// Maps the model-facing error, keeping the Rust channel.
    pub fn map_error<F>(self, f: impl FnOnce(E) -> F) -> ToolResult<T, F> {
        ToolResult {
            outcome: self.outcome.map_err(|failure| failure.map_error(f)),
            parts: self.parts,
            metadata: self.metadata,
        }
    }
}

impl<T, E> From<Result<T, Failure<E>>> for ToolResult<T, E> {
    fn from(outcome: Result<T, Failure<E>>) -> Self {
        Self::from_outcome(outcome)
    }
}

impl<T, E> From<Failure<E>> for ToolResult<T, E> {
    fn from(failure: Failure<E>) -> Self {
        Self::failure(failure)
    }
}

impl<T, E> From<ToolResult<T, E>> for Result<T, Failure<E>> {
    fn from(result: ToolResult<T, E>) -> Self {
        result.outcome
    }
}

impl<T: fmt::Debug, E: fmt::Debug> fmt::Debug for ToolResult<T, E> {
    /// The model channel, and of the Rust channel only what [`Failure`]'s
    /// `Debug` shows (never the source's text).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("ToolResult");
        match &self.outcome {
            Ok(value) => s.field("value", value),
            Err(failure) => s.field("failure", failure),
        };
        s.field("parts", &self.parts)
            .field("metadata", &self.metadata)
            .finish()
    }
}
