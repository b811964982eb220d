//! Properties of lowering over arbitrary values: it never panics, whatever
//! `T` and `E` serialise to (failing serialisers included), and a secret
//! anywhere in a source error chain never reaches the model channel: not
//! the lowered result, its JSON or Debug, nor any provider rendering of it
//! (every provider in `toolresult::provider`, both part policies, and the
//! `rmcp` and `toolnexus` conversions when those features are on).

mod strategies;

use std::fmt;

use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use toolresult::canonical::PartLimit;
use toolresult::canonical::{self, ContentPart};
use toolresult::provider::{
    Answered, Anthropic, CallRef, Gemini, Mcp, OpenAiChat, OpenAiResponses, PartPolicy, Provider,
};
use toolresult::{Failure, IntoToolResult, Lowered, ToolResult};

/// What the model is shown when a value or error cannot be serialised.
const SERIALISE_FAILED_OUTPUT: &str =
    r#"{"error":{"message":"the tool's result could not be serialised to JSON"}}"#;

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

/// Parts a tool may attach beside its value: text, inline media every
/// provider carries, media some refuse (audio, an unknown file type) and
/// media by URL, so every rendering path (placeholders included) is taken.
fn parts() -> impl Strategy<Value = Vec<ContentPart>> {
    let part = prop_oneof![
        "[a-z ]{0,8}".prop_map(ContentPart::text),
        Just(
            ContentPart::from_path(
                concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/fixture.png"),
                PartLimit::default()
            )
            .unwrap()
        ),
        Just(
            ContentPart::from_bytes(b"%PDF".to_vec(), "application/pdf")
                .unwrap()
                .with_name("q3.pdf")
        ),
        Just(ContentPart::from_bytes(b"RIFF".to_vec(), "audio/wav").unwrap()),
        Just(ContentPart::from_bytes(b"a,b".to_vec(), "text/csv").unwrap()),
        Just(ContentPart::from_url("https://example.com/a.png", Some("image/png")).unwrap()),
        Just(
            ContentPart::from_url("https://example.com/q3.pdf", Some("application/pdf"))
                .unwrap()
                .with_name("q3.pdf")
        ),
    ];
    prop::collection::vec(part, 0..4)
}

/// The lowered result itself: its JSON, its output, its Debug.
fn model_channel_views(result: &canonical::ToolResult) -> Vec<String> {
    vec![
        serde_json::to_string(result).unwrap(),
        result.output.clone(),
        format!("{result:?}"),
        format!("{result:#?}"),
    ]
}

/// The JSON and Debug of a rendering, or the text of its error.
fn rendered<R: Serialize + fmt::Debug, X: fmt::Display>(rendering: Result<R, X>) -> Vec<String> {
    match rendering {
        Ok(value) => vec![serde_json::to_string(&value).unwrap(), format!("{value:?}")],
        Err(error) => vec![error.to_string()],
    }
}

/// Every provider rendering of a lowered result, in every style and under
/// both part policies, as JSON and Debug (or the error text under `Strict`),
/// plus the MCP rendering read back into a canonical result. Takes the
/// lowered result, as the rmcp conversion of it does.
fn provider_views(lowered: Lowered) -> Vec<String> {
    let result = &lowered.result;
    let call = CallRef::new("call_1", "lookup");
    // Any JSON in the output as structured content, not only what lowering
    // decided: the MCP rendering must not leak whatever it is handed.
    let any_json: Option<&RawValue> = serde_json::from_str(&result.output).ok();
    let mut views = Vec::new();
    for policy in [PartPolicy::Placeholder, PartPolicy::Strict] {
        let answers = [(call, result)];
        views.extend(rendered(OpenAiChat::reply(&answers, policy)));
        views.extend(rendered(OpenAiResponses::reply(&answers, policy)));
        views.extend(rendered(Anthropic::reply(&answers, policy)));
        views.extend(rendered(Gemini::reply(&answers, policy)));
        views.extend(rendered(OpenAiResponses::render(&(call, result), policy)));
        views.extend(rendered(Anthropic::render(&(call, result), policy)));
        views.extend(rendered(Gemini::render(&(call, result), policy)));
    }
    for structured in [None, any_json, lowered.structured_content()] {
        let with = WithStructured(result, structured);
        let answer = Mcp::render(&with, PartPolicy::Strict).unwrap();
        views.extend(rendered(Ok::<_, String>(&answer)));
        let json = serde_json::to_value(&answer).unwrap();
        views.extend(rendered(Mcp::read_result(
            json.to_string(),
            PartLimit::default(),
        )));
    }
    views.extend(rendered(Ok::<_, String>(toolnexus::ToolResult::from(
        result,
    ))));
    {
        use rmcp::handler::server::tool::IntoCallToolResult;
        use rmcp::model::CallToolResponse;
        // The canonical result alone (no structured content), then the
        // lowered result with the structured content it decided.
        let complete = |response: Result<CallToolResponse, rmcp::ErrorData>| {
            response.map(|response| match response {
                CallToolResponse::Complete(answer) => answer,
                other => panic!("a tool result is complete, not {other:?}"),
            })
        };
        views.extend(rendered(complete(result.clone().into_call_tool_result())));
        views.extend(rendered(complete(lowered.into_call_tool_result())));
    }
    views
}

