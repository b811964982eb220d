//! Output budgets over arbitrary text, JSON values, schemas and budgets:
//! what is handed on is within budget, text keeps an exact head and tail
//! around its marker, JSON stays JSON, `structuredContent` is sent only when
//! it matches the output schema, and the whole is kept byte for byte.

#[path = "../../tests/support/mod.rs"]
mod support;
use support::call;

mod strategies;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolresult::budget::{ArtifactId, ArtifactStore, Budget, MemoryStore};
use toolresult::tool::ArtifactReader;
use toolresult::{IntoToolResult, ToolResult};

/// The marker line's parts: (left out, total, artifact id, head).
fn parse_marker(line: &str) -> Option<(usize, usize, String, usize)> {
    let rest = line.strip_prefix("[… ")?;
    let (left_out, rest) = rest.split_once(" of ")?;
    let (total, rest) =
        rest.split_once(" bytes left out here; read them with read_artifact {\"artifact\":\"")?;
    let (id, rest) = rest.split_once("\",\"offset\":")?;
    let head = rest.strip_suffix("}]")?;
    Some((
        left_out.parse().ok()?,
        total.parse().ok()?,
        id.to_owned(),
        head.parse().ok()?,
    ))
}

/// Text with lines, multi-byte characters and the odd long line.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![".{0,40}", "[a-z ]{0,300}", "[é€😀\t]{0,20}"],
        0..200,
    )
    .prop_map(|lines| lines.join("\n"))
}

fn stored(store: &MemoryStore, id: &str) -> Vec<u8> {
    let id = ArtifactId::from_url_or_id(id).unwrap();
    store.get(&id).unwrap().unwrap().bytes.to_vec()
}

proptest! {
    #![proptest_config(strategies::config(256))]

    #[test]
    fn text_keeps_an_exact_head_and_tail_within_budget(text in text(), max in 512usize..4096, slice in 1u64..5000) {
        let store = std::sync::Arc::new(MemoryStore::new());
        let cut = Budget::new().output_bytes(max).apply(text.clone().lower(), None, &store);
        let output = &cut.result.output;
        prop_assert!(output.len() <= max, "{} > {max}", output.len());
        if text.len() <= max {
            prop_assert_eq!(output, &text);
            prop_assert!(cut.result.parts.is_empty());
            return Ok(());
        }
        // Exactly one line is the marker, and it says where the cut is.
        let (at, (left_out, total, id, head)) = output
            .match_indices("[… ")
            .find_map(|(at, _)| {
                let line = output[at..].split('\n').next()?;
                parse_marker(line).map(|parsed| (at, parsed))
            })
            .expect("a marker line");
        prop_assert_eq!(total, text.len());
        let tail = head + left_out;
        prop_assert!(text.is_char_boundary(head) && text.is_char_boundary(tail));
        // The head is the text's first `head` bytes, then a line break.
        let kept_head = &output[..at];
        let mut expected_head = text[..head].to_owned();
        if !expected_head.is_empty() && !expected_head.ends_with('\n') {
            expected_head.push('\n');
        }
        prop_assert_eq!(kept_head, expected_head);
        prop_assert!(output.ends_with(&text[tail..]));
        // The whole is kept, byte for byte, and linked as a file part.
        prop_assert_eq!(stored(&store, &id), text.as_bytes());
        // And the model reading it back, slice by slice, gets it all.
        let reader = ArtifactReader::new(store.clone()).unwrap();
        let mut read = String::new();
        let mut offset = Some(0u64);
        while let Some(at) = offset {
            let answer = call(&reader, json!({"artifact": id, "offset": at, "length": slice}));
            let answer: Value = serde_json::from_str(&answer.result.output).unwrap();
            read.push_str(answer["text"].as_str().unwrap());
            offset = answer["next"].as_u64();
        }
        prop_assert_eq!(read, text);
        let link = format!("artifact://{id}");
        prop_assert_eq!(cut.result.parts[0].url(), Some(link.as_str()));
    }

    #[test]
    fn token_budgets_hold_by_the_tokenizers_count(text in text(), max in 128usize..1024) {
        let store = MemoryStore::new();
        let budget = Budget::new().output_tokens(max);
        let cut = budget.apply(text.clone().lower(), None, &store);
        prop_assert!(cut.result.output.len().div_ceil(4) <= max);
    }

    #[test]
    fn json_stays_json_within_budget_and_keeps_its_schema((value, schema) in value_and_schema(), max in 512usize..3000, with_schema in any::<bool>()) {
        // A string is handed on as text, not JSON.
        prop_assume!(!value.is_string());
        let validator = jsonschema::draft202012::new(&schema).unwrap();
        prop_assert!(validator.is_valid(&value), "the schema is made to hold of the value");
        let store = MemoryStore::new();
        let lowered = ToolResult::<_>::ok(&value).lower();
        let original = lowered.result.output.clone();
        let cut = Budget::new().output_bytes(max).apply(lowered, with_schema.then_some(&schema), &store);
        let output = &cut.result.output;
        prop_assert!(output.len() <= max);
        let parsed: Value = serde_json::from_str(output).expect("the output is JSON");
        if original.len() <= max {
            prop_assert_eq!(output, &original);
            return Ok(());
        }
        prop_assert!(is_cut_of(&parsed, &value), "{parsed} is not a cut of {value}");
        if let Some(structured) = cut.structured_content() {
            let structured: Value = serde_json::from_str(structured.get()).unwrap();
            if with_schema {
                prop_assert!(validator.is_valid(&structured), "{structured} breaks {schema}");
            }
        }
        let notice = cut.result.parts.iter().find_map(|part| part.as_text()).expect("a notice");
        prop_assert!(notice.starts_with("[… output elided to fit the budget: "));
        let id = notice.split("{\"artifact\":\"").nth(1).and_then(|rest| rest.split('"').next()).unwrap();
        prop_assert_eq!(stored(&store, id), original.as_bytes());
    }
}

