//! Each provider's function declaration, byte for byte.
#![allow(dead_code)] // the argument types are only declared, never read

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolresult::tool::{self, Tool, declaration};
use toolresult::{Failure, ToolResult};

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Units {
    Celsius,
    Fahrenheit,
}

#[derive(Deserialize, JsonSchema)]
struct Point {
    lat: f64,
    lon: f64,
}

#[derive(Deserialize, JsonSchema)]
struct WeatherArgs {
    /// The city, in English.
    city: String,
    days: Option<u8>,
    units: Option<Units>,
    at: Option<Point>,
}

#[derive(Serialize, JsonSchema)]
struct Weather {
    celsius: f32,
}

fn weather() -> impl Tool {
    tool::function(
        "get_weather",
        "Current weather for a city",
        |_: WeatherArgs| ToolResult::<_>::ok(Weather { celsius: -3.5 }),
    )
}

const INPUT: &str = r#"{"properties":{"at":{"properties":{"lat":{"format":"double","type":"number"},"lon":{"format":"double","type":"number"}},"required":["lat","lon"],"type":["object","null"]},"city":{"description":"The city, in English.","type":"string"},"days":{"format":"uint8","maximum":255,"minimum":0,"type":["integer","null"]},"units":{"enum":["celsius","fahrenheit",null],"type":["string","null"]}},"required":["city"],"type":"object"}"#;

fn text(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap()
}

#[test]
fn openai_chat() {
    assert_eq!(
        text(&declaration::openai_chat(&weather())),
        format!(
            r#"{{"function":{{"description":"Current weather for a city","name":"get_weather","parameters":{INPUT}}},"type":"function"}}"#
        )
    );
}

#[test]
fn openai_responses() {
    assert_eq!(
        text(&declaration::openai_responses(&weather())),
        format!(
            r#"{{"description":"Current weather for a city","name":"get_weather","parameters":{INPUT},"strict":false,"type":"function"}}"#
        )
    );

    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        city: String,
    }
    let strict = tool::function("echo", "Echo a city", |a: Strict| a.city);
    assert_eq!(
        text(&declaration::openai_responses(&strict)),
        r#"{"description":"Echo a city","name":"echo","parameters":{"additionalProperties":false,"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"},"strict":true,"type":"function"}"#
    );
}

#[test]
fn anthropic() {
    assert_eq!(
        text(&declaration::anthropic(&weather())),
        format!(
            r#"{{"description":"Current weather for a city","input_schema":{INPUT},"name":"get_weather"}}"#
        )
    );
}

#[test]
fn gemini() {
    let expected = r#"{"description":"Current weather for a city","name":"get_weather","parameters":{"properties":{"at":{"nullable":true,"properties":{"lat":{"format":"double","type":"number"},"lon":{"format":"double","type":"number"}},"required":["lat","lon"],"type":"object"},"city":{"description":"The city, in English.","type":"string"},"days":{"maximum":255,"minimum":0,"nullable":true,"type":"integer"},"units":{"enum":["celsius","fahrenheit"],"nullable":true,"type":"string"}},"required":["city"],"type":"object"}}"#;
    assert_eq!(text(&declaration::gemini(&weather())), expected);
    let tools: Vec<Box<dyn Tool>> = vec![Box::new(weather())];
    assert_eq!(
        text(&declaration::gemini_tools(&tools)),
        format!(r#"{{"functionDeclarations":[{expected}]}}"#)
    );
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Tree {
    name: String,
    children: Vec<Tree>,
    #[serde(flatten)]
    shape: Shape,
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Leaf,
    Branch { weight: u64 },
}

#[test]
fn gemini_strips_what_it_refuses() {
    let t = tool::function("plant", "Plant a tree", |_: Tree| "ok");
    let declared = text(&declaration::gemini(&t));
    for refused in [
        "$ref",
        "$defs",
        "$schema",
        "additionalProperties",
        "unevaluatedProperties",
        "oneOf",
        "const",
        "uint64",
    ] {
        assert!(!declared.contains(refused), "{refused} in {declared}");
    }
    // The recursion is inlined a few levels deep, then cut off.
    assert!(declared.contains(r#""children":{"items":{"type":"object"},"type":"array"}"#));
    // The input schema itself is left alone.
    let input = text(t.input_schema().as_value());
    assert!(input.contains("$ref") && input.contains("unevaluatedProperties"));
}

#[test]
fn mcp_with_an_object_output() {
    assert_eq!(
        text(&declaration::mcp(&weather())),
        format!(
            r#"{{"description":"Current weather for a city","inputSchema":{INPUT},"name":"get_weather","outputSchema":{{"properties":{{"celsius":{{"format":"float","type":"number"}}}},"required":["celsius"],"type":"object"}}}}"#
        )
    );
}

#[test]
fn mcp_without_an_object_output() {
    #[derive(Deserialize, JsonSchema)]
    struct Args {
        n: u32,
    }
    let count = tool::function(
        "count",
        "Count to n",
        |a: Args| -> Result<Vec<u32>, Failure> { Ok((1..=a.n).collect()) },
    );
    assert_eq!(
        text(&declaration::mcp(&count)),
        r#"{"description":"Count to n","inputSchema":{"properties":{"n":{"format":"uint32","minimum":0,"type":"integer"}},"required":["n"],"type":"object"},"name":"count"}"#
    );
}
