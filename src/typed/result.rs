//! `ToolResult<T, E>`: what a strongly typed tool returns.

use std::fmt;

use serde_json::{Map, Value};

use super::Failure;
use crate::ToolError;
use crate::canonical::{ContentPart, Request};

/// The result of a typed tool: a success `T`, a [`Failure<E>`], or a
/// suspension waiting for a [`Request`] to be answered; plus any parts (a
/// screenshot beside the data) and metadata for your code.
///
/// Two channels: the model sees the JSON of `T`, or `{"error": E}`, and the
/// parts; Rust sees the failure's [`Diagnostics`](crate::Diagnostics) (source
/// error, transient hint, retry-after). Lowering
/// ([`IntoToolResult`](crate::IntoToolResult)) turns it into the canonical
/// result and hands the Rust channel over beside it.
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
/// let ok = weather("Oslo").lower();
/// assert_eq!(ok.result.output, r#"{"city":"Oslo","celsius":-3.5}"#);
/// let err = weather("Atlantis").lower();
/// assert_eq!(err.result.output, r#"{"error":{"message":"unknown city Atlantis"}}"#);
/// assert!(err.result.is_error);
/// ```
#[must_use = "a tool result should be lowered and returned to the model"]
pub struct ToolResult<T, E = ToolError> {
    pub(super) outcome: Outcome<T, E>,
    pub(super) parts: Vec<ContentPart>,
    pub(super) metadata: Option<Map<String, Value>>,
}

/// The three states of a typed result.
pub(super) enum Outcome<T, E> {
    Success(T),
    Failure(Failure<E>),
    Pending(Request),
}

impl<T, E> ToolResult<T, E> {
    /// A success.
    pub fn ok(value: T) -> Self {
        Self::from_outcome(Outcome::Success(value))
    }

    /// A failure: a model-facing error `E` alone, or a [`Failure`] built
    /// with its Rust channel.
    ///
    /// ```
    /// use toolresult::{Failure, ToolError, ToolResult};
    ///
    /// let plain = ToolResult::<u8>::fail(ToolError::new("no such key"));
    /// let busy = ToolResult::<u8>::fail(Failure::new(ToolError::new("busy")).transient());
    /// assert_eq!(busy.failure().unwrap().diagnostics().is_transient(), Some(true));
    /// assert_eq!(plain.failure().unwrap().error().message, "no such key");
    /// ```
    pub fn fail(failure: impl Into<Failure<E>>) -> Self {
        Self::from_outcome(Outcome::Failure(failure.into()))
    }

    /// A suspension: the call cannot finish until `request` is answered. It
    /// lowers to the canonical [`pending`](crate::canonical::ToolResult::pending)
    /// result (an empty id is filled with a fresh UUID then), keeping this
    /// result's parts and metadata.
    ///
    /// ```
    /// use toolresult::canonical::Request;
    /// use toolresult::{IntoToolResult, ToolResult};
    ///
    /// let parked = ToolResult::<u64>::pending(Request::input("Deploy to production?").with_id("req-1"));
    /// let lowered = parked.lower();
    /// assert!(lowered.result.is_error);
    /// assert_eq!(lowered.result.output, "Deploy to production?");
    /// assert_eq!(lowered.result.pending_request().unwrap().id, "req-1");
    /// ```
    pub fn pending(request: Request) -> Self {
        Self::from_outcome(Outcome::Pending(request))
    }

    /// A suspension asking for a login at `url`; `prompt` defaults to
    /// `Authorization required to continue` when `None` or empty.
    ///
    /// ```
    /// use toolresult::{IntoToolResult, ToolResult};
    /// let auth = ToolResult::<u8>::auth_required("https://example.com/login", None).lower();
    /// assert_eq!(auth.result.output, "Authorization required to continue\nhttps://example.com/login");
    /// assert_eq!(auth.result.pending_request().unwrap().kind, "authorization");
    /// ```
    pub fn auth_required(url: impl Into<String>, prompt: Option<&str>) -> Self {
        let mut request = Request::authorization(url);
        if let Some(prompt) = prompt.filter(|p| !p.is_empty()) {
            request.prompt = prompt.to_owned();
        }
        Self::pending(request)
    }

    fn from_outcome(outcome: Outcome<T, E>) -> Self {
        Self {
            outcome,
            parts: Vec::new(),
            metadata: None,
        }
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

    /// The success value.
    #[must_use]
    pub fn value(&self) -> Option<&T> {
        match &self.outcome {
            Outcome::Success(value) => Some(value),
            _ => None,
        }
    }

    /// The failure, with its model-facing error and its Rust channel.
    #[must_use]
    pub fn failure(&self) -> Option<&Failure<E>> {
        match &self.outcome {
            Outcome::Failure(failure) => Some(failure),
            _ => None,
        }
    }

    /// The request a suspension waits on.
    #[must_use]
    pub fn pending_request(&self) -> Option<&Request> {
        match &self.outcome {
            Outcome::Pending(request) => Some(request),
            _ => None,
        }
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

    /// Maps the success value, keeping parts, metadata, a failure or a suspension.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> ToolResult<U, E> {
        let outcome = match self.outcome {
            Outcome::Success(value) => Outcome::Success(f(value)),
            Outcome::Failure(failure) => Outcome::Failure(failure),
            Outcome::Pending(request) => Outcome::Pending(request),
        };
        ToolResult {
            outcome,
            parts: self.parts,
            metadata: self.metadata,
        }
    }

    /// Maps the model-facing error, keeping the Rust channel.
    pub fn map_error<F>(self, f: impl FnOnce(E) -> F) -> ToolResult<T, F> {
        let outcome = match self.outcome {
            Outcome::Success(value) => Outcome::Success(value),
            Outcome::Failure(failure) => Outcome::Failure(failure.map_error(f)),
            Outcome::Pending(request) => Outcome::Pending(request),
        };
        ToolResult {
            outcome,
            parts: self.parts,
            metadata: self.metadata,
        }
    }
}

impl<T: fmt::Debug, E: fmt::Debug> fmt::Debug for ToolResult<T, E> {
    /// The model channel, and of the Rust channel only what [`Failure`]'s
    /// `Debug` shows (never the source's text).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("ToolResult");
        match &self.outcome {
            Outcome::Success(value) => s.field("value", value),
            Outcome::Failure(failure) => s.field("failure", failure),
            Outcome::Pending(request) => s.field("pending", request),
        };
        s.field("parts", &self.parts)
            .field("metadata", &self.metadata)
            .finish()
    }
}
