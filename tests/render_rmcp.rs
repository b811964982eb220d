//! Conversions of the crate's results into `rmcp::model::CallToolResult`,
//! and reading one back through `Mcp::read_result`.
#![cfg(feature = "rmcp")]

mod common;

use common::*;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use serde_json::json;
use toolresult::IntoToolResult;
use toolresult::canonical::{ContentPart, PartLimit, ToolResult};
use toolresult::provider::{CallRef, Mcp, PartPolicy, Provider};

/// rmcp's `CallToolResult` of anything the crate hands an rmcp server.
fn to_rmcp(result: impl IntoCallToolResult) -> CallToolResult {
    match result.into_call_tool_result().unwrap() {
        CallToolResponse::Complete(answer) => answer,
        other => panic!("not a complete answer: {other:?}"),
    }
}

/// An rmcp `CallToolResult` read back by the crate's one reader.
fn read(answer: &CallToolResult) -> ToolResult {
    Mcp::read_result(serde_json::to_vec(answer).unwrap(), PartLimit::default()).unwrap()
}

fn cases() -> Vec<ToolResult> {
    let url_pdf = ContentPart::from_url("https://example.com/q3.pdf", Some("application/pdf"))
        .unwrap()
        .with_name("q3.pdf");
    vec![
        text_only(),
        error(),
        image(),
        with_pdf(),
        with_wav(),
        ToolResult::ok("everything").with_parts([png(), pdf(), wav(), url_pdf]),
    ]
}

#[test]
fn rmcp_round_trip_keeps_the_result() {
    for result in cases() {
        let answer = to_rmcp(result.clone());
        assert_eq!(read(&answer), result, "{result:?}");
    }
}

#[derive(serde::Serialize)]
struct Rows {
    rows: u32,
}

#[test]
fn rmcp_json_is_the_rendered_json() {
    // rmcp may write the newer protocol's `resultType`; absent means the same.
    fn without_result_type(answer: CallToolResult) -> serde_json::Value {
        let mut value = serde_json::to_value(answer).unwrap();
        let result_type = value.as_object_mut().unwrap().remove("resultType");
        assert!(
            result_type.is_none() || result_type == Some(json!("complete")),
            "{result_type:?}"
        );
        value
    }
    for result in cases() {
        let rendered = serde_json::to_value(
            Mcp::render(&(CallRef::new("1", "tool"), &result), PartPolicy::Strict).unwrap(),
        )
        .unwrap();
        assert_eq!(without_result_type(to_rmcp(result)), rendered);
    }
    // A structured success, lowered or typed: the same `structuredContent`.
    let lowered = toolresult::ToolResult::<_>::ok(Rows { rows: 3 }).lower();
    let rendered = serde_json::to_value(
        Mcp::render(&(CallRef::new("1", "tool"), &lowered), PartPolicy::Strict).unwrap(),
    )
    .unwrap();
    assert_eq!(
        rendered,
        json!({"content": [{"type": "text", "text": r#"{"rows":3}"#}], "structuredContent": {"rows": 3}, "isError": false})
    );
    assert_eq!(without_result_type(to_rmcp(lowered)), rendered);
    let typed = toolresult::ToolResult::<_>::ok(Rows { rows: 3 });
    assert_eq!(without_result_type(to_rmcp(typed)), rendered);
}

#[test]
fn rmcp_blocks_are_the_expected_variants() {
    let answer = to_rmcp(ToolResult::ok("x").with_parts([png(), pdf()]));
    assert_eq!(answer.is_error, Some(false));
    assert!(matches!(&answer.content[0], ContentBlock::Text(t) if t.text == "x"));
    assert!(
        matches!(&answer.content[1], ContentBlock::Image(i) if i.data == png_b64() && i.mime_type == "image/png")
    );
    assert!(matches!(&answer.content[2], ContentBlock::Resource(_)));
}

#[test]
fn an_rmcp_result_from_a_server_reads_by_the_contract() {
    let answer = CallToolResult::structured(json!({"rows": 3}));
    assert_eq!(read(&answer).output, r#"{"rows":3}"#);
    let failed = read(&CallToolResult::error(vec![ContentBlock::text("boom")]));
    assert!(failed.is_error);
    assert_eq!(failed.output, "boom");
}
