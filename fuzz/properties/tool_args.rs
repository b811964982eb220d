//! A typed tool's arguments from arbitrary bytes: the text goes to
//! `Tool::call` as a provider's `arguments` string would. Nothing
//! panics; arguments that decode into `Args` run the body and give its JSON;
//! anything else (not JSON, not an object, a missing field, a wrong type, an
//! unknown field or variant, a number out of range) is an error result the
//! model can act on, `{"error": {"message": "invalid arguments...",
//! "suggestion": ...}}`, never transient, with `InvalidArguments` as the
//! Rust-side source, and the body is not run. A call with the parsed value,
//! and the answer taken without polling, agree with the call with the
//! text, and the result survives a trip through MCP.
//!
//! The expected answer is worked out with serde_json alone, by the rule the
//! crate documents, not with the crate's own decoding: an object's text
//! decodes straight into `Args`; otherwise the text is parsed (blank text is
//! `null`, which reads as `{}`; anything else that is not an object is
//! refused) and the value decoded. Straight from the text is the more
//! lenient: serde_json skips an unknown field's value without building it,
//! so a lone surrogate escape or an out-of-range number there is accepted,
//! where parsing the text into a `Value` refuses it.
use std::collections::BTreeMap;
use std::sync::LazyLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolresult::ToolResult;
use toolresult::tool::{self, InvalidArguments, Tool};

use super::providers;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Trip {
    city: String,
    days: Option<u8>,
    #[serde(default)]
    stops: Vec<Stop>,
    units: Option<Units>,
    filter: Option<Filter>,
    #[serde(default)]
    tags: BTreeMap<String, i64>,
    ratio: Option<f64>,
    flag: Option<bool>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Stop {
    name: String,
    lat: f64,
    lon: f64,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Metric,
    Imperial,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Filter {
    Near { km: u32 },
    Named { name: String },
}

/// Every field optional: `null`, blank text and `{}` all decode.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Loose {
    limit: Option<u16>,
    query: Option<String>,
}

static TRIP: LazyLock<Box<dyn Tool>> = LazyLock::new(|| {
    Box::new(
        tool::function("plan_trip", "Plan a trip", |trip: Trip| {
            ToolResult::<Trip>::ok(trip)
        })
        .expect("a valid tool name"),
    )
});

static LOOSE: LazyLock<Box<dyn Tool>> = LazyLock::new(|| {
    Box::new(
        tool::function("search", "Search", |args: Loose| async move {
            ToolResult::<Loose>::ok(args)
        })
        .expect("a valid tool name"),
    )
});

/// What a call with `text` as its arguments should give, by serde_json
/// alone.
enum Expected<A> {
    /// The arguments decode into `A`.
    Decoded(A),
    /// The text is not JSON; serde_json's error.
    NotJson(serde_json::Error),
    /// The text is JSON but not an object (nor `null`).
    NotAnObject,
    /// An object (or `null`) that does not decode into `A`; serde_json's
    /// error.
    DoesNotFit(serde_json::Error),
}

/// The JSON value of the arguments `text`: blank text is `null`.
fn parse(text: &str) -> Result<Value, serde_json::Error> {
    if text.trim().is_empty() {
        Ok(Value::Null)
    } else {
        serde_json::from_str(text)
    }
}

fn expected<A: serde::de::DeserializeOwned>(text: &str) -> Expected<A> {
    if text.trim_start().starts_with('{')
        && let Ok(args) = serde_json::from_str::<A>(text)
    {
        return Expected::Decoded(args);
    }
    let value = match parse(text) {
        Ok(Value::Null) => Value::Object(serde_json::Map::new()),
        Ok(object @ Value::Object(_)) => object,
        Ok(_) => return Expected::NotAnObject,
        Err(e) => return Expected::NotJson(e),
    };
    match serde_json::from_value::<A>(value) {
        Ok(args) => Expected::Decoded(args),
        Err(e) => Expected::DoesNotFit(e),
    }
}

/// serde's message as the crate echoes it to the model: each value it
/// quotes (between `"`, where a backslash escapes the next character, or
/// between backticks) cut to its first 64 characters and `…`, then the
/// whole cut to 512 characters and `…`, so that a message never grows with
/// its input.
fn clipped(message: &str) -> String {
    fn cut(text: &str, keep: usize) -> String {
        match text.char_indices().nth(keep) {
            Some((at, _)) => format!("{}…", &text[..at]),
            None => text.to_owned(),
        }
    }
    let mut out = String::new();
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '"' && c != '`' {
            continue;
        }
        let mut value = String::new();
        let mut escaped = false;
        let mut closed = false;
        for inner in chars.by_ref() {
            if inner == c && !escaped {
                closed = true;
                break;
            }
            escaped = c == '"' && inner == '\\' && !escaped;
            value.push(inner);
        }
        out.push_str(&cut(&value, 64));
        if closed {
            out.push(c);
        }
    }
    cut(&out, 512)
}

