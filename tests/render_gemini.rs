//! Gemini golden renderings.

mod common;

use common::*;
use serde_json::json;
use toolresult::canonical::{ContentPart, ToolResult};
use toolresult::provider::{CallRef, Gemini, PartPolicy, Provider, RenderError};

const CALL: CallRef<'static> = CallRef::new("", "lookup");

fn render(result: &ToolResult, policy: PartPolicy) -> serde_json::Value {
    json(&Gemini::render(&(CALL, result), policy).unwrap())
}

#[test]
fn text_only_is_one_function_response() {
    let result = text_only();
    let answer = (CALL, &result);
    let parts = Gemini::render(&answer, PartPolicy::Strict).unwrap();
    assert_eq!(
        serde_json::to_string(&parts).unwrap(),
        r#"[{"functionResponse":{"name":"lookup","response":{"output":"eu-west-1"}}}]"#
    );
}

#[test]
fn the_call_id_is_written_when_there_is_one() {
    let call = CallRef::new("fc_1", "lookup");
    let result = text_only();
    let answer = (call, &result);
    let parts = Gemini::render(&answer, PartPolicy::Strict).unwrap();
    assert_eq!(
        serde_json::to_string(&parts).unwrap(),
        r#"[{"functionResponse":{"id":"fc_1","name":"lookup","response":{"output":"eu-west-1"}}}]"#
    );
}

#[test]
fn error_is_an_error_response() {
    assert_eq!(
        render(&error(), PartPolicy::Strict),
        json!([{"functionResponse": {"name": "lookup", "response": {"error": "No such config key: nope"}}}])
    );
}

#[test]
fn image_follows_as_inline_data() {
    assert_eq!(
        render(&image(), PartPolicy::Strict),
        json!([
            {"functionResponse": {"name": "lookup", "response": {"output": "image (image/png, 82 bytes)"}}},
            {"inlineData": {"mimeType": "image/png", "data": png_b64()}}
        ])
    );
}

#[test]
fn pdf_and_audio_follow_as_inline_data() {
    assert_eq!(
        render(&with_pdf(), PartPolicy::Strict)[1],
        json!({"inlineData": {"mimeType": "application/pdf", "data": "JVBERg=="}})
    );
    assert_eq!(
        render(&with_wav(), PartPolicy::Strict)[1],
        json!({"inlineData": {"mimeType": "audio/wav", "data": "UklGRg=="}})
    );
    assert_eq!(
        render(&with_ogg(), PartPolicy::Strict)[1],
        json!({"inlineData": {"mimeType": "audio/ogg", "data": "T2dnUw=="}})
    );
}

#[test]
fn url_parts_are_file_data() {
    let part = ContentPart::from_url("gs://bucket/a.pdf", Some("application/pdf")).unwrap();
    let result = ToolResult::ok("the report").with_parts([part]);
    assert_eq!(
        render(&result, PartPolicy::Strict)[1],
        json!({"fileData": {"mimeType": "application/pdf", "fileUri": "gs://bucket/a.pdf"}})
    );
}

#[test]
fn text_parts_follow_as_text() {
    let result = ToolResult::ok("3 rows").with_parts([ContentPart::text("row 1")]);
    assert_eq!(
        render(&result, PartPolicy::Strict)[1],
        json!({"text": "row 1"})
    );
}

#[test]
fn unsupported_parts_become_placeholders_or_fail() {
    let gif = ContentPart::from_bytes(b"GIF8".to_vec(), "image/gif").unwrap();
    let result = ToolResult::ok("a gif").with_parts([gif]);
    assert_eq!(
        render(&result, PartPolicy::Placeholder)[1],
        json!({"text": "[unsupported image part (image/gif, 4 bytes)]"})
    );
    let err = Gemini::render(&(CALL, &result), PartPolicy::Strict).unwrap_err();
    assert!(matches!(
        err,
        RenderError::UnsupportedPart {
            style: "Gemini",
            index: 0,
            ..
        }
    ));
}
