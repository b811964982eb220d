//! Schemas from the Rust types: draft 2020-12, and they accept what the
//! tool really sends the model.

#[path = "../../tests/support/mod.rs"]
mod support;
use support::call;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolresult::provider::{Mcp, Provider};
use toolresult::tool::{self, Tool};
use toolresult::{Failure, ToolError, ToolResult};

#[derive(Deserialize, JsonSchema)]
struct SearchArgs {
    query: String,
    #[allow(dead_code)]
    limit: Option<u8>,
    kind: Option<Kind>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Page,
    Post,
}

#[derive(Serialize, JsonSchema)]
struct Hit {
    id: u32,
    title: String,
    kind: Kind,
    score: Option<f32>,
}

#[derive(Serialize, JsonSchema)]
struct Hits {
    hits: Vec<Hit>,
}

#[derive(Serialize, JsonSchema)]
#[serde(tag = "code", rename_all = "snake_case")]
enum SearchError {
    RateLimited { retry_in_seconds: u32 },
    Forbidden,
}

fn search() -> impl Tool {
    tool::function("search", "Search the docs", |a: SearchArgs| {
        match a.query.as_str() {
            "quota" => ToolResult::fail(SearchError::RateLimited {
                retry_in_seconds: 30,
            }),
            "secret" => ToolResult::fail(SearchError::Forbidden),
            _ => ToolResult::ok(Hits {
                hits: vec![Hit {
                    id: 1,
                    title: "Getting started".into(),
                    kind: a.kind.unwrap_or(Kind::Page),
                    score: None,
                }],
            }),
        }
    })
    .unwrap()
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::new(schema).unwrap()
}

fn output_json(tool: &dyn Tool, args: Value) -> Value {
    let lowered = call(&tool, args);
    serde_json::from_str(&lowered.result.output).unwrap()
}

fn keys(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                found.push(k.clone());
                keys(v, found);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keys(v, found)),
        _ => {}
    }
}

fn assert_draft_2020_12(schema: &Value) {
    jsonschema::draft202012::meta::validate(schema).unwrap();
    let mut found = Vec::new();
    keys(schema, &mut found);
    assert!(!found.iter().any(|k| k == "nullable"), "{schema}");
    assert!(
        !found.iter().any(|k| k == "$schema" || k == "definitions"),
        "{schema}"
    );
}

#[test]
fn the_input_schema() {
    let t = search();
    let schema = t.input_schema().as_value();
    assert_draft_2020_12(schema);
    assert_eq!(
        schema,
        &json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "limit": {"type": ["integer", "null"], "format": "uint8", "minimum": 0, "maximum": 255},
                "kind": {"type": ["string", "null"], "enum": ["page", "post", null]},
            },
            "required": ["query"],
        })
    );
    let v = validator(schema);
    assert!(v.is_valid(&json!({"query": "x", "limit": 3, "kind": null})));
    assert!(!v.is_valid(&json!({"limit": 3})));
    assert!(!v.is_valid(&json!({"query": "x", "kind": "video"})));
}

#[test]
fn the_output_schema_validates_a_real_success() {
    let t = search();
    let schema = t.output_schema().as_value();
    assert_draft_2020_12(schema);
    // An object success: MCP declares it as the tool's `outputSchema`.
    assert_eq!(Mcp::declare(&t).output_schema(), Some(t.output_schema()));
    let success = output_json(&t, json!({"query": "start", "kind": "post"}));
    assert_eq!(
        success,
        json!({"hits": [{"id": 1, "title": "Getting started", "kind": "post", "score": null}]})
    );
    assert!(validator(schema).is_valid(&success));
}

/// The `ToolError` shape, as the model-facing schema spells it.
fn tool_error_schema() -> Value {
    json!({
        "description": "What went wrong, and optionally what to try instead.",
        "type": "object",
        "properties": {
            "message": {"description": "What went wrong.", "type": "string"},
            "suggestion": {"description": "What the model could try instead.", "type": ["string", "null"]},
        },
        "required": ["message"],
    })
}