/// The output of the error result with `message` for the tool `tool`: the
/// message and the suggestion the docs give, in that order.
fn error_output(message: &str, tool: &str) -> String {
    let suggestion = format!("call `{tool}` again with arguments that match its input schema");
    format!(
        r#"{{"error":{{"message":{},"suggestion":{}}}}}"#,
        serde_json::to_string(message).expect("a string serialises"),
        serde_json::to_string(&suggestion).expect("a string serialises"),
    )
}

fn check_tool<A>(tool: &dyn Tool, text: &str)
where
    A: serde::de::DeserializeOwned + Serialize,
{
    let lowered = providers::call_text(tool, text);
    let result = &lowered.result;
    match expected::<A>(text) {
        Expected::Decoded(args) => {
            assert!(
                !result.is_error,
                "{text:?} decoded but failed: {}",
                result.output
            );
            let json = serde_json::to_string(&args).expect("decoded args serialise");
            assert_eq!(result.output, json);
            assert!(lowered.diagnostics.source().is_none());
        }
        failed => {
            assert!(result.is_error, "{text:?} did not decode but succeeded");
            assert_eq!(lowered.diagnostics.is_transient(), Some(false));
            let source = lowered
                .diagnostics
                .source()
                .expect("a bad call keeps its source");
            let invalid = source
                .downcast_ref::<InvalidArguments>()
                .unwrap_or_else(|| panic!("the source is InvalidArguments: {source:?}"));
            let message = invalid.message();
            assert!(message.starts_with("invalid arguments"), "{message}");
            match failed {
                Expected::Decoded(_) => unreachable!(),
                Expected::NotJson(e) => {
                    assert_eq!(invalid.path(), None);
                    assert_eq!(
                        message,
                        format!(
                            "invalid arguments: the arguments are not JSON: {}",
                            clipped(&e.to_string())
                        )
                    );
                }
                Expected::NotAnObject => {
                    assert_eq!(invalid.path(), None);
                    assert!(
                        message.starts_with("invalid arguments: invalid type: ")
                            && message.ends_with(", expected a JSON object"),
                        "{message}"
                    );
                }
                Expected::DoesNotFit(e) => {
                    let e = clipped(&e.to_string());
                    let at = match invalid.path() {
                        Some(path) => format!("invalid arguments at `{path}`: {e}"),
                        None => format!("invalid arguments: {e}"),
                    };
                    assert_eq!(message, at);
                }
            }
            assert_eq!(result.output, error_output(&message, tool.name()));
        }
    }
    assert!(result.parts.is_empty() && result.metadata.is_none());

    // The other ways in give the same answer.
    if let Ok(args) = parse(text) {
        assert_eq!(&providers::call_value(tool, args.clone()).result, result);
        if let Some(blocking) = providers::call_blocking(tool, args) {
            assert_eq!(&blocking.result, result);
        }
    }

    // A text-only result comes back from MCP as it was.
    let json = providers::mcp_render(result, None);
    assert_eq!(
        &providers::mcp_read(&json).expect("our MCP JSON reads back"),
        result
    );
}

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    check_tool::<Trip>(TRIP.as_ref(), &text);
    check_tool::<Loose>(LOOSE.as_ref(), &text);
}
