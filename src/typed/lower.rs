//! Lowering: a typed result (or anything a tool returns) into the canonical
//! result, with the Rust channel handed over beside it as [`Diagnostics`].

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::json::{self, SERIALISE_FAILED_OUTPUT};
use super::result::Outcome;
use super::unexpected::UnexpectedError;
use super::{Diagnostics, Failure, ToolError, ToolResult};
use crate::canonical::{self, ContentPart};

/// A lowered result: the canonical result for the model, and the
/// diagnostics for Rust. Take it apart with a destructuring `let` or
/// [`Lowered::into_parts`].
///
/// It also remembers whether `output` is the JSON of a typed value: a
/// success's object is what MCP sends as `structuredContent`
/// ([`structured_content`](Self::structured_content)), and a budget elides
/// JSON inside the JSON, where it cuts text.
#[derive(Debug)]
#[must_use = "the lowered result should be returned to the model"]
#[non_exhaustive]
pub struct Lowered {
    /// What the model is handed.
    pub result: canonical::ToolResult,
    /// What Rust keeps.
    pub diagnostics: Diagnostics,
    output_is_json: bool,
    /// A success lowered with a JSON object as `output`: MCP's
    /// `structuredContent` was promised.
    object_success: bool,
}

impl Lowered {
    fn new(result: canonical::ToolResult, diagnostics: Diagnostics) -> Self {
        Self {
            result,
            diagnostics,
            output_is_json: false,
            object_success: false,
        }
    }

    /// A lowered result read back from a record of it (a journal): the
    /// result, whether its output is JSON of a typed value, and the
    /// diagnostics the record kept (never a source).
    pub(crate) fn from_record(
        result: canonical::ToolResult,
        output_is_json: bool,
        diagnostics: Diagnostics,
    ) -> Self {
        let object_success = output_is_json && !result.is_error && result.output.starts_with('{');
        Self {
            result,
            diagnostics,
            output_is_json,
            object_success,
        }
    }

    /// Whether `output` was written as the JSON of a typed value (a
    /// success that is not a string, or a failure's `{"error": e}`), not
    /// text.
    pub(crate) fn output_is_json(&self) -> bool {
        self.output_is_json
    }

    /// No `structuredContent` for this result: a budget cut it so that it
    /// no longer matches the output schema, or cut it as text.
    pub(crate) fn withhold_structured_content(&mut self) {
        self.output_is_json = false;
    }

    /// The two halves.
    #[must_use]
    pub fn into_parts(self) -> (canonical::ToolResult, Diagnostics) {
        (self.result, self.diagnostics)
    }

    /// MCP's `structuredContent`: `output` itself, as raw JSON, when it is the
    /// JSON object of a typed success; `None` for a failure, a suspension, a
    /// success that is not an object (MCP wants an object there), and any
    /// result not lowered from a typed value.
    ///
    /// The same bytes as `output`, never re-serialised: the key order is the
    /// success type's own and nothing is escaped again, so reading the MCP
    /// answer back gives `output` byte for byte.
    ///
    /// ```
    /// use toolresult::{IntoToolResult, ToolResult};
    ///
    /// #[derive(serde::Serialize)]
    /// struct Weather { city: &'static str, celsius: f32 }
    ///
    /// let lowered = ToolResult::<_>::ok(Weather { city: "Oslo & Bergen", celsius: -3.5 }).lower();
    /// let structured = lowered.structured_content().unwrap();
    /// assert_eq!(structured.get(), r#"{"city":"Oslo & Bergen","celsius":-3.5}"#);
    /// assert_eq!(structured.get(), lowered.result.output);
    ///
    /// assert!(ToolResult::<_>::ok(5).lower().structured_content().is_none());
    /// ```
    #[must_use]
    pub fn structured_content(&self) -> Option<&RawValue> {
        if !self.output_is_json || self.result.is_error || !self.result.output.starts_with('{') {
            return None;
        }
        // `output` is a public field: check it still holds an object.
        serde_json::from_str::<&RawValue>(&self.result.output)
            .ok()
            .filter(|raw| raw.get().starts_with('{'))
    }

