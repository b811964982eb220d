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
#[must_use]
pub(crate) fn is_strict_compatible(schema: &Value) -> bool {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::is_strict_compatible;

    #[test]
    fn closed_schemas_are_strict_and_open_ones_are_not() {
        let closed = json!({"type": "object", "properties": {"q": {"type": "string"}},
                            "required": ["q"], "additionalProperties": false});
        assert!(is_strict_compatible(&closed));
        let open =
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
        assert!(!is_strict_compatible(&open));
    }

    #[test]
    fn strict_compatibility_of_hand_written_schemas() {
        let strict = [
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
            json!({"type": "object", "properties": {
                    "when": {"type": "string", "format": "date-time"},
                    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
                    "unit": {"type": ["string", "null"], "enum": ["c", "f", null]},
                    "at": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}},
                   "required": ["when", "tags", "unit", "at"], "additionalProperties": false,
                   "$defs": {"P": {"type": "object", "properties": {"x": {"type": "number"}},
                                   "required": ["x"], "additionalProperties": false}}}),
        ];
        for schema in &strict {
            assert!(is_strict_compatible(schema), "{schema}");
        }
        let not_strict = [
            json!({"type": "string"}),
            json!({"anyOf": [{"type": "object", "properties": {}, "additionalProperties": false}]}),
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": [],
                   "additionalProperties": false}),
            json!({"type": "object", "properties": {"q": {"type": "string", "format": "uri"}},
                   "required": ["q"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"q": {"oneOf": [{"type": "string"}]}},
                   "required": ["q"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"q": {"type": "object"}},
                   "required": ["q"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"q": true},
                   "required": ["q"], "additionalProperties": false}),
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
        ];
        for schema in &not_strict {
            assert!(!is_strict_compatible(schema), "{schema}");
        }
    }
}
