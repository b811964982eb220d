//! A typed tool's arguments from arbitrary bytes: the text goes to
//! `Tool::call_json` as a provider's `arguments` string would. Nothing
//! panics; arguments that decode into `Args` run the body and give its JSON;
//! anything else (not JSON, not an object, a missing field, a wrong type, an
//! unknown field or variant, a number out of range) is an error result the
//! model can act on, `{"error": {"message": "invalid arguments...",
//! "suggestion": ...}}`, never transient, with `InvalidArguments` as the
//! Rust-side source, and the body is not run. `call` and `call_blocking`
//! agree with `call_json`, and the result survives a trip through MCP.
#![no_main]

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::LazyLock;
use std::task::{Context, Poll, Waker};

use libfuzzer_sys::fuzz_target;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolresult::render::mcp;
use toolresult::tool::{self, InvalidArguments, Tool};
use toolresult::{Lowered, ToolResult};

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
    Box::new(tool::function("plan_trip", "Plan a trip", |trip: Trip| {
        ToolResult::<Trip>::ok(trip)
    }))
});

static LOOSE: LazyLock<Box<dyn Tool>> = LazyLock::new(|| {
    Box::new(tool::async_function(
        "search",
        "Search",
        |args: Loose| async move { ToolResult::<Loose>::ok(args) },
    ))
});

/// A tool's future is ready at its first poll (the body is synchronous here).
fn ready(future: impl Future<Output = Lowered>) -> Lowered {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(lowered) => lowered,
        Poll::Pending => panic!("a tool with a synchronous body is ready at once"),
    }
}

/// The output of the error result for `invalid`, as lowering writes it.
fn error_output(invalid: &InvalidArguments, tool: &str) -> String {
    let error =
        serde_json::to_string(&invalid.to_tool_error(tool)).expect("a ToolError serialises");
    format!(r#"{{"error":{error}}}"#)
}

fn check<A>(tool: &dyn Tool, text: &str)
where
    A: serde::de::DeserializeOwned + Serialize,
{
    let lowered = ready(tool.call_json(text));
    let result = &lowered.result;
    let expected = InvalidArguments::parse(text).and_then(InvalidArguments::decode::<A>);
    match expected {
        Ok(args) => {
            assert!(
                !result.is_error,
                "{text:?} decoded but failed: {}",
                result.output
            );
            let json = serde_json::to_string(&args).expect("decoded args serialise");
            assert_eq!(result.output, json);
            assert!(lowered.diagnostics.source().is_none());
        }
        Err(invalid) => {
            assert!(result.is_error, "{text:?} did not decode but succeeded");
            assert!(invalid.message().starts_with("invalid arguments"));
            assert_eq!(result.output, error_output(&invalid, tool.name()));
            assert_eq!(lowered.diagnostics.is_transient(), Some(false));
            let source = lowered
                .diagnostics
                .source()
                .expect("a bad call keeps its source");
            assert!(source.is::<InvalidArguments>(), "{source:?}");
        }
    }
    assert!(result.parts.is_empty() && result.metadata.is_none());

    // The other ways in give the same answer.
    if let Ok(args) = InvalidArguments::parse(text) {
        assert_eq!(&ready(tool.call(args.clone())).result, result);
        if let Some(blocking) = tool.call_blocking(args) {
            assert_eq!(&blocking.result, result);
        }
    }

    // A text-only result comes back from MCP as it was.
    let json = serde_json::to_value(mcp::render(result, None)).expect("MCP JSON serialises");
    assert_eq!(
        &mcp::from_value(&json).expect("our MCP JSON reads back"),
        result
    );
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check::<Trip>(TRIP.as_ref(), &text);
    check::<Loose>(LOOSE.as_ref(), &text);
});
