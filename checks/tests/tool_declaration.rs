//! Each provider's function declaration, byte for byte, and against the
//! examples in each provider's documentation.
#![allow(dead_code)] // the argument types are only declared, never read

#[path = "../../tests/support/mod.rs"]
mod support;
use support::call;

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolresult::canonical;
use toolresult::provider::{
    Anthropic, CallRef, Gemini, Mcp, OpenAiChat, OpenAiResponses, PartPolicy, Provider,
};
use toolresult::tool::{self, Tool};
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
    .unwrap()
}

/// The input schema of `weather()`, written out by hand: schemars puts
/// `description`, `type`, `format`, `properties` first, then the rest in
/// alphabetical order; property names are alphabetical.
const INPUT: &str = concat!(
    r#"{"type":"object","properties":{"#,
    r#""at":{"type":["object","null"],"properties":{"lat":{"type":"number","format":"double"},"lon":{"type":"number","format":"double"}},"required":["lat","lon"]},"#,
    r#""city":{"description":"The city, in English.","type":"string"},"#,
    r#""days":{"type":["integer","null"],"format":"uint8","maximum":255,"minimum":0},"#,
    r#""units":{"type":["string","null"],"enum":["celsius","fahrenheit",null]}"#,
    r#"},"required":["city"]}"#
);

fn text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap()
}

fn value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap()
}

#[test]
fn openai_chat() {
    assert_eq!(
        text(&OpenAiChat::declare(&weather())),
        format!(
            r#"{{"type":"function","function":{{"name":"get_weather","description":"Current weather for a city","parameters":{INPUT}}}}}"#
        )
    );
    assert!(
        value(&OpenAiChat::declare(&weather()))["function"]
            .get("strict")
            .is_none()
    );
}

#[test]
fn openai_responses() {
    let t = weather();
    let declared = OpenAiResponses::declare(&t);
    assert_eq!(value(&declared)["strict"], false);
    assert_eq!(
        text(&declared),
        format!(
            r#"{{"type":"function","name":"get_weather","description":"Current weather for a city","parameters":{INPUT},"strict":false}}"#
        )
    );
}

#[test]
fn anthropic() {
    assert_eq!(
        text(&Anthropic::declare(&weather())),
        format!(
            r#"{{"name":"get_weather","description":"Current weather for a city","input_schema":{INPUT}}}"#
        )
    );
}

#[test]
fn gemini() {
    let expected = concat!(
        r#"{"name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"#,
        r#""at":{"type":"object","properties":{"lat":{"type":"number","format":"double"},"lon":{"type":"number","format":"double"}},"nullable":true,"required":["lat","lon"]},"#,
        r#""city":{"description":"The city, in English.","type":"string"},"#,
        r#""days":{"type":"integer","maximum":255,"minimum":0,"nullable":true},"#,
        r#""units":{"type":"string","enum":["celsius","fahrenheit"],"nullable":true}"#,
        r#"},"required":["city"]}}"#
    );
    assert_eq!(text(&Gemini::declare(&weather())), expected);
    let tools: Vec<Box<dyn Tool>> = vec![Box::new(weather())];
    assert_eq!(
        text(&Gemini::declare_tools(&tools)),
        format!(r#"{{"functionDeclarations":[{expected}]}}"#)
    );
}

#[test]
fn mcp_with_an_object_output() {
    let t = weather();
    let declared = Mcp::declare(&t);
    assert_eq!(
        text(&declared),
        format!(
            r#"{{"name":"get_weather","description":"Current weather for a city","inputSchema":{INPUT},"outputSchema":{{"type":"object","properties":{{"celsius":{{"type":"number","format":"float"}}}},"required":["celsius"]}},"annotations":{{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false}}}}"#
        )
    );
    assert_eq!(declared.name(), "get_weather");
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
    )
    .unwrap();
    assert_eq!(
        text(&Mcp::declare(&count)),
        r#"{"name":"count","description":"Count to n","inputSchema":{"type":"object","properties":{"n":{"type":"integer","format":"uint32","minimum":0}},"required":["n"]},"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false}}"#
    );
    // A success that is a number, a string or free canonical text has none either.
    let maybe = tool::function(
        "maybe",
        "Maybe",
        |_: Args| -> Result<Option<Weather>, Failure> { Ok(None) },
    )
    .unwrap();
    let raw = tool::function("raw", "Raw", |_: Args| canonical::ToolResult::ok("text")).unwrap();
    for t in [&maybe as &dyn Tool, &raw] {
        assert!(Mcp::declare(t).output_schema().is_none(), "{}", t.name());
        assert!(!text(&Mcp::declare(t)).contains("outputSchema"));
    }
}

