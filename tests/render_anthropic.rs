//! Anthropic Messages golden renderings.

mod common;

use common::*;
use serde_json::json;
use toolresult::canonical::{ContentPart, ToolResult};
use toolresult::provider::{Anthropic, CallRef, PartPolicy, Provider, RenderError};

const CALL: CallRef<'static> = CallRef::new("toolu_1", "lookup");

fn render(result: &ToolResult, policy: PartPolicy) -> serde_json::Value {
    json(&Anthropic::render(&(CALL, result), policy).unwrap())
}

#[test]
fn text_only_content_is_the_plain_string() {
    let result = text_only();
    let answer = (CALL, &result);
    let block = Anthropic::render(&answer, PartPolicy::Strict).unwrap();
    assert_eq!(
        serde_json::to_string(&block).unwrap(),
        r#"{"type":"tool_result","tool_use_id":"toolu_1","content":"eu-west-1"}"#
    );
}

#[test]
fn error_sets_is_error() {
    assert_eq!(
        serde_json::to_string(&Anthropic::render(&(CALL, &error()), PartPolicy::Strict).unwrap())
            .unwrap(),
        r#"{"type":"tool_result","tool_use_id":"toolu_1","content":"No such config key: nope","is_error":true}"#
    );
}

#[test]
fn text_the_api_counts_as_empty_is_never_sent() {
    // The Messages API: "content cannot be empty if `is_error` is true",
    // "text content blocks must contain non-whitespace text".
    for silent in [ToolResult::error(""), ToolResult::error(" \n")] {
        assert_eq!(
            serde_json::to_string(
                &Anthropic::render(&(CALL, &silent), PartPolicy::Strict).unwrap()
            )
            .unwrap(),
            r#"{"type":"tool_result","tool_use_id":"toolu_1","content":"the tool failed without saying why","is_error":true}"#
        );
    }
    let gif = ContentPart::from_bytes(b"GIF8".to_vec(), "image/gif").unwrap();
    let blank_texts = ToolResult::ok(" ").with_parts([ContentPart::text(""), gif]);
    assert_eq!(
        render(&blank_texts, PartPolicy::Strict),
        json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/gif", "data": "R0lGOA=="}}
        ]})
    );
    let only_blank = ToolResult::error("").with_parts([ContentPart::text("\t")]);
    assert_eq!(
        render(&only_blank, PartPolicy::Strict),
        json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": "the tool failed without saying why", "is_error": true})
    );
    // A success may say nothing.
    assert_eq!(
        render(&ToolResult::ok(""), PartPolicy::Strict),
        json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": ""})
    );
}

#[test]
fn image_is_a_base64_image_block_after_the_text() {
    assert_eq!(
        render(&image(), PartPolicy::Strict),
        json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "text", "text": "image (image/png, 82 bytes)"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png_b64()}}
        ]})
    );
}

#[test]
fn image_by_url_is_a_url_source() {
    let part = ContentPart::from_url("https://example.com/a.png", Some("image/png")).unwrap();
    let result = ToolResult::ok("a chart").with_parts([part]);
    assert_eq!(
        render(&result, PartPolicy::Strict)["content"][1],
        json!({"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}})
    );
}

#[test]
fn pdf_is_a_document_block() {
    assert_eq!(
        render(&with_pdf(), PartPolicy::Strict)["content"][1],
        json!({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERg=="}})
    );
}

#[test]
fn text_comes_first() {
    let result = ToolResult::ok("two things").with_parts([png(), ContentPart::text("a note")]);
    let content = &render(&result, PartPolicy::Strict)["content"];
    assert_eq!(content[0], json!({"type": "text", "text": "two things"}));
    assert_eq!(content[1], json!({"type": "text", "text": "a note"}));
    assert_eq!(content[2]["type"], "image");
}

#[test]
fn audio_becomes_a_placeholder() {
    assert_eq!(
        render(&with_wav(), PartPolicy::Placeholder)["content"],
        json!([
            {"type": "text", "text": "audio (audio/wav, 4 bytes)"},
            {"type": "text", "text": "[unsupported audio part (audio/wav, 4 bytes)]"}
        ])
    );
}

#[test]
fn audio_fails_in_strict_mode() {
    let err = Anthropic::render(&(CALL, &with_wav()), PartPolicy::Strict).unwrap_err();
    assert!(matches!(
        &err,
        RenderError::UnsupportedPart { style: "Anthropic", index: 0, part, .. }
            if part == "audio (audio/wav, 4 bytes)"
    ));
}