proptest! {
    #![proptest_config(strategies::config(256))]

    /// `output` is a public field: JSON changed after lowering is not
    /// trusted. Whatever it holds, the budget holds, nothing panics, and
    /// what is handed on as JSON (MCP's `structuredContent`) parses.
    #[test]
    fn output_changed_after_lowering_is_never_trusted(
        text in strategies::mangled_json((value_and_schema(), 0..1000usize).prop_map(|((v, _), n)| json!({"n": n, "v": v}))),
        max in 512usize..2048,
    ) {
        let mut lowered = ToolResult::<_>::ok(json!({"rows": [1, 2, 3]})).lower();
        lowered.result.output = text.clone();
        let cut = Budget::new().output_bytes(max).apply(lowered, None, &MemoryStore::new());
        prop_assert!(cut.result.output.len() <= max);
        if text.len() <= max {
            prop_assert_eq!(&cut.result.output, &text);
        } else if let Some(structured) = cut.structured_content() {
            prop_assert!(serde_json::from_str::<Value>(structured.get()).is_ok());
        }
    }
}

/// Whether `cut` is `whole` with arrays and object members cut to a prefix
/// and strings to a prefix ending `…`.
fn is_cut_of(cut: &Value, whole: &Value) -> bool {
    match (cut, whole) {
        (Value::Array(cut), Value::Array(whole)) => {
            cut.len() <= whole.len() && cut.iter().zip(whole).all(|(c, w)| is_cut_of(c, w))
        }
        (Value::Object(cut), Value::Object(whole)) => cut
            .iter()
            .zip(whole)
            .all(|((ck, cv), (wk, wv))| ck == wk && is_cut_of(cv, wv)),
        (Value::String(cut), Value::String(whole)) => {
            cut == whole
                || cut
                    .strip_suffix('…')
                    .is_some_and(|kept| whole.starts_with(kept))
        }
        (cut, whole) => cut == whole,
    }
}

/// A JSON value big enough to need cutting, and a schema that holds of it,
/// with the keywords an elision must respect (`minItems`, `minLength`,
/// `enum`, `const`, `pattern`, `format`, `anyOf`, `$ref`,
/// `additionalProperties`).
fn value_and_schema() -> impl Strategy<Value = (Value, Value)> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        ".{0,120}".prop_map(Value::String),
        "[a-z]{0,400}".prop_map(Value::String),
    ];
    let value = leaf.prop_recursive(4, 200, 30, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..30).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    // Mostly objects at the root: what MCP sends as `structuredContent`.
    let root = prop_oneof![
        1 => value.clone(),
        3 => prop::collection::btree_map("[a-z]{1,6}", value, 1..5)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
    ];
    (root, any::<u64>()).prop_map(|(value, seed)| {
        let mut choice = Choice(seed);
        let mut schema = schema_of(&value, &mut choice);
        if let Value::Object(root) = &mut schema {
            root.insert("$defs".to_owned(), json!({"Any": {}}));
        }
        (value, schema)
    })
}

/// A cheap deterministic stream of choices.
struct Choice(u64);

impl Choice {
    fn pick(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn schema_of(value: &Value, choice: &mut Choice) -> Value {
    match value {
        Value::String(s) => match choice.pick(7) {
            0 => {
                json!({"type": "string", "minLength": s.chars().count().min(choice.pick(40) as usize)})
            }
            1 => json!({"enum": [s, "other"]}),
            2 => json!({"const": s}),
            // A pattern a cut string (ending `…`) would break.
            3 if !s.contains('…') => json!({"type": "string", "pattern": "^[^…]*$"}),
            3 => json!({"type": "string", "pattern": "^[\\s\\S]*$"}),
            4 => json!({"type": "string", "format": "x-kept-whole"}),
            5 => json!({"$ref": "#/$defs/Any"}),
            _ => json!({"type": "string"}),
        },
        Value::Array(items) => {
            let mut schema = json!({"type": "array"});
            match choice.pick(3) {
                0 => schema["minItems"] = json!(items.len().min(choice.pick(12) as usize)),
                // JSON Schema takes a whole number written as a float.
                1 => schema["minItems"] = json!(items.len().min(choice.pick(12) as usize) as f64),
                _ => {}
            }
            if !items.is_empty() {
                let branches: Vec<Value> =
                    items.iter().map(|item| schema_of(item, choice)).collect();
                schema["items"] = json!({"anyOf": branches});
            }
            schema
        }
        Value::Object(members) => {
            let properties: Map<String, Value> = members
                .iter()
                .map(|(k, v)| (k.clone(), schema_of(v, choice)))
                .collect();
            let required: Vec<&String> = members.keys().collect();
            let mut schema = match choice.pick(4) {
                // A map: every member under one schema, none required.
                0 => {
                    let each: Vec<Value> = properties.values().cloned().collect();
                    let each = if each.is_empty() {
                        json!({})
                    } else {
                        json!({"anyOf": each})
                    };
                    return json!({"type": "object", "additionalProperties": each});
                }
                // A struct of optional fields.
                1 => json!({"type": "object", "properties": properties}),
                2 => {
                    json!({"type": "object", "properties": properties, "minProperties": members.len()})
                }
                _ => json!({"type": "object", "properties": properties, "required": required}),
            };
            if choice.pick(2) == 0 {
                schema["additionalProperties"] = json!(false);
            }
            schema
        }
        other => match choice.pick(2) {
            0 => json!({"const": other}),
            _ => json!({}),
        },
    }
}