// The examples in each provider's documentation, as written there. Our
// bytes order a schema's keys the schemars way, so these compare as JSON
// values; the tests above check the bytes.

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct LocationArgs {
    /// City and country e.g. Bogotá, Colombia
    location: String,
}

fn openai_example_tool() -> impl Tool {
    tool::function(
        "get_weather",
        "Get current temperature for a given location.",
        |a: LocationArgs| a.location,
    )
    .unwrap()
}

#[test]
fn the_openai_chat_documentation_example() {
    // platform.openai.com, function calling guide (Chat Completions).
    let documented: Value = serde_json::from_str(
        r#"{
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Get current temperature for a given location.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "location": {
                            "type": "string",
                            "description": "City and country e.g. Bogotá, Colombia"
                        }
                    },
                    "required": ["location"],
                    "additionalProperties": false
                },
                "strict": true
            }
        }"#,
    )
    .unwrap();
    let t = openai_example_tool();
    let declared = OpenAiChat::declare(&t);
    assert_eq!(value(&declared), documented);
    assert!(text(&declared).starts_with(
        r#"{"type":"function","function":{"name":"get_weather","description":"Get current temperature for a given location.","parameters":{"#
    ));
    assert!(text(&declared).ends_with(r#"},"strict":true}}"#));
}

#[test]
fn the_openai_responses_documentation_example() {
    // platform.openai.com, function calling guide (Responses).
    let documented: Value = serde_json::from_str(
        r#"{
            "type": "function",
            "name": "get_weather",
            "description": "Get current temperature for a given location.",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {
                        "type": "string",
                        "description": "City and country e.g. Bogotá, Colombia"
                    }
                },
                "required": ["location"],
                "additionalProperties": false
            },
            "strict": true
        }"#,
    )
    .unwrap();
    let t = openai_example_tool();
    let declared = OpenAiResponses::declare(&t);
    assert_eq!(value(&declared), documented);
    assert!(text(&declared).starts_with(
        r#"{"type":"function","name":"get_weather","description":"Get current temperature for a given location.","parameters":{"#
    ));
    assert!(text(&declared).ends_with(r#"},"strict":true}"#));
}

#[test]
fn the_anthropic_documentation_example() {
    // docs.anthropic.com, tool use: "get_weather".
    #[derive(Deserialize, JsonSchema)]
    struct Args {
        /// The city and state, e.g. San Francisco, CA
        location: String,
    }
    let t = tool::function(
        "get_weather",
        "Get the current weather in a given location",
        |a: Args| a.location,
    )
    .unwrap();
    let documented: Value = serde_json::from_str(
        r#"{
            "name": "get_weather",
            "description": "Get the current weather in a given location",
            "input_schema": {
                "type": "object",
                "properties": {
                    "location": {
                        "type": "string",
                        "description": "The city and state, e.g. San Francisco, CA"
                    }
                },
                "required": ["location"]
            }
        }"#,
    )
    .unwrap();
    let declared = Anthropic::declare(&t);
    assert_eq!(value(&declared), documented);
    assert!(text(&declared).starts_with(
        r#"{"name":"get_weather","description":"Get the current weather in a given location","input_schema":{"#
    ));
}

#[test]
fn the_gemini_documentation_example() {
    // ai.google.dev, function calling: "get_current_temperature".
    #[derive(Deserialize, JsonSchema)]
    struct Args {
        /// The city name, e.g. San Francisco
        location: String,
    }
    let t = tool::function(
        "get_current_temperature",
        "Gets the current temperature for a given location.",
        |a: Args| a.location,
    )
    .unwrap();
    let documented: Value = serde_json::from_str(
        r#"{
            "name": "get_current_temperature",
            "description": "Gets the current temperature for a given location.",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {
                        "type": "string",
                        "description": "The city name, e.g. San Francisco"
                    }
                },
                "required": ["location"]
            }
        }"#,
    )
    .unwrap();
    let declared = Gemini::declare(&t);
    assert_eq!(value(&declared), documented);
    assert!(text(&declared).starts_with(
        r#"{"name":"get_current_temperature","description":"Gets the current temperature for a given location.","parameters":{"#
    ));
}

#[derive(Deserialize, JsonSchema)]
struct WeatherDataArgs {
    /// City name or zip code
    location: String,
}

#[derive(Serialize, JsonSchema)]
struct WeatherData {
    /// Temperature in celsius
    temperature: serde_json::Number,
    /// Weather conditions description
    conditions: String,
    /// Humidity percentage
    humidity: serde_json::Number,
}

fn weather_data() -> impl Tool {
    tool::function(
        "get_weather_data",
        "Get current weather data for a location",
        |_: WeatherDataArgs| {
            ToolResult::<_>::ok(WeatherData {
                temperature: serde_json::Number::from_f64(22.5).unwrap(),
                conditions: "Partly cloudy".to_owned(),
                humidity: 65.into(),
            })
        },
    )
    .unwrap()
}

