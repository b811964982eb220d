//! What a declared output schema lets an elision cut, value by value.
//!
//! An elision only ever keeps a prefix of an array's elements and a prefix
//! of a string's characters (plus `…`). Most keywords hold of a value so
//! shortened whenever they held of the whole (`type`, `items`,
//! `properties`, `required`, `maxItems`, `maxLength`, numbers' bounds), so
//! only a few need a rule: an array keeps its `minItems`; a string keeps its
//! `minLength` and is not cut at all under `pattern`, `format` or a
//! `content*` keyword; an object loses members only when it requires none
//! (no `required`, `minProperties` or `dependentRequired`). Keywords whose truth a cut can change in ways this
//! walk does not follow (`enum`, `const`, `oneOf`, `not`, `if`, `contains`,
//! `dependentSchemas`, `unevaluated*`, `patternProperties`, a `$ref` that is not a local pointer) freeze the value
//! they apply to: it is copied whole. `allOf` and `anyOf` branches all
//! apply at once: a value valid under one `anyOf` branch stays valid under
//! it when every branch's rules are kept.

use serde_json::{Map, Value};

/// How many `$ref`s a walk follows in a row before it freezes the value: a
/// schema that refers to itself without end is not walked forever.
const MAX_REFS: usize = 32;

/// Keywords under which a value is copied whole.
const FREEZING: &[&str] = &[
    "enum",
    "const",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "dependentSchemas",
    "dependencies",
    "unevaluatedItems",
    "unevaluatedProperties",
    "$dynamicRef",
    "$recursiveRef",
];

/// Keywords under which a string is not cut.
const STRING_KEEPING: &[&str] = &[
    "pattern",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// The schemas that apply to one value, gathered through `$ref`, `allOf`
/// and `anyOf`.
#[derive(Clone, Default)]
pub(super) struct Rules<'s> {
    root: Option<&'s Value>,
    schemas: Vec<&'s Map<String, Value>>,
    frozen: bool,
}

impl<'s> Rules<'s> {
    /// No schema: anything may be cut.
    pub(super) fn none() -> Self {
        Self::default()
    }

    /// The rules of a document's root under `schema`.
    pub(super) fn new(schema: &'s Value) -> Self {
        let mut rules = Self {
            root: Some(schema),
            ..Self::default()
        };
        rules.gather(schema, 0);
        rules
    }

    /// Whether the value is copied whole.
    pub(super) fn frozen(&self) -> bool {
        self.frozen
    }

    /// The fewest elements an array may keep.
    pub(super) fn min_items(&self) -> usize {
        self.max_count("minItems")
    }

    /// The fewest characters a string may keep, its `…` counted.
    pub(super) fn min_chars(&self) -> usize {
        self.max_count("minLength")
    }

    /// Whether an object may lose members under a schema: none of its
    /// schemas names members it must have (`required`, `minProperties`;
    /// `dependencies` freezes it already). A map (`additionalProperties`)
    /// or a struct of optional fields stays valid with fewer members.
    /// Never without a schema: there, members are cut only when nothing
    /// else fits.
    pub(super) fn members_cuttable(&self) -> bool {
        self.root.is_some()
            && !self.frozen
            && self.schemas.iter().all(|schema| {
                ["required", "minProperties", "dependentRequired"]
                    .iter()
                    .all(|key| !schema.contains_key(*key))
            })
    }

    /// Whether a string may be cut.
    pub(super) fn string_cuttable(&self) -> bool {
        !self.frozen
            && self
                .schemas
                .iter()
                .all(|schema| STRING_KEEPING.iter().all(|key| !schema.contains_key(*key)))
    }

    /// The rules of element `index` of an array. Elements of an array
    /// whose items must be unique are not cut: two cut the same way could
    /// become equal.
    pub(super) fn element(&self, index: usize) -> Self {
        let mut rules = self.child();
        if rules.root.is_none() {
            return rules;
        }
        for schema in &self.schemas {
            if schema.get("uniqueItems") == Some(&Value::Bool(true)) {
                rules.frozen = true;
                return rules;
            }
            let prefix = schema.get("prefixItems").and_then(Value::as_array);
            let (listed, rest) = match schema.get("items") {
                // Before 2020-12, an array of `items` is the prefix.
                Some(Value::Array(items)) => (Some(items), schema.get("additionalItems")),
                items => (prefix, items),
            };
            match listed.and_then(|listed| listed.get(index)) {
                Some(item) => rules.gather(item, 0),
                None => {
                    if let Some(rest) = rest {
                        rules.gather(rest, 0);
                    }
                }
            }
        }
        rules
    }

    /// The rules of the member `key` (unescaped) of an object.
    pub(super) fn member(&self, key: &str) -> Self {
        let mut rules = self.child();
        if rules.root.is_none() {
            return rules;
        }
        for schema in &self.schemas {
            if schema.contains_key("patternProperties") {
                // Which patterns match the key is not worked out here.
                rules.frozen = true;
            } else if let Some(property) = schema
                .get("properties")
                .and_then(Value::as_object)
                .and_then(|properties| properties.get(key))
            {
                rules.gather(property, 0);
            } else if let Some(additional) = schema.get("additionalProperties") {
                rules.gather(additional, 0);
            }
        }
        rules
    }

