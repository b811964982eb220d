//! Bad arguments become an error result the model can act on, with the
//! exact model-facing text; the serde error stays on the Rust side.

mod support;
use support::{call, call_text};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolresult::ToolResult;
use toolresult::tool::{self, InvalidArguments, Tool};

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
#[serde(rename_all = "snake_case")]
enum Units {
    Celsius,
    Fahrenheit,
}

#[derive(Deserialize, JsonSchema)]
struct WeatherArgs {
    city: String,
    days: Option<u8>,
    #[allow(dead_code)]
    units: Option<Units>,
}

#[derive(Serialize, JsonSchema)]
struct Weather {
    city: String,
    days: u8,
}

fn weather() -> impl Tool {
    tool::function(
        "get_weather",
        "Current weather for a city",
        |args: WeatherArgs| {
            ToolResult::<_>::ok(Weather {
                city: args.city,
                days: args.days.unwrap_or(1),
            })
        },
    )
    .unwrap()
}

const SUGGESTION: &str = "call `get_weather` again with arguments that match its input schema";

/// The whole canonical result, as it goes on the wire.
fn expected(output: &str) -> String {
    format!(r#"{{"output":{},"isError":true}}"#, Value::from(output))
}

fn assert_bad(args: Value, output: &str, message: &str, path: Option<&str>) {
    let lowered = call(&weather(), args);
    assert_eq!(lowered.result.output, output);
    assert!(lowered.result.is_error);
    assert_eq!(
        serde_json::to_string(&lowered.result).unwrap(),
        expected(output)
    );
    assert_eq!(
        output,
        json!({"error": {"message": message, "suggestion": SUGGESTION}}).to_string()
    );
    let d = &lowered.diagnostics;
    assert!(d.source().is_some());
    assert_eq!(d.is_transient(), Some(false));
    assert_eq!(d.source_type_name(), Some("InvalidArguments"));
    let source = d.source().unwrap();
    let invalid = source.downcast_ref::<InvalidArguments>().unwrap();
    assert_eq!(invalid.path(), path);
    assert_eq!(invalid.message(), message);
    let serde_error = source
        .chain()
        .find_map(|e| e.downcast_ref::<serde_json::Error>())
        .unwrap();
    let own_source = std::error::Error::source(invalid)
        .and_then(|e| e.downcast_ref::<serde_json::Error>())
        .unwrap();
    assert_eq!(serde_error.to_string(), own_source.to_string());
    // The model reads serde's own words, after where they apply.
    assert!(message.ends_with(&serde_error.to_string()), "{message}");
}

#[test]
fn missing_field() {
    assert_bad(
        json!({"days": 2}),
        r#"{"error":{"message":"invalid arguments: missing field `city`","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#,
        "invalid arguments: missing field `city`",
        None,
    );
}

#[test]
fn wrong_type() {
    assert_bad(
        json!({"city": "Oslo", "days": "x"}),
        r#"{"error":{"message":"invalid arguments at `days`: invalid type: string \"x\", expected u8","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#,
        r#"invalid arguments at `days`: invalid type: string "x", expected u8"#,
        Some("days"),
    );
}

#[test]
fn out_of_range() {
    assert_bad(
        json!({"city": "Oslo", "days": 300}),
        r#"{"error":{"message":"invalid arguments at `days`: invalid value: integer `300`, expected u8","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#,
        "invalid arguments at `days`: invalid value: integer `300`, expected u8",
        Some("days"),
    );
}

#[test]
fn unknown_enum_variant() {
    assert_bad(
        json!({"city": "Oslo", "units": "kelvin"}),
        r#"{"error":{"message":"invalid arguments at `units`: unknown variant `kelvin`, expected `celsius` or `fahrenheit`","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#,
        "invalid arguments at `units`: unknown variant `kelvin`, expected `celsius` or `fahrenheit`",
        Some("units"),
    );
}

#[test]
fn not_an_object() {
    assert_bad(
        json!(["Oslo"]),
        r#"{"error":{"message":"invalid arguments: invalid type: sequence, expected a JSON object","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#,
        "invalid arguments: invalid type: sequence, expected a JSON object",
        None,
    );
    assert_bad(
        json!("Oslo"),
        r#"{"error":{"message":"invalid arguments: invalid type: string \"Oslo\", expected a JSON object","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#,
        r#"invalid arguments: invalid type: string "Oslo", expected a JSON object"#,
        None,
    );
    assert_bad(
        json!(3),
        r#"{"error":{"message":"invalid arguments: invalid type: integer `3`, expected a JSON object","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#,
        "invalid arguments: invalid type: integer `3`, expected a JSON object",
        None,
    );
}

#[test]
fn nested_paths() {
    #[derive(Deserialize, JsonSchema)]
    struct Stop {
        #[allow(dead_code)]
        city: String,
    }
    #[derive(Deserialize, JsonSchema)]
    struct Route {
        stops: Vec<Stop>,
    }
    let route = tool::function("route", "Plan a route", |r: Route| {
        r.stops.len().to_string()
    })
    .unwrap();
    let lowered = call(
        &route,
        json!({"stops": [{"city": "Oslo"}, {"town": "Bergen"}]}),
    );
    assert_eq!(
        lowered.result.output,
        r#"{"error":{"message":"invalid arguments at `stops[1]`: missing field `city`","suggestion":"call `route` again with arguments that match its input schema"}}"#
    );
}

#[test]
fn null_or_missing_args_read_as_an_empty_object() {
    #[derive(Deserialize, JsonSchema)]
    struct Optional {
        limit: Option<u32>,
        #[serde(default)]
        verbose: bool,
    }
    let list = tool::function("list", "List things", |a: Optional| {
        ToolResult::<_>::ok(json!({"limit": a.limit, "verbose": a.verbose}))
    })
    .unwrap();
    for args in [Value::Null, json!({})] {
        let lowered = call(&list, args);
        assert_eq!(
            serde_json::to_string(&lowered.result).unwrap(),
            r#"{"output":"{\"limit\":null,\"verbose\":false}","isError":false}"#
        );
        assert!(!lowered.result.is_error);
        assert!(lowered.diagnostics.source().is_none());
    }
    // A tool that needs arguments still says which, when called with none.
    let lowered = call(&weather(), Value::Null);
    assert_eq!(
        lowered.result.output,
        r#"{"error":{"message":"invalid arguments: missing field `city`","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#
    );
}

#[test]
fn good_arguments_reach_the_body() {
    let lowered = call(
        &weather(),
        json!({"city": "Oslo", "days": 3, "units": "celsius"}),
    );
    assert_eq!(
        serde_json::to_string(&lowered.result).unwrap(),
        r#"{"output":"{\"city\":\"Oslo\",\"days\":3}","isError":false}"#
    );
}

#[test]
fn null_for_a_required_field() {
    assert_bad(
        json!({"city": null}),
        r#"{"error":{"message":"invalid arguments at `city`: invalid type: null, expected a string","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#,
        "invalid arguments at `city`: invalid type: null, expected a string",
        Some("city"),
    );
}

#[test]
fn unknown_field_when_the_arguments_are_closed() {
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Closed {
        city: String,
    }
    let closed = tool::function("closed", "Closed", |a: Closed| a.city).unwrap();
    let lowered = call(&closed, json!({"city": "Oslo", "town": "Oslo"}));
    assert_eq!(
        lowered.result.output,
        r#"{"error":{"message":"invalid arguments at `town`: unknown field `town`, expected `city`","suggestion":"call `closed` again with arguments that match its input schema"}}"#
    );
    assert!(lowered.result.is_error);
}

#[test]
fn a_boolean_is_not_an_object() {
    assert_bad(
        json!(true),
        r#"{"error":{"message":"invalid arguments: invalid type: boolean `true`, expected a JSON object","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#,
        "invalid arguments: invalid type: boolean `true`, expected a JSON object",
        None,
    );
}

#[test]
fn arguments_as_json_text() {
    let t = weather();
    let run = |text: &str| call_text(&t, text);

    let lowered = run(r#"{"city": "Oslo", "days": 2}"#);
    assert_eq!(lowered.result.output, r#"{"city":"Oslo","days":2}"#);
    assert!(!lowered.result.is_error);

    // Blank text is no arguments: `{}`.
    assert_eq!(
        run("  ").result.output,
        r#"{"error":{"message":"invalid arguments: missing field `city`","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#
    );

    // Text that is not JSON: an error result, never a panic, and the body
    // does not run.
    let lowered = run(r#"{"city": "Oslo""#);
    assert_eq!(
        lowered.result.output,
        r#"{"error":{"message":"invalid arguments: the arguments are not JSON: EOF while parsing an object at line 1 column 15","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#
    );
    assert!(lowered.result.is_error);
    let d = &lowered.diagnostics;
    assert_eq!(d.is_transient(), Some(false));
    let invalid = d
        .source()
        .unwrap()
        .downcast_ref::<InvalidArguments>()
        .unwrap();
    assert_eq!(invalid.path(), None);
    let serde_error = std::error::Error::source(invalid)
        .and_then(|e| e.downcast_ref::<serde_json::Error>())
        .unwrap();
    assert!(serde_error.is_eof());
}

#[test]
fn async_tools_report_bad_arguments_the_same_way() {
    let lookup = tool::function("lookup", "Look a key up", |a: WeatherArgs| async move {
        ToolResult::<_>::ok(a.city)
    })
    .unwrap();
    let lowered = call(&lookup, json!({"city": 1}));
    assert_eq!(
        lowered.result.output,
        r#"{"error":{"message":"invalid arguments at `city`: invalid type: integer `1`, expected a string","suggestion":"call `lookup` again with arguments that match its input schema"}}"#
    );
    let lowered = call_text(&lookup, "[]");
    assert_eq!(
        lowered.result.output,
        r#"{"error":{"message":"invalid arguments: invalid type: sequence, expected a JSON object","suggestion":"call `lookup` again with arguments that match its input schema"}}"#
    );
}
