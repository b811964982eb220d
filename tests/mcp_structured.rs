//! MCP `structuredContent`: decided once at lowering, the text block is
//! `output` byte for byte, and reading the answer back gives `output` back.

mod support;
use support::call;

use serde::Serialize;
use toolresult::canonical::ContentPart;
use toolresult::canonical::PartLimit;
use toolresult::provider::{CallRef, Mcp, PartPolicy, Provider};
use toolresult::tool;
use toolresult::{IntoToolResult, ToolError, ToolResult};

/// Fields out of alphabetical order, and strings that a re-serialiser would
/// escape or reorder.
#[derive(Serialize, schemars::JsonSchema)]
struct Report {
    zone: &'static str,
    city: &'static str,
    note: &'static str,
    celsius: f64,
    alerts: Vec<&'static str>,
}

fn report() -> Report {
    Report {
        zone: "Europe/Oslo",
        city: "Tromsø & Bodø",
        note: "<b>cold</b> \u{2028} line\u{1} \"quoted\" \\ tab\t",
        celsius: -3.5,
        alerts: vec!["ice > 2 cm", "wind < 40 km/h"],
    }
}

/// The output written by hand: serde's field order, JSON escapes only for
/// `"`, `\` and control characters (U+0001 as `\u0001`, tab as `\t`);
/// U+2028 stays as it is.
const REPORT_JSON: &str = "{\"zone\":\"Europe/Oslo\",\"city\":\"Tromsø & Bodø\",\"note\":\"<b>cold</b> \u{2028} line\\u0001 \\\"quoted\\\" \\\\ tab\\t\",\"celsius\":-3.5,\"alerts\":[\"ice > 2 cm\",\"wind < 40 km/h\"]}";

#[test]
fn output_is_the_json_of_the_value_in_field_order() {
    let lowered = ToolResult::<_>::ok(report()).lower();
    assert_eq!(lowered.result.output, REPORT_JSON);
    assert_eq!(
        lowered.structured_content().map(|raw| raw.get()),
        Some(REPORT_JSON)
    );
}

#[test]
fn text_block_is_output_byte_for_byte() {
    let lowered = ToolResult::<_>::ok(report()).lower();
    let answer = serde_json::to_string(
        &Mcp::render(&(CallRef::new("1", "tool"), &lowered), PartPolicy::Strict).unwrap(),
    )
    .unwrap();
    let expected = format!(
        r#"{{"content":[{{"type":"text","text":{}}}],"structuredContent":{REPORT_JSON},"isError":false}}"#,
        serde_json::to_string(REPORT_JSON).unwrap()
    );
    assert_eq!(answer, expected);
    let value: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(value["content"][0]["text"].as_str(), Some(REPORT_JSON));
}

#[test]
fn round_trip_gives_output_back_byte_for_byte() {
    let lowered = ToolResult::<_>::ok(report()).lower();
    let answer = serde_json::to_value(
        Mcp::render(&(CallRef::new("1", "tool"), &lowered), PartPolicy::Strict).unwrap(),
    )
    .unwrap();
    let back = Mcp::read_result(answer.to_string(), PartLimit::default()).unwrap();
    assert_eq!(back.output, REPORT_JSON);
    assert_eq!(back, lowered.result);
    // A second trip changes nothing.
    let again = Mcp::read_result(
        serde_json::to_value(
            Mcp::render(&(CallRef::new("1", "tool"), &back), PartPolicy::Strict).unwrap(),
        )
        .unwrap()
        .to_string(),
        PartLimit::default(),
    )
    .unwrap();
    assert_eq!(again, back);
}

#[test]
fn a_tool_call_carries_the_same_structured_content() {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct NoArgs {}
    let weather = tool::function("weather", "Weather", |_: NoArgs| {
        ToolResult::<_>::ok(report())
    })
    .unwrap();
    let lowered = call(&weather, serde_json::json!({}));
    assert_eq!(
        lowered.structured_content().map(|raw| raw.get()),
        Some(REPORT_JSON)
    );
    let declared = serde_json::to_value(Mcp::declare(&weather)).unwrap();
    assert_eq!(declared["outputSchema"]["type"], "object");
}

#[test]
fn only_a_typed_object_success_is_structured() {
    let none = |lowered: toolresult::Lowered| lowered.structured_content().is_none();
    assert!(none(ToolResult::<_>::ok(5).lower()));
    assert!(none(ToolResult::<_>::ok(vec![1, 2]).lower()));
    assert!(none(ToolResult::<_>::ok("{\"a\":1}").lower()));
    assert!(none(ToolResult::<u8>::fail(ToolError::new("no")).lower()));
    assert!(none(
        toolresult::canonical::ToolResult::ok("{\"a\":1}").lower()
    ));
    assert!(!none(serde_json::json!({"a": 1}).lower()));
    // With parts beside it, the value is still the structured content.
    let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default()).unwrap();
    let with_part = ToolResult::<_>::ok(serde_json::json!({"a": 1}))
        .with_parts([png])
        .lower();
    assert_eq!(
        with_part.structured_content().map(|raw| raw.get()),
        Some(r#"{"a":1}"#)
    );
}

#[test]
fn output_changed_after_lowering_is_checked_again() {
    let mut lowered = ToolResult::<_>::ok(report()).lower();
    lowered.result.output = "not json any more".to_owned();
    assert!(lowered.structured_content().is_none());
    let mut lowered = ToolResult::<_>::ok(report()).lower();
    lowered.result.output = "[1,2]".to_owned();
    assert!(lowered.structured_content().is_none());
}

#[test]
fn a_peer_that_reorders_structured_content_still_reads_back_its_text() {
    // Another server wrote its text block in its own key order and
    // structuredContent in another: the text block is the output.
    let answer = serde_json::json!({
        "content": [{"type": "text", "text": "{\"b\":1,\"a\":\"x&y\"}"}],
        "structuredContent": {"a": "x&y", "b": 1},
        "isError": false
    });
    assert_eq!(
        Mcp::read_result(answer.to_string(), PartLimit::default())
            .unwrap()
            .output,
        "{\"b\":1,\"a\":\"x&y\"}"
    );
    // Without a matching text block, the contract's own JSON of the value.
    let answer = serde_json::json!({
        "content": [{"type": "text", "text": "3 rows"}],
        "structuredContent": {"rows": "<3>"},
        "isError": false
    });
    assert_eq!(
        Mcp::read_result(answer.to_string(), PartLimit::default())
            .unwrap()
            .output,
        r#"{"rows":"\u003c3\u003e"}"#
    );
}

#[test]
fn a_turn_reply_keeps_structured_content_from_a_lowered_pair() {
    use toolresult::provider::{CallRef, Provider};
    let lowered = ToolResult::<_>::ok(report()).lower();
    let with = [(CallRef::new("1", "weather"), &lowered)];
    let answers = serde_json::to_value(Mcp::reply(&with, PartPolicy::Strict).unwrap()).unwrap();
    assert_eq!(
        answers[0]["structuredContent"],
        serde_json::from_str::<serde_json::Value>(REPORT_JSON).unwrap()
    );
    // A canonical result alone has none to give.
    let without = [(CallRef::new("1", "weather"), &lowered.result)];
    let answers = serde_json::to_value(Mcp::reply(&without, PartPolicy::Strict).unwrap()).unwrap();
    assert!(answers[0].get("structuredContent").is_none());
}