    /// Whether this is a typed success whose value was a JSON object and
    /// whose [`structured_content`](Self::structured_content) is gone: a
    /// budget cut it past its output schema, or cut it as text. MCP wants a
    /// conforming `structuredContent` with every success of a tool that
    /// declares an output schema, so every MCP path answers such a success
    /// as an error result (its text says what was cut).
    ///
    /// ```
    /// use toolresult::budget::{Budget, MemoryStore};
    /// use toolresult::{IntoToolResult, ToolResult};
    ///
    /// #[derive(serde::Serialize)]
    /// struct Page { lines: Vec<u32> }
    ///
    /// let page = ToolResult::<_>::ok(Page { lines: (0..400).collect() }).lower();
    /// assert!(!page.structured_content_withheld());
    /// // The schema wants every line: cut to 512 bytes, the page breaks it.
    /// let schema = serde_json::json!({"type": "object", "properties": {"lines": {"type": "array", "minItems": 400}}, "required": ["lines"]});
    /// let cut = Budget::new().output_bytes(512).apply(page, Some(&schema), &MemoryStore::new());
    /// assert!(cut.structured_content().is_none());
    /// assert!(cut.structured_content_withheld());
    /// ```
    #[must_use]
    pub fn structured_content_withheld(&self) -> bool {
        self.object_success && !self.result.is_error && self.structured_content().is_none()
    }

    /// Words an unexpected failure's model-facing error again with a tool's
    /// own formatter; anything else is left as it is.
    pub(crate) fn reword_unexpected(&mut self, formatter: fn(&UnexpectedError) -> ToolError) {
        let Some(known) = self.diagnostics.unexpected() else {
            return;
        };
        if let Ok(output) = json::failure_output(&formatter(&known)) {
            self.result.output = output;
        }
    }
}

/// Anything a tool can return, lowered into the canonical result and its
/// [`Diagnostics`].
///
/// | what the tool returns | `output` | `isError` |
/// |---|---|---|
/// | `ToolResult::ok(value)`, `Ok(value)` | the JSON of `value` (a JSON string unquoted) | false |
/// | `ToolResult::fail(e)`, `Err(Failure)`, `Err(e)` | `{"error": e}` | true |
/// | `Err(Failure::unexpected(io_error))`, `?` on any error | `{"error":{"message":"the tool failed with an unexpected error (std::io::Error, kind NotFound)"}}` | true |
/// | `ToolResult::pending(request)` | the request's prompt (and url) | true |
/// | `String`, `&str` | the text | false |
/// | `serde_json::Value` | its JSON (a string unquoted) | false |
/// | `()` | `null` | false |
/// | `canonical::ToolResult` | itself | itself |
///
/// A value or error whose `Serialize` fails becomes the error result
/// `{"error":{"message":"the tool's result could not be serialised to JSON"}}`,
/// with the serde error as the source; lowering never panics.
///
/// ```
/// use toolresult::{Failure, IntoToolResult, ToolError, ToolResult};
///
/// assert_eq!(ToolResult::<_>::ok("plain text").lower().result.output, "plain text");
/// assert_eq!(ToolResult::<_>::ok(vec![1, 2]).lower().result.output, "[1,2]");
/// assert_eq!("done".lower().result.output, "done");
/// assert_eq!(serde_json::json!({"a": 1}).lower().result.output, r#"{"a":1}"#);
///
/// let missing: Result<u8, ToolError> = Err(ToolError::new("no such key"));
/// assert_eq!(missing.lower().result.output, r#"{"error":{"message":"no such key"}}"#);
///
/// let failed: Result<u8, Failure> = Err(std::io::Error::from(std::io::ErrorKind::NotFound).into());
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
}

