//! An output budget applied to arbitrary tool output under an arbitrary
//! small schema and budget:
//!
//! - the output handed on is within the budget (the limit raised to its
//!   least, [`Budget::MIN_OUTPUT_BYTES`] or [`Budget::MIN_OUTPUT_TOKENS`]);
//!   an output within it is handed on untouched;
//! - JSON in (the JSON of a typed value that is not a string) stays JSON
//!   out;
//! - a value valid under the output schema before is valid after, as
//!   MCP's `structuredContent`, or `structuredContent` is withheld (and
//!   `structuredContent` is only ever the cut output's own value);
//! - the whole output is kept as an artifact, linked by its `artifact://`
//!   URL, and `read_artifact`, slice by slice from offset 0 following
//!   `next`, reads it back byte for byte.
//!
//! The input: a byte for the limit (`16 ×` it, bytes or tokens), a byte of
//! flags (bit 0: use the schema; bit 1: a token budget; bits 2-7: the
//! slice length the reader is asked for, `64 ×` them plus one), then the
//! schema's JSON text, a NUL byte, and the output (lossy UTF-8). Without a
//! NUL there is no schema. A schema that is not JSON, longer than 512
//! bytes, or not one `jsonschema` compiles (draft 2020-12) is not used.

use std::sync::Arc;

use serde_json::{Value, json};
use toolresult::budget::{ArtifactId, ArtifactStore, Budget, MemoryStore, Tokenizer};
use toolresult::tool::ArtifactReader;
use toolresult::{IntoToolResult, Lowered, ToolResult};

use super::providers;

/// The longest schema used.
const MAX_SCHEMA: usize = 512;

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    let [limit, flags, rest @ ..] = data else {
        return;
    };
    let limit = usize::from(*limit) * 16;
    let tokens = flags & 2 != 0;
    let slice = (u64::from(flags >> 2) + 1) * 64;
    let (schema, output) = match rest.iter().position(|b| *b == 0) {
        Some(at) => (rest.get(..at), rest.get(at + 1..).unwrap_or_default()),
        None => (None, rest),
    };
    let schema: Option<Value> = schema
        .filter(|_| flags & 1 != 0)
        .filter(|s| s.len() <= MAX_SCHEMA)
        .and_then(|s| serde_json::from_slice(s).ok());
    let validator = schema
        .as_ref()
        .and_then(|s| jsonschema::draft202012::new(s).ok());
    let schema = schema.filter(|_| validator.is_some());
    let output = String::from_utf8_lossy(output).into_owned();

    // JSON that is not a string is a typed value's; anything else, text.
    let value = serde_json::from_str::<Value>(&output)
        .ok()
        .filter(|v| !v.is_string());
    let lowered: Lowered = match &value {
        Some(value) => ToolResult::<_>::ok(value).lower(),
        None => output.clone().lower(),
    };
    let original = lowered.result.output.clone();
    let structured_before = lowered.structured_content().map(|s| s.get().to_owned());

    let budget = if tokens {
        Budget::new()
            .output_tokens(limit)
            .tokenizer(Tokenizer::Estimate)
    } else {
        Budget::new().output_bytes(limit)
    };
    let store = Arc::new(MemoryStore::new());
    let cut = budget.apply(lowered, schema.as_ref(), &store);
    let handed = &cut.result.output;

    // Within budget.
    if tokens {
        let max = limit.max(Budget::MIN_OUTPUT_TOKENS);
        let count = Tokenizer::Estimate.count(handed);
        assert!(count <= max, "{count} tokens > {max}");
    } else {
        let max = limit.max(Budget::MIN_OUTPUT_BYTES);
        assert!(handed.len() <= max, "{} bytes > {max}", handed.len());
    }
    if *handed == original {
        assert!(
            cut.result.parts.is_empty(),
            "an untouched output has no notice"
        );
        assert_eq!(
            cut.structured_content().map(|s| s.get().to_owned()),
            structured_before
        );
        return;
    }

    // JSON stays JSON.
    let parsed = serde_json::from_str::<Value>(handed);
    if value.is_some() {
        let parsed = parsed
            .as_ref()
            .unwrap_or_else(|e| panic!("JSON in, not JSON out: {e}: {handed}"));
        if let Some(structured) = cut.structured_content() {
            let structured: Value = serde_json::from_str(structured.get())
                .unwrap_or_else(|e| panic!("structuredContent is JSON: {e}"));
            assert_eq!(&structured, parsed, "structuredContent is the cut output");
            // Valid before, valid after (or withheld).
            if let (Some(validator), Some(value)) = (&validator, &value)
                && validator.is_valid(value)
            {
                assert!(
                    validator.is_valid(&structured),
                    "{structured} breaks {schema:?}, which {value} kept"
                );
            }
        }
    } else {
        assert!(
            cut.structured_content().is_none(),
            "cut text has no structuredContent"
        );
    }

    // The whole is kept, linked, and reads back.
    let link = cut
        .result
        .parts
        .iter()
        .find_map(|part| part.url().filter(|url| url.starts_with("artifact://")))
        .unwrap_or_else(|| panic!("a cut output links its whole: {:?}", cut.result.parts));
    let id = ArtifactId::from_url_or_id(link).unwrap_or_else(|e| panic!("{link}: {e}"));
    let kept = store
        .get(&id)
        .unwrap_or_else(|e| panic!("{link}: {e}"))
        .unwrap_or_else(|| panic!("{link} is kept"));
    assert_eq!(&kept.bytes[..], original.as_bytes());
    let reader = ArtifactReader::new(store.clone()).unwrap_or_else(|e| panic!("{e}"));
    let mut read = String::new();
    let mut offset = Some(0u64);
    let mut calls = 0usize;
    while let Some(at) = offset {
        calls += 1;
        assert!(calls <= original.len() + 2, "read_artifact never ends");
        let answer = providers::read_artifact(
            &reader,
            json!({"artifact": id.as_str(), "offset": at, "length": slice}),
        );
        let answer: Value = serde_json::from_str(&answer.result.output)
            .unwrap_or_else(|e| panic!("{e}: {}", answer.result.output));
        read.push_str(
            answer["text"]
                .as_str()
                .unwrap_or_else(|| panic!("a text slice: {answer}")),
        );
        offset = answer["next"].as_u64();
    }
    assert_eq!(read, original, "read_artifact reads the whole back");
}
