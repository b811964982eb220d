//! Properties of lowering over arbitrary values: it never panics, whatever
//! `T` and `E` serialise to (failing serialisers included), and a secret
//! anywhere in a source error chain never reaches the model channel.

use std::fmt;

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;
use toolresult::{DynToolResult, Failure, IntoToolResult, ToolResult};

/// JSON values drawn from lowercase words and numbers: never the secret.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1.0e9f64..1.0e9).prop_map(Value::from),
        "[a-z \\n\"\\\\]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A value whose serialiser fails when told to.
#[derive(Debug, Clone)]
struct FailsAfter {
    value: Value,
    fail: bool,
}

impl Serialize for FailsAfter {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.fail {
            return Err(serde::ser::Error::custom(format!("refused {SECRET}")));
        }
        self.value.serialize(serializer)
    }
}

const SECRET: &str = "SECRET-91c2";

/// One link of an error chain, carrying the secret where the test says.
#[derive(Debug)]
struct Link {
    text: String,
    next: Option<Box<Link>>,
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for Link {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.next
            .as_deref()
            .map(|l| l as &(dyn std::error::Error + 'static))
    }
}

fn chain(depth: usize, secret_at: usize) -> Link {
    let mut link: Option<Box<Link>> = None;
    for level in (0..=depth).rev() {
        let text = if level == secret_at.min(depth) {
            format!("level {level} holds {SECRET}")
        } else {
            format!("level {level}")
        };
        link = Some(Box::new(Link { text, next: link }));
    }
    match link {
        Some(link) => *link,
        None => unreachable!("depth 0 still makes one link"),
    }
}

fn model_channel_views(result: &toolresult::canonical::ToolResult) -> Vec<String> {
    vec![
        serde_json::to_string(result).unwrap(),
        result.output.clone(),
        format!("{result:?}"),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn success_lowers_to_the_json_of_the_value(value in json_value()) {
        let lowered = ToolResult::<_>::ok(value.clone()).lower();
        prop_assert!(!lowered.result.is_error);
        let expected = match &value {
            Value::String(text) => text.clone(),
            other => serde_json::to_string(other).unwrap(),
        };
        prop_assert_eq!(lowered.result.output, expected);
    }

    #[test]
    fn failure_lowers_to_the_error_envelope(error in json_value(), transient in any::<Option<bool>>()) {
        let result: ToolResult<u8, Value> = Failure::new(error.clone()).with_transient(transient).into();
        let lowered = result.lower();
        prop_assert!(lowered.result.is_error);
        let expected = format!(r#"{{"error":{}}}"#, serde_json::to_string(&error).unwrap());
        prop_assert_eq!(lowered.result.output, expected);
        prop_assert_eq!(lowered.diagnostics.is_transient(), transient);
    }

    #[test]
    fn failing_serialisers_never_panic(value in json_value(), fail_value in any::<bool>(), fail_error in any::<bool>(), success in any::<bool>()) {
        let t = FailsAfter { value: value.clone(), fail: fail_value };
        let e = FailsAfter { value, fail: fail_error };
        let result: ToolResult<FailsAfter, FailsAfter> = if success { ToolResult::ok(t) } else { ToolResult::fail(e) };
        let by_ref = result.to_tool_result();
        let lowered = result.lower();
        prop_assert_eq!(&by_ref, &lowered.result);
        let failed = (success && fail_value) || (!success && fail_error);
        if failed {
            prop_assert!(lowered.result.is_error);
            prop_assert_eq!(lowered.result.output.as_str(), toolresult::lower::SERIALISE_FAILED_OUTPUT);
            prop_assert!(lowered.diagnostics.source().unwrap().is::<serde_json::Error>());
        }
        for view in model_channel_views(&lowered.result) {
            prop_assert!(!view.contains(SECRET));
        }
    }

    #[test]
    fn a_secret_anywhere_in_the_chain_never_reaches_the_model(
        error in json_value(),
        depth in 0usize..4,
        secret_at in 0usize..4,
        unexpected in any::<bool>(),
        via_anyhow in any::<bool>(),
    ) {
        let source = chain(depth, secret_at);
        let lowered = match (unexpected, via_anyhow) {
            (true, false) => Err::<u8, Link>(source).lower(),
            (true, true) => ToolResult::<u8>::failure(Failure::unexpected_anyhow(anyhow::Error::new(source).context(SECRET))).lower(),
            (false, false) => ToolResult::<u8, Value>::failure(Failure::new(error).with_source(source)).lower(),
            (false, true) => ToolResult::<u8, Value>::failure(Failure::new(error).with_anyhow(anyhow::Error::new(source))).lower(),
        };
        for view in model_channel_views(&lowered.result) {
            prop_assert!(!view.contains(SECRET), "leaked in {}", view);
        }
        let diagnostics = format!("{:?}", lowered.diagnostics);
        prop_assert!(!diagnostics.contains(SECRET), "leaked in {}", diagnostics);
        let kept = format!("{:#}", lowered.diagnostics.source().unwrap());
        prop_assert!(kept.contains(SECRET), "the source keeps the secret for Rust: {}", kept);
    }
}
