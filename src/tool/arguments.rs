//! A tool call's arguments as the provider sent them, decoding them into
//! the tool's `Args`, and the model-facing error when they do not fit.

use std::fmt;

use serde::de::{DeserializeOwned, Error as _, Unexpected};
use serde_json::{Map, Value};

use crate::canonical::{clip_echoes, shorten};
use crate::{Failure, IntoToolResult, Lowered, ToolError, ToolResult};

/// The arguments of a call, as the provider sent them.
///
/// A reader never decodes or checks them: arguments that are malformed JSON
/// text, or JSON of the wrong shape, are the tool's bad-arguments answer to
/// the model, not an error reading the message.
///
/// ```
/// use serde_json::json;
/// use toolresult::provider::{Anthropic, OpenAiChat, Provider};
/// use toolresult::tool::Arguments;
///
/// let chat = OpenAiChat::read_calls(
///     r#"{"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{oops"}}]}"#,
/// )?;
/// assert_eq!(chat[0].arguments, Arguments::Text("{oops".into()));
///
/// let claude = Anthropic::read_calls(
///     r#"{"content":[{"type":"tool_use","id":"t1","name":"f","input":{"x":1}}]}"#,
/// )?;
/// assert_eq!(claude[0].arguments, Arguments::Json(json!({"x": 1})));
/// # Ok::<(), toolresult::provider::ReadCallsError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Arguments {
    /// JSON text as the provider sent it (OpenAI's `arguments` string). It
    /// may be malformed: that is the tool's bad-arguments answer, not a
    /// read error.
    Text(String),
    /// A JSON value the provider sent as JSON (Anthropic's `input`,
    /// Gemini's `args`, MCP's `arguments`); `{}` when the provider left it out.
    Json(serde_json::Value),
}

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
/// of it. Every value echoed back is cut to 64 characters, and the whole
/// message to 512: a message never grows with the arguments sent.
///
/// ```
/// use toolresult::tool::{self, Arguments, CallContext, InvalidArguments, Tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Args { days: u8 }
///
/// let forecast = tool::function("forecast", "Forecast", |a: Args| a.days.to_string())?;
/// let args = Arguments::Json(serde_json::json!({"days": "x"}));
/// let lowered = pollster::block_on(forecast.call(&args, &CallContext::new("c1", "forecast")));
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
    /// Decodes a call's arguments, as the provider sent them, into `A`.
    ///
    /// # Errors
    /// Text that is not JSON, or arguments that do not fit `A`.
    #[inline]
    pub(crate) fn decode_arguments<A: DeserializeOwned>(args: &Arguments) -> Result<A, Self> {
        match args {
            Arguments::Text(text) => Self::decode_text(text),
            Arguments::Json(value) => Self::decode_value(value),
        }
    }

    /// Decodes `args` into `A`, borrowing it: the common case copies
    /// nothing but what `A` keeps. A `null` value reads as `{}`, so an `A`
    /// whose fields are all optional accepts a call without arguments;
    /// anything else that is not a JSON object is refused before serde
    /// sees it.
    ///
    /// # Errors
    /// Where and why the arguments do not fit `A`.
    fn decode_value<A: DeserializeOwned>(args: &Value) -> Result<A, Self> {
        let empty;
        let args = match args {
            Value::Null => {
                empty = Value::Object(Map::new());
                &empty
            }
            object @ Value::Object(_) => object,
            other => return Err(Self::not_an_object(other)),
        };
        // The common case decodes straight from the value; only a failure
        // is decoded again, tracking the path, to say where it went wrong.
        if let Ok(decoded) = serde::Deserialize::deserialize(args) {
            return Ok(decoded);
        }
        serde_path_to_error::deserialize(args).map_err(|error| {
            let path = error.path().to_string();
            Self {
                path: (path != ".").then(|| shorten(&path)),
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
        Self::decode_value(&Self::parse(arguments)?)
    }

    /// Parses arguments sent as JSON text (OpenAI's `arguments` string).
    /// Empty or blank text is `null`, which [`decode`](Self::decode) reads
    /// as `{}`.
    ///
    /// # Errors
    /// Text that is not JSON; the message says so, with serde's line and
    /// column.
    fn parse(arguments: &str) -> Result<Value, Self> {
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

    /// The path of the value that did not fit (`days`, `stops[2].city`,
    /// cut to 64 characters); `None` when it was the arguments as a whole.
    #[must_use]
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// The model-facing message:
    /// `` invalid arguments at `days`: invalid type: string "x", expected u8 ``,
    /// `` invalid arguments: missing field `city` `` at the top level, or
    /// `invalid arguments: the arguments are not JSON: <serde's words>`.
    /// A value serde's words quote (an unknown field, a string of the wrong
    /// type) is cut to its first 64 characters and `…`, and serde's words
    /// to 512 characters, so the message never grows with the arguments.
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
        let error = clip_echoes(&self.0.error.to_string());
        match &self.0.path {
            Some(path) => write!(f, "invalid arguments at `{path}`: {error}"),
            None if self.0.not_json => {
                write!(f, "invalid arguments: the arguments are not JSON: {error}")
            }
            None => write!(f, "invalid arguments: {error}"),
        }
    }
}
