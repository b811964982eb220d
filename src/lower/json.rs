//! The model-facing JSON of a typed result.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{Diagnostics, Lowered};
use crate::canonical::{self, ContentPart};

/// The output of a result whose value or error could not be serialised.
pub const SERIALISE_FAILED_OUTPUT: &str =
    r#"{"error":{"message":"the tool's result could not be serialised to JSON"}}"#;

/// The JSON of a success value; a value that serialises to a JSON string
/// becomes that string, unquoted.
pub(crate) fn success_output<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let json = serde_json::to_string(value)?;
    if json.starts_with('"') {
        return serde_json::from_str(&json);
    }
    Ok(json)
}

/// `{"error": error}`, serialised from a borrowed wrapper.
pub(crate) fn failure_output<E: Serialize + ?Sized>(error: &E) -> serde_json::Result<String> {
    #[derive(Serialize)]
    struct Envelope<'a, E: ?Sized> {
        error: &'a E,
    }
    serde_json::to_string(&Envelope { error })
}

/// The error result for a failing `Serialize`; the serde error is the
/// source (its text can hold what the serialiser saw, so the model is not
/// shown it). Parts and metadata are kept: nothing else was wrong with them.
pub(crate) fn serialise_failed(
    error: serde_json::Error,
    parts: Vec<ContentPart>,
    metadata: Option<Map<String, Value>>,
) -> Lowered {
    let mut result = canonical::ToolResult::error(SERIALISE_FAILED_OUTPUT);
    result.parts = parts;
    result.metadata = metadata;
    let diagnostics = Diagnostics {
        failed: true,
        source: Some(anyhow::Error::new(error)),
        source_type: Some("serde_json::Error"),
        transient: Some(false),
        retry_after: None,
    };
    Lowered::new(result, diagnostics)
}