#[test]
fn the_mcp_documentation_example() {
    // modelcontextprotocol.io, specification 2025-06-18, server/tools,
    // "Output Schema" (less its `title`, which this crate does not declare).
    let documented: Value = serde_json::from_str(
        r#"{
            "name": "get_weather_data",
            "description": "Get current weather data for a location",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "location": {
                        "type": "string",
                        "description": "City name or zip code"
                    }
                },
                "required": ["location"]
            },
            "outputSchema": {
                "type": "object",
                "properties": {
                    "temperature": {"type": "number", "description": "Temperature in celsius"},
                    "conditions": {"type": "string", "description": "Weather conditions description"},
                    "humidity": {"type": "number", "description": "Humidity percentage"}
                },
                "required": ["temperature", "conditions", "humidity"]
            }
        }"#,
    )
    .unwrap();
    let t = weather_data();
    let declared = Mcp::declare(&t);
    // This crate always writes `annotations` (the page's example has none):
    // a tool that says nothing of its safety is MCP's default, destructive.
    let mut declared_value = value(&declared);
    let annotations = declared_value
        .as_object_mut()
        .unwrap()
        .remove("annotations");
    assert_eq!(
        annotations,
        Some(json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false}))
    );
    assert_eq!(declared_value, documented);

    // The call result the same page shows, through `provider::mcp`.
    let lowered = call(&t, json!({"location": "New York"}));
    let structured = lowered.structured_content();
    assert_eq!(
        structured.map(|raw| raw.get()),
        Some(r#"{"temperature":22.5,"conditions":"Partly cloudy","humidity":65}"#)
    );
    let answer = (CallRef::new("1", "tool"), &lowered);
    let answer = Mcp::render(&answer, PartPolicy::Strict).unwrap();
    assert_eq!(
        text(&answer),
        r#"{"content":[{"type":"text","text":"{\"temperature\":22.5,\"conditions\":\"Partly cloudy\",\"humidity\":65}"}],"structuredContent":{"temperature":22.5,"conditions":"Partly cloudy","humidity":65},"isError":false}"#
    );
    let output_schema = declared.output_schema().unwrap().as_value();
    let validator = jsonschema::draft202012::new(output_schema).unwrap();
    assert!(validator.is_valid(&value(&answer)["structuredContent"]));

    // A failure has no structured content.
    let failed = call(&t, json!({}));
    assert!(failed.result.is_error);
    assert!(failed.structured_content().is_none());
}

#[test]
fn the_mcp_declaration_reads_as_an_rmcp_tool() {
    for t in [&weather_data() as &dyn Tool, &weather()] {
        let declared = Mcp::declare(t);
        let read: rmcp::model::Tool = serde_json::from_str(&text(&declared)).unwrap();
        let converted = rmcp::model::Tool::try_from(declared.clone()).unwrap();
        assert_eq!(read, converted);
        assert_eq!(read.name, t.name());
        assert_eq!(read.description.as_deref(), Some(t.description()));
        assert!(read.output_schema.is_some());
        // rmcp writes it back as the same JSON.
        assert_eq!(value(&read), value(&declared));
    }
}

// Strict mode.

