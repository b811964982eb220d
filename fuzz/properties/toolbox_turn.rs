//! A toolbox turn of fuzzed calls against a fixed set of tools, run on a
//! current-thread tokio runtime with paused time:
//!
//! - every call is answered once, in call order, under its own id (and
//!   name and arguments), and so is each answer in every provider's reply;
//! - a name the toolbox does not hold is an error result naming it, with
//!   no attempt made (`UnknownTool` as the Rust-side source, with the name
//!   as shown to the model: cut to 64 characters, escaped);
//! - `add` with arguments that decode (worked out with serde_json alone)
//!   answers their sum; `fail` always fails; `slow` never finishes within
//!   its timeout and is answered with a timed-out error; `echo` (async)
//!   answers its `text` argument as it is (empty without one).
//!
//! The input is one call a line, at most [`MAX_CALLS`]: the id, a tab, the
//! name, a tab, the arguments text (lossy UTF-8). A line with no tab is a
//! call with that name, no id and no arguments (`{}` as JSON); with one
//! tab, the id and name and no arguments.

use std::sync::LazyLock;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use toolresult::provider::{Call, PartPolicy};
use toolresult::tool;
use toolresult::tool::Arguments;
use toolresult::toolbox::{TimedOut, Toolbox, UnknownTool};
use toolresult::{ToolError, ToolResult};

use super::providers::{self, Style};

/// The most calls a turn takes from one input.
pub const MAX_CALLS: usize = 32;

#[derive(Debug, Deserialize, JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Echo {
    text: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Nothing {}

