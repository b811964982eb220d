//! A JSON Schema (draft 2020-12) converted into the OpenAPI 3.0 subset that
//! Gemini function declarations accept. The rules are listed on
//! [`declaration::gemini`](super::declaration::gemini).

use serde_json::{Map, Value, json};

/// How many `$ref`s deep a recursive type is inlined before it is cut off.
const MAX_REF_DEPTH: usize = 4;

/// Keywords Gemini accepts that are copied as they are.
const KEPT: &[&str] = &[
    "title",
    "description",
    "required",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minProperties",
    "maxProperties",
    "default",
    "example",
    "propertyOrdering",
];

pub(crate) fn to_gemini(schema: &Value) -> Value {
    let empty = Map::new();
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    convert(schema, defs, 0)
}

fn convert(schema: &Value, defs: &Map<String, Value>, depth: usize) -> Value {
    let Value::Object(map) = schema else {
        // `true` (anything) has no Gemini spelling but an empty schema;
        // `false` cannot be said at all.
        return Value::Object(Map::new());
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let target = reference
            .strip_prefix("#/$defs/")
            .and_then(|name| defs.get(name));
        let mut resolved = match target {
            Some(target) if depth < MAX_REF_DEPTH => convert(target, defs, depth + 1),
            _ => json!({"type": "object"}),
        };
        if let (Some(description), Value::Object(out)) = (map.get("description"), &mut resolved) {
            out.insert("description".to_owned(), description.clone());
        }
        return resolved;
    }

    let mut out = Map::new();
    let mut nullable = false;
    match map.get("type") {
        Some(Value::String(ty)) if ty == "null" => nullable = true,
        Some(Value::String(ty)) => {
            out.insert("type".to_owned(), json!(ty));
        }
        Some(Value::Array(types)) => {
            let named: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            nullable = named.contains(&"null");
            let others: Vec<&str> = named.into_iter().filter(|t| *t != "null").collect();
            if let [only] = others.as_slice() {
                out.insert("type".to_owned(), json!(only));
            }
        }
        _ => {}
    }

    for key in KEPT {
        if let Some(value) = map.get(*key) {
            out.insert((*key).to_owned(), value.clone());
        }
    }

    if let Some(Value::Object(properties)) = map.get("properties") {
        let converted: Map<String, Value> = properties
            .iter()
            .map(|(name, property)| (name.clone(), convert(property, defs, depth)))
            .collect();
        out.insert("properties".to_owned(), Value::Object(converted));
    }
    if let Some(items) = map.get("items").filter(|items| items.is_object()) {
        out.insert("items".to_owned(), convert(items, defs, depth));
    }

    if let Some(value) = map.get("const") {
        out.insert("enum".to_owned(), json!([value]));
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        // `Option<Enum>` lists `null` among its values: that is `nullable`.
        nullable |= values.contains(&Value::Null);
        let values: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
        out.insert("enum".to_owned(), json!(values));
    }
    keep_string_enums(&mut out);

    let branches = map
        .get("anyOf")
        .or_else(|| map.get("oneOf"))
        .and_then(Value::as_array);
    if let Some(branches) = branches {
        let mut kept = Vec::new();
        for branch in branches {
            if branch.get("type") == Some(&json!("null")) {
                nullable = true;
            } else {
                kept.push(convert(branch, defs, depth));
            }
        }
        match kept.pop() {
            Some(Value::Object(only)) if kept.is_empty() => {
                for (key, value) in only {
                    out.entry(key).or_insert(value);
                }
            }
            Some(last) => {
                kept.push(last);
                out.insert("anyOf".to_owned(), Value::Array(kept));
            }
            None => {}
        }
    }

    if let Some(Value::String(format)) = map.get("format") {
        let accepted = match out.get("type").and_then(Value::as_str) {
            Some("string") => matches!(format.as_str(), "enum" | "date-time"),
            Some("integer") => matches!(format.as_str(), "int32" | "int64"),
            Some("number") => matches!(format.as_str(), "float" | "double"),
            _ => false,
        };
        if accepted {
            out.insert("format".to_owned(), json!(format));
        }
    }
    if nullable {
        out.insert("nullable".to_owned(), Value::Bool(true));
    }
    Value::Object(out)
}

/// Gemini's enums are lists of strings: keep one only if it is, and then
/// say the type is a string.
fn keep_string_enums(out: &mut Map<String, Value>) {
    let all_strings = match out.get("enum") {
        Some(Value::Array(values)) => values.iter().all(Value::is_string),
        _ => return,
    };
    if all_strings {
        out.entry("type").or_insert_with(|| json!("string"));
    } else {
        out.remove("enum");
    }
}
