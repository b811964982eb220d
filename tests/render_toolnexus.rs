//! Conversions between the canonical result and `toolnexus::ToolResult`.
#![cfg(feature = "toolnexus")]

mod common;

use common::*;
use toolresult::canonical::{ContentPart, Request, ToolResult};
use toolresult::provider::ConvertError;

#[test]
fn toolnexus_round_trip_keeps_the_result() {
    let url = ContentPart::from_url("https://example.com/a.png", Some("image/png")).unwrap();
    let cases = [
        text_only(),
        error(),
        image(),
        with_pdf(),
        with_wav(),
        ToolResult::ok("a").with_parts([ContentPart::text("b"), url]),
        ToolResult::ok("x").with_meta("count", 2),
        ToolResult::pending(Request::input("Which environment?")),
    ];
    for result in cases {
        let theirs = toolnexus::ToolResult::from(&result);
        assert_eq!(ToolResult::try_from(&theirs).unwrap(), result);
        assert_eq!(ToolResult::try_from(theirs).unwrap(), result);
    }
}

#[test]
fn the_wire_forms_agree() {
    let result = ToolResult::ok("two")
        .with_parts([png(), pdf()])
        .with_meta("k", "v");
    let theirs = toolnexus::ToolResult::from(result.clone());
    assert_eq!(
        serde_json::to_string(&theirs).unwrap(),
        serde_json::to_string(&result).unwrap()
    );
}

#[test]
fn a_toolnexus_part_that_breaks_the_contract_is_an_error() {
    let theirs = toolnexus::ToolResult {
        output: "x".into(),
        is_error: false,
        parts: vec![
            toolnexus::tool::ContentPart {
                kind: "text".into(),
                text: "fine".into(),
                ..Default::default()
            },
            toolnexus::tool::ContentPart {
                kind: "image".into(),
                mime_type: "image/png".into(),
                ..Default::default()
            },
        ],
        metadata: None,
    };
    let err = ToolResult::try_from(&theirs).unwrap_err();
    assert!(matches!(&err, ConvertError::InvalidPart { at, .. } if at == "parts[1]"));
    assert_eq!(
        err.to_string(),
        "parts[1]: an image part has neither `data` nor `url`; it must have exactly one"
    );
}