static TOOLBOX: LazyLock<Toolbox> = LazyLock::new(|| {
    let mut toolbox = Toolbox::new().concurrency(4);
    let add = tool::function("add", "Add two integers", |args: Add| {
        ToolResult::<i64>::ok(args.a.wrapping_add(args.b))
    });
    let echo = tool::function("echo", "Echo text", |args: Echo| async move {
        ToolResult::<String>::ok(args.text.unwrap_or_default())
    });
    let fail = tool::function("fail", "Always fails", |_: Nothing| {
        ToolResult::<()>::fail(ToolError::new("it always fails"))
    });
    let slow = tool::function("slow", "Never finishes in time", |_: Nothing| async {
        tokio::time::sleep(Duration::from_secs(3600)).await;
        ToolResult::<()>::ok(())
    });
    let registered = add
        .map_err(|e| e.to_string())
        .and_then(|add| toolbox.register(add).map(|_| ()).map_err(|e| e.to_string()))
        .and_then(|()| echo.map_err(|e| e.to_string()))
        .and_then(|echo| {
            toolbox
                .register(echo)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .and_then(|()| fail.map_err(|e| e.to_string()))
        .and_then(|fail| {
            toolbox
                .register(fail)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .and_then(|()| slow.map_err(|e| e.to_string()))
        .and_then(|slow| {
            toolbox
                .register(slow)
                .map(|options| {
                    options.timeout(Duration::from_secs(1));
                })
                .map_err(|e| e.to_string())
        });
    if let Err(e) = registered {
        panic!("the fixed tools register: {e}");
    }
    toolbox
});

/// The calls an input makes.
fn calls(data: &[u8]) -> Vec<Call> {
    let text = String::from_utf8_lossy(data);
    text.split('\n')
        .take(MAX_CALLS)
        .map(|line| {
            let mut fields = line.splitn(3, '\t');
            let (id, name, args) = match (fields.next(), fields.next(), fields.next()) {
                (Some(name), None, _) => ("", name, None),
                (Some(id), Some(name), args) => (id, name, args),
                (None, _, _) => ("", "", None),
            };
            let arguments = match args {
                Some(args) => Arguments::Text(args.to_owned()),
                None => Arguments::Json(Value::Object(serde_json::Map::new())),
            };
            Call::new(id, name, arguments)
        })
        .collect()
}

/// The arguments decoded, by serde_json alone: `None` when they do not
/// decode (or may not: text that is not an object is left to the tool's
/// own rule).
fn decoded<T: serde::de::DeserializeOwned>(arguments: &Arguments) -> Option<T> {
    match arguments {
        Arguments::Text(text) if text.trim_start().starts_with('{') => {
            serde_json::from_str(text).ok()
        }
        Arguments::Json(value) => serde_json::from_value(value.clone()).ok(),
        _ => None,
    }
}

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    let calls = calls(data);
    let outcomes = providers::run_turn(&TOOLBOX, calls.clone());
    assert_eq!(outcomes.len(), calls.len(), "one answer per call");
    for (call, outcome) in calls.iter().zip(&outcomes) {
        assert_eq!(&outcome.call, call, "answered in order, under its id");
        let result = &outcome.lowered.result;
        let source = outcome.lowered.diagnostics.source();
        match call.name.as_str() {
            "add" => {
                assert!(outcome.attempts >= 1);
                if let Some(add) = decoded::<Add>(&call.arguments) {
                    assert!(!result.is_error, "{call:?}: {}", result.output);
                    assert_eq!(result.output, add.a.wrapping_add(add.b).to_string());
                }
            }
            "echo" => {
                assert!(outcome.attempts >= 1);
                if let Some(echo) = decoded::<Echo>(&call.arguments) {
                    assert!(!result.is_error, "{call:?}: {}", result.output);
                    assert_eq!(result.output, echo.text.unwrap_or_default());
                }
            }
            "fail" => {
                assert!(result.is_error, "{call:?}: {}", result.output);
                assert!(outcome.attempts >= 1);
            }
            "slow" => {
                assert!(result.is_error, "{call:?}: {}", result.output);
                assert!(outcome.attempts >= 1);
                if decoded::<Nothing>(&call.arguments).is_some() {
                    let timed_out = source
                        .and_then(|s| s.downcast_ref::<TimedOut>())
                        .unwrap_or_else(|| panic!("{call:?}: TimedOut is the source"));
                    assert_eq!(timed_out.tool(), "slow");
                    assert_eq!(timed_out.after(), Duration::from_secs(1));
                }
            }
            name => {
                assert!(result.is_error, "{call:?}: {}", result.output);
                assert_eq!(outcome.attempts, 0, "{call:?}");
                let unknown = source
                    .and_then(|s| s.downcast_ref::<UnknownTool>())
                    .unwrap_or_else(|| panic!("{call:?}: UnknownTool is the source"));
                // As shown to the model: its first 64 characters, then
                // `…` when there were more, escaped as Rust's
                // `escape_debug` escapes them.
                let mut shown: String = name.chars().take(64).collect();
                if name.chars().nth(64).is_some() {
                    shown.push('…');
                }
                let shown: String = shown.escape_debug().collect();
                assert_eq!(unknown.name(), shown);
            }
        }
    }

    // Every provider's reply answers the calls in order, under their ids.
    let ids: Vec<&str> = calls.iter().map(|call| call.id.as_str()).collect();
    let chat = providers::reply(Style::OpenaiChat, &outcomes, PartPolicy::Placeholder);
    let replied: Vec<&str> = chat
        .as_array()
        .map(|messages| {
            messages
                .iter()
                .filter_map(|m| m.get("tool_call_id").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(replied, ids, "chat reply {chat}");
    let responses = providers::reply(Style::OpenaiResponses, &outcomes, PartPolicy::Placeholder);
    let replied: Vec<&str> = responses
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i.get("call_id").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(replied, ids, "responses reply {responses}");
    let anthropic = providers::reply(Style::Anthropic, &outcomes, PartPolicy::Placeholder);
    let replied: Vec<&str> = anthropic["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b.get("tool_use_id").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(replied, ids, "anthropic reply {anthropic}");
    let gemini = providers::reply(Style::Gemini, &outcomes, PartPolicy::Placeholder);
    let replied: Vec<(&str, &str)> = gemini["parts"]
        .as_array()
        .map(|parts| {
            parts
                .iter()
                .map(|p| {
                    let r = &p["functionResponse"];
                    (
                        r.get("id").and_then(Value::as_str).unwrap_or_default(),
                        r["name"].as_str().unwrap_or("<no name>"),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let expected: Vec<(&str, &str)> = calls
        .iter()
        .map(|call| (call.id.as_str(), call.name.as_str()))
        .collect();
    assert_eq!(replied, expected, "gemini reply {gemini}");
    let mcp = providers::reply(Style::Mcp, &outcomes, PartPolicy::Placeholder);
    assert_eq!(
        mcp.as_array().map(Vec::len),
        Some(calls.len()),
        "mcp reply {mcp}"
    );
}