#[test]
fn strict_only_when_the_schema_already_meets_it() {
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Closed {
        city: String,
        // Property names that are also keywords are still only names.
        format: String,
        #[serde(rename = "default")]
        fallback: Option<String>,
    }
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct ClosedWithNumber {
        city: String,
        days: u32,
    }
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct ClosedWithOpenInner {
        at: Inner,
    }
    #[derive(Deserialize, JsonSchema)]
    struct Inner {
        name: String,
    }
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct ClosedWithDefault {
        #[serde(default)]
        city: String,
    }

    let closed = tool::function("closed", "Closed", |a: Closed| a.city).unwrap();
    // `Option` without `#[serde(default)]` is still optional to serde, so
    // `fallback` is not required and the schema is not strict.
    assert_eq!(value(&OpenAiResponses::declare(&closed))["strict"], false);

    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Keywords {
        format: String,
        #[serde(rename = "default")]
        fallback: String,
        #[serde(rename = "$ref")]
        reference: String,
    }
    let keywords = tool::function("keywords", "Keywords", |a: Keywords| a.format).unwrap();
    assert_eq!(value(&OpenAiResponses::declare(&keywords))["strict"], true);
    assert_eq!(
        text(&OpenAiChat::declare(&keywords)),
        r#"{"type":"function","function":{"name":"keywords","description":"Keywords","parameters":{"type":"object","properties":{"$ref":{"type":"string"},"default":{"type":"string"},"format":{"type":"string"}},"additionalProperties":false,"required":["format","default","$ref"]},"strict":true}}"#
    );

    let numbers = tool::function("numbers", "Numbers", |a: ClosedWithNumber| a.city).unwrap();
    let inner = tool::function("inner", "Inner", |a: ClosedWithOpenInner| a.at.name).unwrap();
    let defaulted =
        tool::function("defaulted", "Defaulted", |a: ClosedWithDefault| a.city).unwrap();
    for t in [&numbers as &dyn Tool, &inner, &defaulted, &weather()] {
        assert_eq!(
            value(&OpenAiResponses::declare(t))["strict"],
            false,
            "{}",
            t.name()
        );
        assert!(
            text(&OpenAiResponses::declare(t)).ends_with(r#","strict":false}"#),
            "{}",
            t.name()
        );
        assert!(!text(&OpenAiChat::declare(t)).contains("strict"));
    }
}

// Gemini's OpenAPI subset.

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
    let t = tool::function("plant", "Plant a tree", |_: Tree| "ok").unwrap();
    let declared = text(&Gemini::declare(&t));
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
    assert!(declared.contains(r#""children":{"type":"array","items":{"type":"object"}}"#));
    // The input schema itself is left alone.
    let input = text(t.input_schema());
    assert!(input.contains("$ref") && input.contains("unevaluatedProperties"));
}

#[test]
fn gemini_without_arguments_has_no_parameters() {
    #[derive(Deserialize, JsonSchema)]
    struct NoArgs {}
    let now = tool::function("now", "The time", |_: NoArgs| "noon").unwrap();
    assert_eq!(
        text(&Gemini::declare(&now)),
        r#"{"name":"now","description":"The time"}"#
    );
    assert!(value(&Gemini::declare(&now)).get("parameters").is_none());
    // The others still say it takes an (empty) object.
    assert_eq!(
        text(&Anthropic::declare(&now)),
        r#"{"name":"now","description":"The time","input_schema":{"type":"object"}}"#
    );
}

#[test]
fn gemini_unions_tuples_and_maps() {
    #[derive(Deserialize, JsonSchema)]
    #[serde(untagged)]
    enum Either {
        Number(u32),
        Text(String),
    }
    #[derive(Deserialize, JsonSchema)]
    struct Mixed {
        pair: (u8, String),
        either: Either,
        tags: HashMap<String, String>,
        maybe: Option<Vec<String>>,
    }
    let t = tool::function("mixed", "Mixed", |_: Mixed| "ok").unwrap();
    assert_eq!(
        text(&Gemini::declare(&t)),
        concat!(
            r#"{"name":"mixed","description":"Mixed","parameters":{"type":"object","properties":{"#,
            r#""either":{"anyOf":[{"type":"integer","minimum":0},{"type":"string"}]},"#,
            r#""maybe":{"type":"array","items":{"type":"string"},"nullable":true},"#,
            r#""pair":{"type":"array","items":{"anyOf":[{"type":"integer","maximum":255,"minimum":0},{"type":"string"}]},"maxItems":2,"minItems":2},"#,
            r#""tags":{"type":"object"}"#,
            r#"},"required":["pair","either","tags"]}}"#
        )
    );
}

#[test]
fn an_enum_of_argument_shapes_is_still_an_object() {
    #[derive(Deserialize, JsonSchema)]
    #[serde(tag = "action", rename_all = "snake_case")]
    enum Act {
        Start { id: u32 },
        Stop,
    }
    let t = tool::function("act", "Start or stop", |_: Act| "ok").unwrap();
    let start = r#"{"type":"object","properties":{"action":{"type":"string","const":"start"},"id":{"type":"integer","format":"uint32","minimum":0}},"required":["action","id"]}"#;
    let stop = r#"{"type":"object","properties":{"action":{"type":"string","const":"stop"}},"required":["action"]}"#;
    assert_eq!(
        text(&Anthropic::declare(&t)),
        format!(
            r#"{{"name":"act","description":"Start or stop","input_schema":{{"type":"object","oneOf":[{start},{stop}]}}}}"#
        )
    );
    assert_eq!(
        text(&Gemini::declare(&t)),
        concat!(
            r#"{"name":"act","description":"Start or stop","parameters":{"type":"object","anyOf":["#,
            r#"{"type":"object","properties":{"action":{"type":"string","enum":["start"]},"id":{"type":"integer","minimum":0}},"required":["action","id"]},"#,
            r#"{"type":"object","properties":{"action":{"type":"string","enum":["stop"]}},"required":["action"]}"#,
            r#"]}}"#
        )
    );
    // And the arguments decode as the enum.
    let lowered = call(&t, json!({"action": "stop"}));
    assert_eq!(lowered.result.output, "ok");
}
