//! Decoding a tool call's JSON arguments into the tool's `Args`, and the
//! model-facing error when they do not fit.

use std::fmt;

use serde::de::{DeserializeOwned, Error as _, Unexpected};
use serde_json::{Map, Value};

use crate::{Failure, IntoToolResult, Lowered, ToolError, ToolResult};

/// Arguments that do not decode into the tool's `Args`: where, and serde's
/// words for what was wrong.
///
/// It is the Rust-side source of the error result a bad call lowers into;
/// its own source is the `serde_json::Error`. The model is shown the same
/// words ([`InvalidArguments::message`]): serde's own words echo only what
/// the model sent, but the text of an error raised by the `Args` type's own
/// `Deserialize` (a hand-written impl, a `deserialize_with` or `try_from`
/// validator, `serde::de::Error::custom`) is shown as it was written. That
/// text is part of the model channel: keep secrets and internal details out
/// of it.
///
/// ```
/// use toolresult::tool::{self, InvalidArguments, Tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Args { days: u8 }
///
/// let forecast = tool::function("forecast", "Forecast", |a: Args| a.days.to_string())?;
/// let lowered = forecast.call_blocking(serde_json::json!({"days": "x"})).unwrap();
/// let err = lowered.diagnostics.source().unwrap().downcast_ref::<InvalidArguments>().unwrap();
/// assert_eq!(err.path(), Some("days"));
/// assert_eq!(
///     err.message(),
///     r#"invalid arguments at `days`: invalid type: string "x", expected u8"#
/// );
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[error("{}", self.message())]
pub struct InvalidArguments {
    path: Option<String>,
    not_json: bool,
    #[source]
    error: serde_json::Error,
}

impl InvalidArguments {
    /// Decodes `args` into `A`. A `null` value reads as `{}`, so an `A`
    /// whose fields are all optional accepts a call without arguments;
    /// anything else that is not a JSON object is refused before serde
    /// sees it.
    ///
    /// # Errors
    /// Where and why the arguments do not fit `A`.
    pub(crate) fn decode<A: DeserializeOwned>(args: Value) -> Result<A, Self> {
        let args = match args {
            Value::Null => Value::Object(Map::new()),
            object @ Value::Object(_) => object,
            other => return Err(Self::not_an_object(&other)),
        };
        // The common case decodes straight from the value; only a failure
        // is decoded again, tracking the path, to say where it went wrong.
        if let Ok(decoded) = serde::Deserialize::deserialize(&args) {
            return Ok(decoded);
        }
        serde_path_to_error::deserialize(args).map_err(|error| {
            let path = error.path().to_string();
            Self {
                path: (path != ".").then_some(path),
                not_json: false,
                error: error.into_inner(),
            }
        })
    }

    /// Decodes arguments sent as JSON text (OpenAI's `arguments` string)
    /// into `A`: an object decodes straight from the text; anything else,
    /// and any failure, goes through [`parse`](Self::parse) and
    /// [`decode`](Self::decode), which word the error.
    ///
    /// # Errors
    /// Text that is not JSON, or arguments that do not fit `A`.
    pub(crate) fn decode_text<A: DeserializeOwned>(arguments: &str) -> Result<A, Self> {
        if arguments.trim_start().starts_with('{')
            && let Ok(decoded) = serde_json::from_str(arguments)
        {
            return Ok(decoded);
        }
        Self::decode(Self::parse(arguments)?)
    }

    /// Parses arguments sent as JSON text (OpenAI's `arguments` string).
    /// Empty or blank text is `null`, which [`decode`](Self::decode) reads
    /// as `{}`.
    ///
    /// # Errors
    /// Text that is not JSON; the message says so, with serde's line and
    /// column.
    pub(crate) fn parse(arguments: &str) -> Result<Value, Self> {
        if arguments.trim().is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_str(arguments).map_err(|error| Self {
            path: None,
            not_json: true,
            error,
        })
    }

    fn not_an_object(value: &Value) -> Self {
        let unexpected = match value {
            Value::Bool(b) => Unexpected::Bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => Unexpected::Unsigned(u),
                (None, Some(i), _) => Unexpected::Signed(i),
                (None, None, Some(f)) => Unexpected::Float(f),
                (None, None, None) => Unexpected::Other("number"),
            },
            Value::String(s) => Unexpected::Str(s),
            Value::Array(_) => Unexpected::Seq,
            Value::Null | Value::Object(_) => Unexpected::Map,
        };
        Self {
            path: None,
            not_json: false,
            error: serde_json::Error::invalid_type(unexpected, &"a JSON object"),
        }
    }

    /// The path of the value that did not fit (`days`, `stops[2].city`);
    /// `None` when it was the arguments as a whole.
    #[must_use]
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// The model-facing message:
    /// `` invalid arguments at `days`: invalid type: string "x", expected u8 ``,
    /// `` invalid arguments: missing field `city` `` at the top level, or
    /// `invalid arguments: the arguments are not JSON: <serde's words>`.
    #[must_use]
    pub fn message(&self) -> String {
        Message(self).to_string()
    }

    /// The model-facing error for a call of the tool `tool`: the
    /// [message](Self::message) and a suggestion to call again.
    #[must_use]
    pub(crate) fn to_tool_error(&self, tool: &str) -> ToolError {
        ToolError::new(self.message()).with_suggestion(format!(
            "call `{tool}` again with arguments that match its input schema"
        ))
    }

    /// The error result for a call of the tool `tool`: the model-facing
    /// error, this error as the source, never transient.
    pub(crate) fn lower(self, tool: &str) -> Lowered {
        let error = self.to_tool_error(tool);
        ToolResult::<(), ToolError>::fail(Failure::new(error).with_source(self).permanent()).lower()
    }
}

struct Message<'a>(&'a InvalidArguments);

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let error = &self.0.error;
        match &self.0.path {
            Some(path) => write!(f, "invalid arguments at `{path}`: {error}"),
            None if self.0.not_json => {
                write!(f, "invalid arguments: the arguments are not JSON: {error}")
            }
            None => write!(f, "invalid arguments: {error}"),
        }
    }
}
