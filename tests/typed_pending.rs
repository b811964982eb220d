//! A typed tool can suspend and keep its types: `ToolResult::<T, E>::pending`
//! lowers to the canonical suspension, which reads back after a JSON trip.

mod support;
use support::call;

use serde_json::json;
use toolresult::canonical::{self, Answer, PartLimit, Request};
use toolresult::tool;
use toolresult::{IntoToolResult, ToolError, ToolResult};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Deploy {
    env: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Deployed {
    version: u32,
}

#[test]
fn typed_pending_lowers_to_the_canonical_suspension() {
    let request = Request::input("Deploy 42 to production?")
        .with_id("req-7")
        .with_url("https://example.com/approve/7");
    let lowered = ToolResult::<Deployed, ToolError>::pending(request.clone()).lower();
    assert!(lowered.result.is_error);
    assert_eq!(
        lowered.result.output,
        "Deploy 42 to production?\nhttps://example.com/approve/7"
    );
    assert_eq!(lowered.result.pending_request(), Some(request));
    assert!(lowered.diagnostics.source().is_none());
    assert_eq!(lowered.diagnostics.is_transient(), None);
    assert!(lowered.structured_content().is_none());
    assert_eq!(
        serde_json::to_string(&lowered.result).unwrap(),
        r#"{"output":"Deploy 42 to production?\nhttps://example.com/approve/7","isError":true,"metadata":{"pending":{"id":"req-7","kind":"input","prompt":"Deploy 42 to production?","url":"https://example.com/approve/7"}}}"#
    );
}

#[test]
fn typed_pending_is_the_same_as_canonical_pending() {
    let request = Request::input("Which region?").with_id("req-1");
    let typed = ToolResult::<u8>::pending(request.clone()).lower().result;
    assert_eq!(typed, canonical::ToolResult::pending(request));
}

#[test]
fn typed_pending_reads_back_after_json() {
    let lowered = ToolResult::<u8>::pending(Request::input("Which region?")).lower();
    let json = serde_json::to_string(&lowered.result).unwrap();
    let back: canonical::ToolResult = serde_json::from_str(&json).unwrap();
    let request = back.pending_request().expect("still a suspension");
    assert_eq!(request.prompt, "Which region?");
    assert_eq!(request.id.len(), 36, "a fresh uuid fills the empty id");
    assert!(Answer::granted(request.id.clone(), None).answers(&request));
}

#[test]
fn typed_auth_required_keeps_the_default_prompt() {
    let lowered = ToolResult::<u8>::auth_required("https://example.com/login", None).lower();
    assert_eq!(
        lowered.result.output,
        "Authorization required to continue\nhttps://example.com/login"
    );
    assert_eq!(
        lowered.result.pending_request().unwrap().kind,
        "authorization"
    );
    let custom = ToolResult::<u8>::auth_required("https://example.com/login", Some("Sign in"));
    assert_eq!(
        custom.pending_request().map(|r| r.prompt.as_str()),
        Some("Sign in")
    );
}

#[test]
fn pending_keeps_parts_and_metadata_beside_the_request() {
    let png = canonical::ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())
        .unwrap();
    let lowered = ToolResult::<u8>::pending(Request::input("Approve this?").with_id("r"))
        .with_parts([png])
        .with_meta("trace", "t-1")
        .lower();
    assert_eq!(lowered.result.parts.len(), 1);
    assert_eq!(lowered.result.meta("trace"), Some(&json!("t-1")));
    assert_eq!(lowered.result.pending_request().unwrap().id, "r");
}

#[test]
fn a_pending_result_metadata_cannot_hide_the_request() {
    // The user's own `pending` key is replaced by the request.
    let lowered = ToolResult::<u8>::pending(Request::input("Approve?").with_id("real"))
        .with_meta("pending", "fake")
        .lower();
    assert_eq!(lowered.result.pending_request().unwrap().id, "real");
}

#[test]
fn a_typed_tool_suspends_and_resumes_with_an_answer() {
    let deploy = tool::function("deploy", "Deploy a version", |args: Deploy| {
        if args.env == "production" {
            ToolResult::<Deployed>::pending(
                Request::input("Deploy to production?").with_id("approve-deploy"),
            )
        } else {
            ToolResult::ok(Deployed { version: 42 })
        }
    })
    .unwrap();
    let parked = call(&deploy, json!({"env": "production"}));
    let request = parked.result.pending_request().unwrap();
    assert_eq!(request.id, "approve-deploy");
    // The typed accessors see the suspension too.
    let typed = ToolResult::<Deployed>::pending(request.clone());
    assert_eq!(typed.pending_request(), Some(&request));
    assert!(typed.value().is_none() && typed.failure().is_none());
    let staged = call(&deploy, json!({"env": "staging"}));
    assert_eq!(staged.result.output, r#"{"version":42}"#);
}
