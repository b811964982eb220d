//! Conversions between the canonical result and `rmcp::model::CallToolResult`.
#![cfg(feature = "rmcp")]

mod common;

use common::*;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::json;
use toolresult::canonical::{ContentPart, ToolResult};
use toolresult::render::mcp;

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
        let answer = CallToolResult::from(&result);
        let back = ToolResult::try_from(&answer).unwrap();
        assert_eq!(back, result, "{result:?}");
        assert_eq!(ToolResult::try_from(answer).unwrap(), result);
    }
}

#[test]
fn rmcp_json_is_the_rendered_json() {
    let value = json!({"rows": 3});
    for (result, structured) in cases()
        .into_iter()
        .map(|r| (r, None))
        .chain([(ToolResult::ok(value.to_string()), Some(&value))])
    {
        let mut from_rmcp = serde_json::to_value(mcp::to_rmcp(&result, structured)).unwrap();
        // rmcp writes the newer protocol's `resultType`; absent means the same.
        assert_eq!(
            from_rmcp.as_object_mut().unwrap().remove("resultType"),
            Some(json!("complete"))
        );
        assert_eq!(
            from_rmcp,
            serde_json::to_value(mcp::render(&result, structured)).unwrap()
        );
    }
}

#[test]
fn rmcp_blocks_are_the_expected_variants() {
    let answer = CallToolResult::from(ToolResult::ok("x").with_parts([png(), pdf()]));
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
    let read = ToolResult::try_from(&answer).unwrap();
    assert_eq!(read.output, r#"{"rows":3}"#);
    let failed = CallToolResult::error(vec![ContentBlock::text("boom")]);
    let read = ToolResult::try_from(failed).unwrap();
    assert!(read.is_error);
    assert_eq!(read.output, "boom");
}