proptest! {
    #![proptest_config(strategies::config(256))]

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
        let failure = Failure::new(error.clone());
        let failure = match transient {
            Some(true) => failure.transient(),
            Some(false) => failure.permanent(),
            None => failure,
        };
        let result: ToolResult<u8, Value> = ToolResult::fail(failure);
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
        // The same outcome as a `Result<T, Failure<E>>` lowers the same way.
        let plain: Result<FailsAfter, Failure<FailsAfter>> =
            if success { Ok(t.clone()) } else { Err(Failure::new(e.clone())) };
        let result: ToolResult<FailsAfter, FailsAfter> = if success { ToolResult::ok(t) } else { ToolResult::fail(e) };
        let lowered = result.lower();
        prop_assert_eq!(&plain.lower().result, &lowered.result);
        let failed = (success && fail_value) || (!success && fail_error);
        if failed {
            prop_assert!(lowered.result.is_error);
            prop_assert_eq!(lowered.result.output.as_str(), SERIALISE_FAILED_OUTPUT);
            prop_assert!(lowered.diagnostics.source().unwrap().is::<serde_json::Error>());
        }
        for view in model_channel_views(&lowered.result).into_iter().chain(provider_views(lowered)) {
            prop_assert!(!view.contains(SECRET), "leaked in {}", view);
        }
    }

    #[test]
    fn a_secret_anywhere_in_the_chain_never_reaches_the_model(
        error in json_value(),
        depth in 0usize..4,
        secret_at in 0usize..4,
        unexpected in any::<bool>(),
        via_anyhow in any::<bool>(),
        parts in parts(),
    ) {
        let source = chain(depth, secret_at);
        let lowered = match (unexpected, via_anyhow) {
            (true, false) => Err::<u8, Failure>(Failure::unexpected(source)).lower(),
            (true, true) => ToolResult::<u8>::fail(Failure::unexpected(anyhow::Error::new(source).context(SECRET))).with_parts(parts).lower(),
            (false, false) => ToolResult::<u8, Value>::fail(Failure::new(error).with_source(source)).with_parts(parts).lower(),
            (false, true) => ToolResult::<u8, Value>::fail(Failure::new(error).with_source(anyhow::Error::new(source))).with_parts(parts).lower(),
        };
        for view in model_channel_views(&lowered.result) {
            prop_assert!(!view.contains(SECRET), "leaked in {}", view);
        }
        let diagnostics = format!("{:?}", lowered.diagnostics);
        prop_assert!(!diagnostics.contains(SECRET), "leaked in {}", diagnostics);
        let kept = format!("{:#}", lowered.diagnostics.source().unwrap());
        prop_assert!(kept.contains(SECRET), "the source keeps the secret for Rust: {}", kept);
        for view in provider_views(lowered) {
            prop_assert!(!view.contains(SECRET), "leaked in a rendering: {}", view);
        }
    }
}

/// A result with the structured content the test chooses, as MCP renders it.
struct WithStructured<'a>(&'a canonical::ToolResult, Option<&'a RawValue>);

impl Answered for WithStructured<'_> {
    fn call(&self) -> CallRef<'_> {
        CallRef::new("1", "tool")
    }

    fn result(&self) -> &canonical::ToolResult {
        self.0
    }

    fn structured_content(&self) -> Option<&RawValue> {
        self.1
    }
}
