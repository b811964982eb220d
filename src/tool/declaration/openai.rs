//! OpenAI function declarations: Chat Completions and Responses, and the
//! check for strict mode.

use schemars::Schema;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::tool::Tool;

/// A Chat Completions `tools[]` entry:
/// `{"type":"function","function":{"name","description","parameters","strict"?}}`.
/// Build it with [`openai_chat`].
#[derive(Debug, Clone, Serialize)]
#[must_use]
pub struct OpenAiChatDeclaration<'a> {
    r#type: &'static str,
    function: ChatFunction<'a>,
}

#[derive(Debug, Clone, Serialize)]
struct ChatFunction<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a Schema,
    #[serde(skip_serializing_if = "is_false")]
    strict: bool,
}

/// For `skip_serializing_if`, which passes a reference.
fn is_false(value: &bool) -> bool {
    !*value
}

impl OpenAiChatDeclaration<'_> {
    /// Whether the declaration asks for strict mode.
    #[must_use]
    pub fn is_strict(&self) -> bool {
        self.function.strict
    }
}

/// The OpenAI Chat Completions declaration of `tool`.
///
/// Chat Completions reads a missing `strict` as `false`, so `strict` is
/// written only as `"strict": true`, inside `function`, when the input
/// schema meets strict mode as it stands ([`is_strict_compatible`]). The
/// schema is never rewritten.
///
/// ```
/// use toolresult::tool::{self, declaration};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Args { city: String }
///
/// let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city);
/// assert_eq!(
///     serde_json::to_string(&declaration::openai_chat(&weather))?,
///     r#"{"type":"function","function":{"name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn openai_chat<T: Tool + ?Sized>(tool: &T) -> OpenAiChatDeclaration<'_> {
    OpenAiChatDeclaration {
        r#type: "function",
        function: ChatFunction {
            name: tool.name(),
            description: tool.description(),
            parameters: tool.input_schema(),
            strict: is_strict_compatible(tool.input_schema().as_value()),
        },
    }
}

/// A Responses `tools[]` entry:
/// `{"type":"function","name","description","parameters","strict"}`.
/// Build it with [`openai_responses`].
#[derive(Debug, Clone, Serialize)]
#[must_use]
pub struct OpenAiResponsesDeclaration<'a> {
    r#type: &'static str,
    name: &'a str,
    description: &'a str,
    parameters: &'a Schema,
    strict: bool,
}

impl OpenAiResponsesDeclaration<'_> {
    /// Whether the declaration asks for strict mode.
    #[must_use]
    pub fn is_strict(&self) -> bool {
        self.strict
    }
}

/// The OpenAI Responses declaration of `tool`.
///
/// `strict` is always written. The Responses API reads a missing `strict`
/// as `true` and then normalises the schema into strict mode (every field
/// required, no extra properties), which would make optional arguments
/// mandatory; and it refuses `strict: true` with a schema strict mode does
/// not support. So `strict` is `true` only when the input schema already
/// meets strict mode as it stands ([`is_strict_compatible`]), and `false`
/// otherwise; the schema is never rewritten.
///
/// ```
/// use toolresult::tool::{self, declaration};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// #[serde(deny_unknown_fields)]
/// struct Args { city: String }
///
/// let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city);
/// let declared = declaration::openai_responses(&weather);
/// assert!(declared.is_strict());
/// assert_eq!(
///     serde_json::to_string(&declared)?,
///     r#"{"type":"function","name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"additionalProperties":false,"required":["city"]},"strict":true}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn openai_responses<T: Tool + ?Sized>(tool: &T) -> OpenAiResponsesDeclaration<'_> {
    let parameters = tool.input_schema();
    OpenAiResponsesDeclaration {
        r#type: "function",
        name: tool.name(),
        description: tool.description(),
        parameters,
        strict: is_strict_compatible(parameters.as_value()),
    }
}

/// String formats strict mode accepts.
const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Whether a schema meets OpenAI's strict mode as it stands.
///
/// The root is an object; every object schema in it sets
/// `additionalProperties: false` and lists all of its properties as
/// `required` (`#[serde(deny_unknown_fields)]`, an `Option` for what may be
/// left out, as `null`); and it uses only what strict mode supports: `type`,
/// `properties`, `required`, `additionalProperties`, `items`, `anyOf`,
/// `enum`, `const`, `$ref`/`$defs`, `description`, `title`, `pattern`,
/// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
/// `multipleOf`, `minItems`, `maxItems`, and `format` only for the string
/// formats `date-time`, `time`, `date`, `duration`, `email`, `hostname`,
/// `ipv4`, `ipv6` and `uuid`.
///
/// It errs on the side of `false`, which is always accepted: schemars'
/// integer and float formats (`uint8`, `double`) are not strict formats, so
/// arguments with numbers are declared non-strict.
///
/// ```
/// use serde_json::json;
/// use toolresult::tool::declaration::is_strict_compatible;
///
/// let closed = json!({"type": "object", "properties": {"q": {"type": "string"}},
///                     "required": ["q"], "additionalProperties": false});
/// assert!(is_strict_compatible(&closed));
/// let open = json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
/// assert!(!is_strict_compatible(&open));
/// ```
#[must_use]
pub fn is_strict_compatible(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object") && strict_schema(schema)
}

fn strict_schema(schema: &Value) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    if describes_an_object(map) && !closed_and_all_required(map) {
        return false;
    }
    map.iter().all(|(keyword, value)| match keyword.as_str() {
        "type" | "description" | "title" | "required" | "enum" | "const" | "$ref" | "pattern"
        | "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf"
        | "minItems" | "maxItems" => true,
        "additionalProperties" => value == &Value::Bool(false),
        "format" => value.as_str().is_some_and(|f| STRICT_FORMATS.contains(&f)),
        "properties" | "$defs" => value
            .as_object()
            .is_some_and(|schemas| schemas.values().all(strict_schema)),
        "items" => strict_schema(value),
        "anyOf" => value
            .as_array()
            .is_some_and(|branches| branches.iter().all(strict_schema)),
        _ => false,
    })
}

fn describes_an_object(map: &Map<String, Value>) -> bool {
    let object = Value::String("object".to_owned());
    match map.get("type") {
        Some(Value::String(ty)) => ty == "object",
        Some(Value::Array(types)) => types.contains(&object),
        _ => map.contains_key("properties"),
    }
}

fn closed_and_all_required(map: &Map<String, Value>) -> bool {
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let all_required = match map.get("properties") {
        Some(Value::Object(properties)) => properties
            .keys()
            .all(|name| required.contains(&name.as_str())),
        Some(_) => false,
        None => true,
    };
    all_required && map.get("additionalProperties") == Some(&Value::Bool(false))
}
