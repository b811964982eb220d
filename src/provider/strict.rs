//! OpenAI's strict mode: whether a schema meets it as it stands.

use serde_json::{Map, Value};

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
/// use toolresult::provider::openai_chat::is_strict_compatible;
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