    /// An empty set of rules under the same root; frozen under a frozen
    /// value.
    fn child(&self) -> Self {
        Self {
            root: self.root,
            schemas: Vec::new(),
            frozen: self.frozen,
        }
    }

    fn gather(&mut self, schema: &'s Value, refs: usize) {
        if self.frozen {
            return;
        }
        let whole = schema;
        let schema = match schema {
            Value::Bool(true) => return,
            Value::Object(schema) => schema,
            // `false`, or not a schema: nothing is known to hold.
            _ => {
                self.frozen = true;
                return;
            }
        };
        // A schema that starts a resource of its own (`$id`) resolves its
        // `$ref`s against itself, not the root this walk knows; a count
        // that is not a whole number is not one this walk can keep.
        let nested_resource = self.root.is_some_and(|root| !std::ptr::eq(root, whole))
            && (schema.contains_key("$id") || schema.contains_key("id"));
        let odd_count = ["minItems", "minLength"]
            .iter()
            .any(|key| schema.get(*key).is_some_and(|n| count(n).is_none()));
        if nested_resource || odd_count || FREEZING.iter().any(|key| schema.contains_key(*key)) {
            self.frozen = true;
            return;
        }
        self.schemas.push(schema);
        if let Some(reference) = schema.get("$ref") {
            match reference.as_str().and_then(|r| self.resolve(r)) {
                Some(target) if refs < MAX_REFS => self.gather(target, refs + 1),
                _ => self.frozen = true,
            }
        }
        for combinator in ["allOf", "anyOf"] {
            if let Some(branches) = schema.get(combinator).and_then(Value::as_array) {
                for branch in branches {
                    self.gather(branch, refs);
                }
            }
        }
    }

    /// A local `$ref` (`#` or `#/json/pointer`).
    fn resolve(&self, reference: &str) -> Option<&'s Value> {
        let pointer = reference.strip_prefix('#')?;
        self.root?.pointer(pointer)
    }

    fn max_count(&self, key: &str) -> usize {
        self.schemas
            .iter()
            .filter_map(|schema| schema.get(key).and_then(count))
            .max()
            .unwrap_or(0)
    }
}

/// A count keyword's value: a non-negative whole number, which JSON Schema
/// also accepts written as `3.0`.
fn count(value: &Value) -> Option<usize> {
    if let Some(n) = value.as_u64() {
        return Some(usize::try_from(n).unwrap_or(usize::MAX));
    }
    let n = value.as_f64().filter(|n| *n >= 0.0 && n.fract() == 0.0)?;
    // Saturating: a count beyond any length keeps everything.
    Some(if n >= usize::MAX as f64 {
        usize::MAX
    } else {
        n as usize
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn rules_through_refs_and_combinators() {
        let schema = json!({
            "type": "object",
            "properties": {
                "rows": {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/Row"}},
                "id": {"type": "string", "format": "uuid"},
                "kind": {"enum": ["a", "b"]},
                "note": {"anyOf": [{"type": "string", "minLength": 3}, {"type": "null"}]}
            },
            "$defs": {"Row": {"type": "object", "properties": {"name": {"type": "string"}}}}
        });
        let root = Rules::new(&schema);
        assert!(!root.frozen());
        let rows = root.member("rows");
        assert_eq!(rows.min_items(), 2);
        assert!(rows.element(7).member("name").string_cuttable());
        assert!(!root.member("id").string_cuttable());
        assert!(root.member("kind").frozen());
        assert_eq!(root.member("note").min_chars(), 3);
        assert!(root.member("other").string_cuttable());
    }

    #[test]
    fn counts_written_as_floats_hold_and_odd_ones_freeze() {
        let schema = json!({"properties": {
            "rows": {"type": "array", "minItems": 3.0},
            "odd": {"type": "array", "minItems": 2.5},
            "note": {"type": "string", "minLength": 1000.0}
        }});
        let root = Rules::new(&schema);
        assert_eq!(root.member("rows").min_items(), 3);
        assert!(root.member("odd").frozen());
        assert_eq!(root.member("note").min_chars(), 1000);
    }

    #[test]
    fn a_nested_resource_freezes() {
        let schema = json!({
            "properties": {"a": {"$id": "https://x.test/a", "$ref": "#/$defs/S", "$defs": {"S": {"pattern": "^a+$"}}}},
            "$defs": {"S": {"type": "string"}}
        });
        let root = Rules::new(&schema);
        assert!(root.member("a").frozen());
        let with_id =
            json!({"$id": "https://x.test/root", "properties": {"b": {"type": "string"}}});
        assert!(
            !Rules::new(&with_id).member("b").frozen(),
            "the root's own $id is the root"
        );
    }

    #[test]
    fn what_is_not_followed_freezes() {
        let schema = json!({
            "properties": {
                "a": {"$ref": "https://example.com/s.json"},
                "b": {"$ref": "#/$defs/B"},
                "c": {"type": "array", "uniqueItems": true},
                "d": {"properties": {"x1": {}}, "patternProperties": {"^x": {}}}
            },
            "$defs": {"B": {"$ref": "#/$defs/B"}}
        });
        let root = Rules::new(&schema);
        assert!(root.member("a").frozen());
        assert!(root.member("b").frozen());
        assert!(!root.member("c").frozen());
        assert!(root.member("c").element(0).frozen());
        assert!(root.member("d").member("x1").frozen());
    }
}
