//! A panicking tool body becomes a safe error result; the panic's text is
//! kept for Rust alone.

mod support;
use support::call;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use toolresult::tool::{self, ToolPanicked};
use toolresult::{Failure, Lowered};

const SECRET: &str = "db password hunter2";

#[derive(Deserialize, JsonSchema)]
struct Args {
    n: u32,
}

const OUTPUT: &str =
    r#"{"error":{"message":"the tool failed with an unexpected error (ToolPanicked)"}}"#;

fn assert_safe(lowered: &Lowered, tool: &str, message: &str) {
    assert_eq!(lowered.result.output, OUTPUT);
    assert!(lowered.result.is_error);
    let wire = serde_json::to_string(&lowered.result).unwrap();
    assert_eq!(
        wire,
        format!(r#"{{"output":{},"isError":true}}"#, json!(OUTPUT))
    );
    assert!(!wire.contains("hunter2"));
    assert!(!format!("{:?}", lowered.result).contains("hunter2"));
    assert!(!format!("{lowered:?}").contains("hunter2"));
    let d = &lowered.diagnostics;
    assert_eq!(d.source_type_name(), Some("ToolPanicked"));
    assert_eq!(d.is_transient(), Some(false));
    let panicked = d.source().unwrap().downcast_ref::<ToolPanicked>().unwrap();
    assert_eq!(panicked.tool(), tool);
    assert_eq!(panicked.message(), message);
    assert_eq!(
        d.source().unwrap().to_string(),
        format!("the tool `{tool}` panicked: {message}")
    );
}

#[test]
fn a_panic_in_a_sync_body() {
    let boom = tool::function("boom", "Panics", |a: Args| -> Result<u32, Failure> {
        if a.n > 0 {
            panic!("cannot connect: {SECRET}");
        }
        Ok(0)
    })
    .unwrap();
    let lowered = call(&boom, json!({"n": 1}));
    assert_safe(&lowered, "boom", &format!("cannot connect: {SECRET}"));
    // Through the future too, and the tool still works afterwards.
    let lowered = call(&boom, json!({"n": 2}));
    assert_safe(&lowered, "boom", &format!("cannot connect: {SECRET}"));
    let ok = call(&boom, json!({"n": 0}));
    assert_eq!(ok.result.output, "0");
}

#[test]
fn a_static_str_and_a_non_string_payload() {
    let literal = tool::function("literal", "Panics", |_: Args| -> Result<u8, Failure> {
        panic!("db password hunter2")
    })
    .unwrap();
    assert_safe(&call(&literal, json!({"n": 1})), "literal", SECRET);
    let odd = tool::function("odd", "Panics", |_: Args| -> Result<u8, Failure> {
        std::panic::panic_any(42_u8)
    })
    .unwrap();
    assert_safe(
        &call(&odd, json!({"n": 1})),
        "odd",
        "a panic payload that is not a string",
    );
}

/// A future that is pending once, then panics.
struct PanicsOnSecondPoll(bool);

impl Future for PanicsOnSecondPoll {
    type Output = Result<u8, Failure>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if self.0 {
            panic!("late: {SECRET}");
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[test]
fn a_panic_in_an_async_body_is_caught_too() {
    let late = tool::function("late", "Panics later", |_: Args| PanicsOnSecondPoll(false)).unwrap();
    let lowered = call(&late, json!({"n": 1}));
    assert_safe(&lowered, "late", &format!("late: {SECRET}"));

    let early = tool::function("early", "Panics at once", |_: Args| async move {
        panic!("early: {SECRET}");
        #[allow(unreachable_code)]
        Ok::<u8, Failure>(0)
    })
    .unwrap();
    let lowered = call(&early, json!({"n": 1}));
    assert_safe(&lowered, "early", &format!("early: {SECRET}"));
}

#[test]
fn the_panic_text_reaches_no_provider_rendering() {
    use toolresult::provider::{
        Anthropic, CallRef, Gemini, Mcp, OpenAiChat, OpenAiResponses, PartPolicy, Provider,
    };
    let boom = tool::function("boom", "Panics", |_: Args| -> Result<u32, Failure> {
        panic!("cannot connect: {SECRET}")
    })
    .unwrap();
    let lowered = call(&boom, json!({"n": 1}));
    let result = &lowered.result;
    let call = CallRef::new("call_1", "boom");
    let structured = lowered.structured_content();
    assert!(structured.is_none());
    let renderings = [
        serde_json::to_string(&OpenAiChat::reply(&[(call, result)], PartPolicy::Strict).unwrap())
            .unwrap(),
        serde_json::to_string(
            &OpenAiResponses::render(&(call, result), PartPolicy::Strict).unwrap(),
        )
        .unwrap(),
        serde_json::to_string(&Anthropic::render(&(call, result), PartPolicy::Strict).unwrap())
            .unwrap(),
        serde_json::to_string(&Gemini::render(&(call, result), PartPolicy::Strict).unwrap())
            .unwrap(),
        serde_json::to_string(&Mcp::render(&(call, &lowered), PartPolicy::Strict).unwrap())
            .unwrap(),
    ];
    for rendered in &renderings {
        assert!(!rendered.contains("hunter2"), "{rendered}");
        assert!(!rendered.contains("cannot connect"), "{rendered}");
        assert!(
            rendered.contains("the tool failed with an unexpected error (ToolPanicked)"),
            "{rendered}"
        );
    }
    // The Rust side still has it.
    assert!(format!("{:#}", lowered.diagnostics.source().unwrap()).contains(SECRET));
}
