//! OpenAI Responses golden renderings.

mod common;

use common::*;
use serde_json::json;
use toolresult::canonical::{ContentPart, ToolResult};
use toolresult::provider::{CallRef, OpenAiResponses, PartPolicy, Provider, RenderError};

const CALL: CallRef<'static> = CallRef::new("call_1", "lookup");

fn render(result: &ToolResult, policy: PartPolicy) -> serde_json::Value {
    json(&OpenAiResponses::render(&(CALL, result), policy).unwrap())
}

#[test]
fn text_only_output_is_the_plain_string() {
    let result = text_only();
    let answer = (CALL, &result);
    let item = OpenAiResponses::render(&answer, PartPolicy::Strict).unwrap();
    assert_eq!(
        serde_json::to_string(&item).unwrap(),
        r#"{"type":"function_call_output","call_id":"call_1","output":"eu-west-1"}"#
    );
}

#[test]
fn error_output_is_the_plain_string() {
    assert_eq!(
        render(&error(), PartPolicy::Strict),
        json!({"type": "function_call_output", "call_id": "call_1", "output": "No such config key: nope"})
    );
}

#[test]
fn image_is_an_input_image_with_a_data_url() {
    assert_eq!(
        render(&image(), PartPolicy::Strict),
        json!({"type": "function_call_output", "call_id": "call_1", "output": [
            {"type": "input_text", "text": "image (image/png, 82 bytes)"},
            {"type": "input_image", "image_url": format!("data:image/png;base64,{}", png_b64())}
        ]})
    );
}

#[test]
fn pdf_is_an_input_file() {
    assert_eq!(
        render(&with_pdf(), PartPolicy::Strict)["output"][1],
        json!({"type": "input_file", "filename": "q3.pdf", "file_data": "data:application/pdf;base64,JVBERg=="})
    );
    let url = ContentPart::from_url("https://example.com/q3.pdf", Some("application/pdf")).unwrap();
    let result = ToolResult::ok("the report").with_parts([url]);
    assert_eq!(
        render(&result, PartPolicy::Strict)["output"][1],
        json!({"type": "input_file", "file_url": "https://example.com/q3.pdf"})
    );
}

#[test]
fn audio_becomes_a_placeholder() {
    assert_eq!(
        render(&with_wav(), PartPolicy::Placeholder)["output"],
        json!([
            {"type": "input_text", "text": "audio (audio/wav, 4 bytes)"},
            {"type": "input_text", "text": "[unsupported audio part (audio/wav, 4 bytes)]"}
        ])
    );
}

#[test]
fn text_parts_are_input_text_in_order() {
    let result = ToolResult::ok("3 rows").with_parts([ContentPart::text("row 1"), png()]);
    let output = &render(&result, PartPolicy::Strict)["output"];
    assert_eq!(output[0], json!({"type": "input_text", "text": "3 rows"}));
    assert_eq!(output[1], json!({"type": "input_text", "text": "row 1"}));
    assert_eq!(output[2]["type"], "input_image");
}

#[test]
fn unsupported_parts_fail_in_strict_mode() {
    let svg = ContentPart::from_bytes(b"<svg/>".to_vec(), "image/svg+xml").unwrap();
    let result = ToolResult::ok("a logo").with_parts([svg]);
    let err = OpenAiResponses::render(&(CALL, &result), PartPolicy::Strict).unwrap_err();
    assert!(matches!(err, RenderError::UnsupportedPart { index: 0, .. }));
    assert_eq!(
        err.to_string(),
        "OpenAI Responses cannot carry part 0 of the result of call `call_1`, \
         image (image/svg+xml, 6 bytes): only png, jpeg, webp and gif images and pdf files are accepted"
    );
    assert_eq!(
        render(&result, PartPolicy::Placeholder)["output"][1]["text"],
        "[unsupported image part (image/svg+xml, 6 bytes)]"
    );
}
