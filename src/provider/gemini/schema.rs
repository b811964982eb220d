//! A JSON Schema (draft 2020-12) converted into the OpenAPI 3.0 subset that
//! Gemini function declarations accept. The rules are listed on
//! [`declare`](super::declare).
//!
//! Gemini's subset has no `$ref`, so references are inlined, and inlining
//! grows as references^depth: a type with 13 references to itself would be
//! megabytes four levels down. Two bounds keep every declaration small and
//! quick to build: a `$ref` is inlined at most [`MAX_REF_DEPTH`] levels
//! deep, and at most [`MAX_INLINED_REFS`] times in one declaration; past
//! either, it becomes a bare `{"type":"object"}`.

use std::cell::Cell;

use serde_json::{Map, Value, json};

/// How many `$ref`s deep a recursive type is inlined before it is cut off.
const MAX_REF_DEPTH: usize = 4;

/// How many `$ref`s one declaration inlines in all, in the order they are
/// met; further ones are cut off.
const MAX_INLINED_REFS: usize = 128;

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
    convert(schema, defs, 0, &Cell::new(MAX_INLINED_REFS))
}

fn convert(schema: &Value, defs: &Map<String, Value>, depth: usize, budget: &Cell<usize>) -> Value {
    let Value::Object(map) = schema else {
        // `true` (anything) has no Gemini spelling but an empty schema;
        // `false` cannot be said at all.
        return Value::Object(Map::new());
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        return resolve(reference, map, defs, depth, budget);
    }

    let mut out = Map::new();
    let mut nullable = convert_type(map, &mut out);

    for key in KEPT {
        if let Some(value) = map.get(*key) {
            out.insert((*key).to_owned(), value.clone());
        }
    }

    if let Some(Value::Object(properties)) = map.get("properties") {
        let converted: Map<String, Value> = properties
            .iter()
            .map(|(name, property)| (name.clone(), convert(property, defs, depth, budget)))
            .collect();
        out.insert("properties".to_owned(), Value::Object(converted));
    }
    if let Some(items) = map.get("items").filter(|items| items.is_object()) {
        out.insert("items".to_owned(), convert(items, defs, depth, budget));
    } else if let Some(Value::Array(prefix)) = map.get("prefixItems") {
        let mut kinds: Vec<Value> = Vec::new();
        for item in prefix {
            let item = convert(item, defs, depth, budget);
            if !kinds.contains(&item) {
                kinds.push(item);
            }
        }
        let items = match <[Value; 1]>::try_from(kinds) {
            Ok([only]) => only,
            Err(kinds) => json!({ "anyOf": kinds }),
        };
        out.insert("items".to_owned(), items);
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

    nullable |= convert_branches(map, defs, depth, budget, &mut out);
    infer_type(&mut out);
    keep_meaningful_format(map, &mut out);
    if nullable {
        out.insert("nullable".to_owned(), Value::Bool(true));
    }
    Value::Object(out)
}

/// A `$ref` into `$defs`, inlined while the depth and the budget allow;
/// a description beside the `$ref` wins.
fn resolve(
    reference: &str,
    map: &Map<String, Value>,
    defs: &Map<String, Value>,
    depth: usize,
    budget: &Cell<usize>,
) -> Value {
    let target = reference
        .strip_prefix("#/$defs/")
        .and_then(|name| defs.get(name));
    let mut resolved = match target {
        Some(target) if depth < MAX_REF_DEPTH && budget.get() > 0 => {
            budget.set(budget.get() - 1);
            convert(target, defs, depth + 1, budget)
        }
        _ => json!({"type": "object"}),
    };
    if let (Some(description), Value::Object(out)) = (map.get("description"), &mut resolved) {
        out.insert("description".to_owned(), description.clone());
    }
    resolved
}

/// Copies `type`, saying `null` as `nullable` (returned) and a list of
/// several other types as `anyOf`.
fn convert_type(map: &Map<String, Value>, out: &mut Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(ty)) if ty == "null" => true,
        Some(Value::String(ty)) => {
            out.insert("type".to_owned(), json!(ty));
            false
        }
        Some(Value::Array(types)) => {
            let named: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            let nullable = named.contains(&"null");
            let others: Vec<&str> = named.into_iter().filter(|t| *t != "null").collect();
            match others.as_slice() {
                [] => {}
                [only] => {
                    out.insert("type".to_owned(), json!(only));
                }
                several => {
                    let branches: Vec<Value> = several.iter().map(|t| json!({"type": t})).collect();
                    out.insert("anyOf".to_owned(), Value::Array(branches));
                }
            }
            nullable
        }
        _ => false,
    }
}

/// `anyOf`/`oneOf` as `anyOf`, a `null` branch as `nullable` (returned),
/// and a single remaining branch merged into the schema itself.
fn convert_branches(
    map: &Map<String, Value>,
    defs: &Map<String, Value>,
    depth: usize,
    budget: &Cell<usize>,
    out: &mut Map<String, Value>,
) -> bool {
    let Some(branches) = map
        .get("anyOf")
        .or_else(|| map.get("oneOf"))
        .and_then(Value::as_array)
    else {
        return false;
    };
    let mut nullable = false;
    let mut kept = Vec::new();
    for branch in branches {
        if branch.get("type").and_then(Value::as_str) == Some("null") {
            nullable = true;
        } else {
            kept.push(convert(branch, defs, depth, budget));
        }
    }
    match <[Value; 1]>::try_from(kept) {
        Ok([Value::Object(only)]) => {
            for (key, value) in only {
                out.entry(key).or_insert(value);
            }
        }
        Ok([other]) => {
            out.insert("anyOf".to_owned(), json!([other]));
        }
        Err(kept) if kept.is_empty() => {}
        Err(kept) => {
            out.insert("anyOf".to_owned(), Value::Array(kept));
        }
    }
    nullable
}

/// A schema that does not say its type gets the one its keywords imply.
fn infer_type(out: &mut Map<String, Value>) {
    if out.contains_key("type") || out.contains_key("anyOf") {
        return;
    }
    let implied = if out.contains_key("properties") {
        "object"
    } else if out.contains_key("items") {
        "array"
    } else {
        return;
    };
    out.insert("type".to_owned(), json!(implied));
}

/// `format` only where Gemini gives it a meaning.
fn keep_meaningful_format(map: &Map<String, Value>, out: &mut Map<String, Value>) {
    let Some(Value::String(format)) = map.get("format") else {
        return;
    };
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