/// The one lowering every typed return goes through.
impl<T: Serialize, E: Serialize> IntoToolResult for ToolResult<T, E> {
    fn lower(self) -> Lowered {
        let ToolResult {
            outcome,
            parts,
            metadata,
        } = self;
        match outcome {
            Outcome::Success(value) => match json::success_output(&value) {
                Ok(success) => {
                    let mut lowered =
                        Lowered::new(canonical_result(success.output, false, parts, metadata), {
                            Diagnostics::default()
                        });
                    lowered.output_is_json = success.is_json;
                    lowered.object_success =
                        success.is_json && lowered.result.output.starts_with('{');
                    lowered
                }
                Err(error) => serialise_failed(error, parts, metadata),
            },
            Outcome::Failure(failure) => {
                let (error, diagnostics) = failure.into_parts();
                match json::failure_output(&error) {
                    Ok(output) => {
                        let mut lowered = Lowered::new(
                            canonical_result(output, true, parts, metadata),
                            diagnostics,
                        );
                        lowered.output_is_json = true;
                        lowered
                    }
                    Err(error) => serialise_failed(error, parts, metadata),
                }
            }
            Outcome::Pending(request) => {
                let mut result = canonical::ToolResult::pending(request);
                result.parts = parts;
                if let Some(mut metadata) = metadata {
                    if let Some(pending) = result
                        .metadata
                        .take()
                        .and_then(|mut m| m.remove(canonical::ToolResult::PENDING_KEY))
                    {
                        metadata.insert(canonical::ToolResult::PENDING_KEY.to_owned(), pending);
                    }
                    result.metadata = Some(metadata);
                }
                Lowered::new(result, Diagnostics::default())
            }
        }
    }
}

impl<T: Serialize, E: Serialize> IntoToolResult for Result<T, Failure<E>> {
    fn lower(self) -> Lowered {
        match self {
            Ok(value) => ToolResult::<T, E>::ok(value).lower(),
            Err(failure) => ToolResult::<T, E>::fail(failure).lower(),
        }
    }
}

/// `Err(e)` is the model-facing error `e`, with no Rust channel.
impl<T: Serialize, E: Serialize> IntoToolResult for Result<T, E> {
    fn lower(self) -> Lowered {
        match self {
            Ok(value) => ToolResult::<T, E>::ok(value).lower(),
            Err(error) => ToolResult::<T, E>::fail(error).lower(),
        }
    }
}

impl IntoToolResult for canonical::ToolResult {
    fn lower(self) -> Lowered {
        Lowered::new(self, Diagnostics::default())
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

impl IntoToolResult for Value {
    fn lower(self) -> Lowered {
        ToolResult::<_, ToolError>::ok(self).lower()
    }
}

impl IntoToolResult for () {
    fn lower(self) -> Lowered {
        ToolResult::<_, ToolError>::ok(()).lower()
    }
}

fn canonical_result(
    output: String,
    is_error: bool,
    parts: Vec<ContentPart>,
    metadata: Option<Map<String, Value>>,
) -> canonical::ToolResult {
    let mut result = if is_error {
        canonical::ToolResult::error(output)
    } else {
        canonical::ToolResult::ok(output)
    };
    result.parts = parts;
    result.metadata = metadata;
    result
}

/// The error result for a failing `Serialize`; the serde error is the
/// source (its text can hold what the serialiser saw, so the model is not
/// shown it). Parts and metadata are kept: nothing else was wrong with them.
fn serialise_failed(
    error: serde_json::Error,
    parts: Vec<ContentPart>,
    metadata: Option<Map<String, Value>>,
) -> Lowered {
    let (_, diagnostics) = Failure::new(()).with_source(error).permanent().into_parts();
    Lowered::new(
        canonical_result(SERIALISE_FAILED_OUTPUT.to_owned(), true, parts, metadata),
        diagnostics,
    )
}