#[test]
fn the_model_facing_schema_validates_success_and_failure() {
    let t = search();
    let schema = t.model_facing_schema().as_value();
    assert_draft_2020_12(schema);
    // Success, or `{"error": E}` where E is the tool's own error or the
    // ToolError that bad arguments and panics are reported with.
    let branches = schema["anyOf"].as_array().unwrap();
    assert_eq!(branches.len(), 2);
    assert_eq!(branches[0], *t.output_schema().as_value());
    assert_eq!(
        branches[1],
        json!({
            "type": "object",
            "properties": {"error": {"anyOf": [
                {"oneOf": [
                    {"type": "object", "properties": {
                        "code": {"type": "string", "const": "rate_limited"},
                        "retry_in_seconds": {"type": "integer", "format": "uint32", "minimum": 0},
                    }, "required": ["code", "retry_in_seconds"]},
                    {"type": "object", "properties": {
                        "code": {"type": "string", "const": "forbidden"},
                    }, "required": ["code"]},
                ]},
                tool_error_schema(),
            ]}},
            "required": ["error"],
            "additionalProperties": false,
        })
    );

    let v = validator(schema);
    let success = output_json(&t, json!({"query": "start"}));
    let limited = output_json(&t, json!({"query": "quota"}));
    let forbidden = output_json(&t, json!({"query": "secret"}));
    let bad_arguments = output_json(&t, json!({"query": 7}));
    assert_eq!(
        limited,
        json!({"error": {"code": "rate_limited", "retry_in_seconds": 30}})
    );
    assert_eq!(
        bad_arguments["error"]["message"],
        "invalid arguments at `query`: invalid type: integer `7`, expected a string"
    );
    for real in [&success, &limited, &forbidden, &bad_arguments] {
        assert!(v.is_valid(real), "{real}");
    }
    // The failure branch alone refuses a success, and the reverse.
    assert!(!validator(&branches[1]).is_valid(&success));
    assert!(!validator(&branches[0]).is_valid(&limited));
    assert!(!v.is_valid(&json!({"error": {"code": "teapot"}})));
    assert!(!v.is_valid(&json!({"error": {"code": "forbidden"}, "also": 1})));
    assert!(!v.is_valid(&json!({"hits": "none"})));
}

#[test]
fn a_loose_success_type_still_validates_its_failures() {
    // A `Value` success matches anything, a failure too: with `oneOf` a
    // failure would match both branches and be refused.
    let t = tool::function("echo", "Echo", |a: SearchArgs| -> Result<Value, Failure> {
        if a.query.is_empty() {
            return Err(ToolError::new("the query is empty").into());
        }
        Ok(json!({"query": a.query}))
    })
    .unwrap();
    let v = validator(t.model_facing_schema().as_value());
    for args in [json!({"query": "x"}), json!({"query": ""}), json!([1])] {
        let real = output_json(&t, args);
        assert!(v.is_valid(&real), "{real}");
    }
    assert!(Mcp::declare(&t).output_schema().is_none());
}

#[test]
fn a_panic_is_a_valid_failure() {
    let t = tool::function(
        "boom",
        "Boom",
        |_: SearchArgs| -> ToolResult<Hits, SearchError> { panic!("kaput") },
    )
    .unwrap();
    let real = output_json(&t, json!({"query": "x"}));
    assert_eq!(
        real,
        json!({"error": {"message": "the tool failed with an unexpected error (ToolPanicked)"}})
    );
    assert!(validator(t.model_facing_schema().as_value()).is_valid(&real));
    // The tool's own error type alone would not have said so.
    let own = t.model_facing_schema();
    let own_error = &own.as_value()["anyOf"][1]["properties"]["error"]["anyOf"][0];
    assert_eq!(
        own_error["oneOf"][1]["properties"]["code"]["const"],
        "forbidden"
    );
    assert!(!validator(own_error).is_valid(&real["error"]));
}

#[test]
fn the_default_error_shape() {
    let t = tool::function("count", "Count", |a: SearchArgs| -> Result<u32, Failure> {
        if a.query.is_empty() {
            return Err(ToolError::new("the query is empty")
                .with_suggestion("pass a word")
                .into());
        }
        Ok(a.query.len() as u32)
    })
    .unwrap();
    let schema = t.model_facing_schema().as_value();
    assert_eq!(
        schema,
        &json!({"anyOf": [
            {"type": "integer", "format": "uint32", "minimum": 0},
            {
                "type": "object",
                "properties": {"error": {
                    "description": "What went wrong, and optionally what to try instead.",
                    "type": "object",
                    "properties": {
                        "message": {"description": "What went wrong.", "type": "string"},
                        "suggestion": {"description": "What the model could try instead.", "type": ["string", "null"]},
                    },
                    "required": ["message"],
                }},
                "required": ["error"],
                "additionalProperties": false,
            },
        ]})
    );
    assert_eq!(
        schema["anyOf"][1]["properties"]["error"],
        tool_error_schema()
    );
    let v = validator(schema);
    for args in [json!({"query": "abc"}), json!({"query": ""}), json!({})] {
        let real = output_json(&t, args);
        assert!(v.is_valid(&real), "{real}");
    }
    // A non-object success has no MCP outputSchema.
    assert!(Mcp::declare(&t).output_schema().is_none());
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Node {
    name: String,
    children: Vec<Node>,
}

#[test]
fn a_recursive_type_keeps_its_defs() {
    let t = tool::function("tree", "A tree", |a: SearchArgs| {
        ToolResult::<Node>::ok(Node {
            name: a.query,
            children: Vec::new(),
        })
    })
    .unwrap();
    let value = t.output_schema().as_value();
    assert!(value.get("$defs").is_some());
    assert_draft_2020_12(value);
    let tree = json!({"name": "a", "children": [{"name": "b", "children": []}]});
    assert!(validator(value).is_valid(&tree));
    assert!(
        !validator(value)
            .is_valid(&json!({"name": "a", "children": [{"name": 1, "children": []}]}))
    );
}
