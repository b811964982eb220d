//! Conversions of the crate's results into `rmcp::model::CallToolResult`,
//! and reading one back through `Mcp::read_result`.
#![cfg(feature = "rmcp")]

mod common;

use common::*;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ResultType};
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
    // The conversion adds the 2026-07-28 revision's `resultType`, which
    // the rendered JSON, written for no revision in particular, leaves out.
    fn without_result_type(answer: CallToolResult) -> serde_json::Value {
        let mut value = serde_json::to_value(answer).unwrap();
        let result_type = value.as_object_mut().unwrap().remove("resultType");
        assert_eq!(result_type, Some(json!("complete")));
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

/// Every kind of block, and the results with no parts: the rmcp result is
/// built straight from the rendering's decision, with no JSON between.
fn every_block() -> Vec<ToolResult> {
    let unnamed = ContentPart::from_bytes(b"%PDF-1.4".to_vec(), "application/pdf").unwrap();
    let spaced = pdf().with_name("Q3 report (final).pdf");
    let text = ContentPart::text("a text part");
    let mut all = cases();
    all.extend([
        ToolResult::ok(""),
        ToolResult::error(""),
        ToolResult::ok("").with_parts([png()]),
        ToolResult::error("failed").with_parts([unnamed, spaced, text]),
    ]);
    all
}

#[test]
fn rmcp_result_is_what_rmcp_reads_from_the_rendered_json() {
    for result in every_block() {
        let rendered = serde_json::to_string(
            &Mcp::render(&(CallRef::new("1", "tool"), &result), PartPolicy::Strict).unwrap(),
        )
        .unwrap();
        let mut read_back: CallToolResult = serde_json::from_str(&rendered).unwrap();
        read_back.result_type = Some(ResultType::COMPLETE);
        let built = to_rmcp(result.clone());
        assert_eq!(built, read_back, "{result:?}");
        // The same bytes, `resultType` first where rmcp writes it.
        assert_eq!(
            serde_json::to_string(&built).unwrap(),
            format!(r#"{{"resultType":"complete",{}"#, &rendered[1..]),
            "{result:?}"
        );
    }
    let lowered = toolresult::ToolResult::<_>::ok(Rows { rows: 3 }).lower();
    let rendered = serde_json::to_string(
        &Mcp::render(&(CallRef::new("1", "tool"), &lowered), PartPolicy::Strict).unwrap(),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_string(&to_rmcp(lowered)).unwrap(),
        format!(r#"{{"resultType":"complete",{}"#, &rendered[1..])
    );
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
