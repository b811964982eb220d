//! A tool rendered as the function declaration each provider expects.
//!
//! | provider | shape |
//! |---|---|
//! | OpenAI Chat Completions | `{"type":"function","function":{"name","description","parameters"}}` |
//! | OpenAI Responses | `{"type":"function","name","description","parameters","strict"}` |
//! | Anthropic Messages | `{"name","description","input_schema"}` |
//! | Gemini | `{"name","description","parameters"}`, inside `{"functionDeclarations":[..]}` |
//! | MCP `tools/list` | `{"name","description","inputSchema","outputSchema"?}` |
//!
//! OpenAI, Anthropic and MCP take the input schema as it is. Gemini takes a
//! subset of OpenAPI 3.0 and refuses the whole request over one unknown
//! keyword, so its `parameters` are converted (see [`gemini`]).
//!
//! ```
//! use toolresult::tool::{self, declaration};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Args { city: String }
//!
//! let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city);
//! assert_eq!(
//!     serde_json::to_string(&declaration::anthropic(&weather))?,
//!     r#"{"description":"Current weather for a city","input_schema":{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"},"name":"get_weather"}"#
//! );
//! # Ok::<(), serde_json::Error>(())
//! ```

use serde_json::{Map, Value, json};

use super::gemini_schema::to_gemini;
use super::{Tool, is_object_schema};

/// The OpenAI Chat Completions declaration:
/// `{"type":"function","function":{"name","description","parameters"}}`.
#[must_use]
pub fn openai_chat<T: Tool + ?Sized>(tool: &T) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": tool.name(),
            "description": tool.description(),
            "parameters": tool.input_schema().as_value(),
        },
    })
}

/// The OpenAI Responses declaration:
/// `{"type":"function","name","description","parameters","strict"}`.
///
/// `strict` is always written, since the Responses API reads a missing one
/// as `true`. It is `true` only when the input schema already meets strict
/// mode ([`is_strict_compatible`]): every object lists all its properties
/// as `required` and sets `additionalProperties: false`
/// (`#[serde(deny_unknown_fields)]` and no optional fields); otherwise
/// `false`, and the schema is sent unchanged.
#[must_use]
pub fn openai_responses<T: Tool + ?Sized>(tool: &T) -> Value {
    let parameters = tool.input_schema().as_value();
    json!({
        "type": "function",
        "name": tool.name(),
        "description": tool.description(),
        "parameters": parameters,
        "strict": is_strict_compatible(parameters),
    })
}

/// Whether a schema meets OpenAI's strict mode as it stands: an object at
/// the root, and every object schema in it with `additionalProperties:
/// false` and all of its properties `required`.
#[must_use]
pub fn is_strict_compatible(schema: &Value) -> bool {
    schema.get("type") == Some(&json!("object")) && strict_everywhere(schema)
}

fn strict_everywhere(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = map.get("properties") {
                let required: Vec<&str> = map
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let closed = map.get("additionalProperties") == Some(&Value::Bool(false));
                if !closed || !properties.keys().all(|k| required.contains(&k.as_str())) {
                    return false;
                }
            } else if map.get("type") == Some(&json!("object"))
                && map.get("additionalProperties") != Some(&Value::Bool(false))
            {
                return false;
            }
            map.iter()
                .filter(|(key, _)| {
                    !matches!(key.as_str(), "enum" | "const" | "default" | "examples")
                })
                .all(|(_, value)| strict_everywhere(value))
        }
        Value::Array(items) => items.iter().all(strict_everywhere),
        _ => true,
    }
}

/// The Anthropic Messages declaration: `{"name","description","input_schema"}`.
#[must_use]
pub fn anthropic<T: Tool + ?Sized>(tool: &T) -> Value {
    json!({
        "name": tool.name(),
        "description": tool.description(),
        "input_schema": tool.input_schema().as_value(),
    })
}

/// One Gemini function declaration: `{"name","description","parameters"}`;
/// put it inside `functionDeclarations` (or use [`gemini_tools`]).
///
/// Gemini's `parameters` are a subset of the OpenAPI 3.0 schema, and an
/// unknown keyword fails the whole request, so the input schema is
/// converted:
/// - `$ref`s into `$defs` are inlined (a recursive type is cut off after a
///   few levels as a bare `{"type":"object"}`); `$defs` and `$schema` go;
/// - `"type": [X, "null"]` and an `anyOf`/`oneOf` branch `{"type":"null"}`
///   become `"type": X` with `"nullable": true`; `oneOf` becomes `anyOf`;
/// - `const` becomes a one-value `enum`; an `enum` with a value that is not
///   a string is dropped (Gemini's enums are strings);
/// - `format` stays only where Gemini accepts it (`enum` and `date-time` for
///   strings, `int32`/`int64` for integers, `float`/`double` for numbers);
/// - of the rest only `type`, `title`, `description`, `properties`,
///   `required`, `items`, `anyOf`, `minimum`, `maximum`, `minItems`,
///   `maxItems`, `minLength`, `maxLength`, `pattern`, `minProperties`,
///   `maxProperties`, `default`, `example` and `propertyOrdering` are kept:
///   `additionalProperties`, `exclusiveMinimum`, `uniqueItems`, `allOf` and
///   the like are dropped.
#[must_use]
pub fn gemini<T: Tool + ?Sized>(tool: &T) -> Value {
    json!({
        "name": tool.name(),
        "description": tool.description(),
        "parameters": to_gemini(tool.input_schema().as_value()),
    })
}

/// The Gemini `tools` entry for many tools:
/// `{"functionDeclarations":[{"name","description","parameters"}, ..]}`.
#[must_use]
pub fn gemini_tools<T: Tool>(tools: &[T]) -> Value {
    let declarations: Vec<Value> = tools.iter().map(gemini).collect();
    json!({ "functionDeclarations": declarations })
}

/// The MCP `Tool` of `tools/list`:
/// `{"name","description","inputSchema","outputSchema"?}`.
///
/// MCP requires an `outputSchema` to describe an object. When the success
/// type `T` serialises to an object (a struct, a map), its schema is the
/// `outputSchema`. Otherwise (a number, a string, a list, an enum of several
/// shapes) `outputSchema` is left out: the result stays the text of
/// `output`, and no `structuredContent` is promised.
#[must_use]
pub fn mcp<T: Tool + ?Sized>(tool: &T) -> Value {
    let mut declared = Map::new();
    declared.insert("name".to_owned(), json!(tool.name()));
    declared.insert("description".to_owned(), json!(tool.description()));
    declared.insert(
        "inputSchema".to_owned(),
        tool.input_schema().as_value().clone(),
    );
    let output = tool.output_schema();
    if is_object_schema(output) {
        declared.insert("outputSchema".to_owned(), output.as_value().clone());
    }
    Value::Object(declared)
}
