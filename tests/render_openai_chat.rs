//! OpenAI Chat Completions golden renderings.

mod common;

use common::*;
use serde_json::json;
use toolresult::canonical::{ContentPart, ToolResult};
use toolresult::provider::{CallRef, OpenAiChat, PartPolicy, Provider, RenderError};

const CALL: CallRef<'static> = CallRef::new("call_1", "lookup");

fn turn(result: &ToolResult, policy: PartPolicy) -> serde_json::Value {
    json(&OpenAiChat::reply(&[(CALL, result)], policy).unwrap())
}

#[test]
fn text_only_is_byte_identical_to_a_plain_string_tool_message() {
    let result = text_only();
    // A tool message written the way it is without parts: three plain strings.
    #[derive(serde::Serialize)]
    struct Plain<'a> {
        role: &'a str,
        tool_call_id: &'a str,
        content: &'a str,
    }
    let plain = Plain {
        role: "tool",
        tool_call_id: "call_1",
        content: "eu-west-1",
    };
    // A one-call turn without parts is that one tool message.
    let one_call = [(CALL, &result)];
    let messages = OpenAiChat::reply(&one_call, PartPolicy::Strict).unwrap();
    let rendered = serde_json::to_string(&messages).unwrap();
    assert_eq!(
        rendered,
        format!("[{}]", serde_json::to_string(&plain).unwrap())
    );
    assert_eq!(
        rendered,
        r#"[{"role":"tool","tool_call_id":"call_1","content":"eu-west-1"}]"#
    );
}

#[test]
fn error_is_a_plain_tool_message() {
    assert_eq!(
        turn(&error(), PartPolicy::Strict),
        json!([{"role": "tool", "tool_call_id": "call_1", "content": "No such config key: nope"}])
    );
}

#[test]
fn image_moves_into_a_user_message() {
    assert_eq!(
        turn(&image(), PartPolicy::Strict),
        json!([
            {"role": "tool", "tool_call_id": "call_1", "content": "image (image/png, 82 bytes)"},
            {"role": "user", "content": [
                {"type": "text", "text": "Output of tool lookup (call_1):"},
                {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", png_b64())}}
            ]}
        ])
    );
}

#[test]
fn image_by_url_keeps_the_url() {
    let part = ContentPart::from_url("https://example.com/a.png", Some("image/png")).unwrap();
    let result = ToolResult::ok("a chart").with_parts([part]);
    assert_eq!(
        turn(&result, PartPolicy::Strict)[1]["content"][1],
        json!({"type": "image_url", "image_url": {"url": "https://example.com/a.png"}})
    );
}

#[test]
fn pdf_is_a_file_item() {
    assert_eq!(
        turn(&with_pdf(), PartPolicy::Strict)[1]["content"][1],
        json!({"type": "file", "file": {"filename": "q3.pdf", "file_data": "data:application/pdf;base64,JVBERg=="}})
    );
    let unnamed = ContentPart::from_bytes(b"%PDF".to_vec(), "application/pdf").unwrap();
    let result = ToolResult::ok("a report").with_parts([unnamed]);
    assert_eq!(
        turn(&result, PartPolicy::Strict)[1]["content"][1]["file"]["filename"],
        "file.pdf"
    );
}

#[test]
fn wav_and_mp3_are_input_audio() {
    assert_eq!(
        turn(&with_wav(), PartPolicy::Strict)[1]["content"][1],
        json!({"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}})
    );
    let mp3 = ContentPart::from_bytes(b"ID3".to_vec(), "audio/mpeg").unwrap();
    let result = ToolResult::ok("a song").with_parts([mp3]);
    assert_eq!(
        turn(&result, PartPolicy::Strict)[1]["content"][1],
        json!({"type": "input_audio", "input_audio": {"data": "SUQz", "format": "mp3"}})
    );
}

#[test]
fn a_turn_of_two_calls_relocates_only_the_image_after_the_last_tool_message() {
    let found = text_only();
    let shot = image();
    let results = [
        (CallRef::new("call_1", "region"), &found),
        (CallRef::new("call_2", "screenshot"), &shot),
    ];
    let messages = OpenAiChat::reply(&results, PartPolicy::Strict).unwrap();
    assert_eq!(
        json(&messages),
        json!([
            {"role": "tool", "tool_call_id": "call_1", "content": "eu-west-1"},
            {"role": "tool", "tool_call_id": "call_2", "content": "image (image/png, 82 bytes)"},
            {"role": "user", "content": [
                {"type": "text", "text": "Output of tool screenshot (call_2):"},
                {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", png_b64())}}
            ]}
        ])
    );
}

#[test]
fn parts_of_several_results_share_one_user_message_in_call_order() {
    let shot = image();
    let report = with_pdf();
    let results = [
        (CallRef::new("call_1", "screenshot"), &shot),
        (CallRef::new("call_2", "report"), &report),
    ];
    let value = json(&OpenAiChat::reply(&results, PartPolicy::Strict).unwrap());
    assert_eq!(value.as_array().unwrap().len(), 3);
    let items = &value[2]["content"];
    assert_eq!(items[0]["text"], "Output of tool screenshot (call_1):");
    assert_eq!(items[1]["type"], "image_url");
    assert_eq!(items[2]["text"], "Output of tool report (call_2):");
    assert_eq!(items[3]["type"], "file");
}

#[test]
fn text_parts_stay_in_the_tool_message() {
    let result = ToolResult::ok("3 rows").with_parts([ContentPart::text("row 1"), png()]);
    let value = turn(&result, PartPolicy::Strict);
    assert_eq!(
        value[0],
        json!({"role": "tool", "tool_call_id": "call_1", "content": [
            {"type": "text", "text": "3 rows"},
            {"type": "text", "text": "row 1"}
        ]})
    );
    assert_eq!(value[1]["content"][1]["type"], "image_url");
}

#[test]
fn unsupported_parts_become_placeholders() {
    let wav_url = ContentPart::from_url("https://example.com/a.wav", Some("audio/wav")).unwrap();
    let result = with_ogg().with_parts([wav_url]);
    assert_eq!(
        turn(&result, PartPolicy::Placeholder)[1],
        json!({"role": "user", "content": [
            {"type": "text", "text": "Output of tool lookup (call_1):"},
            {"type": "text", "text": "[unsupported audio part (audio/ogg, 4 bytes)]"},
            {"type": "text", "text": "[unsupported audio part (audio/wav, 0 bytes)]"}
        ]})
    );
}

#[test]
fn unsupported_parts_fail_in_strict_mode() {
    let result = with_ogg();
    let err = OpenAiChat::reply(&[(CALL, &result)], PartPolicy::Strict).unwrap_err();
    assert!(matches!(
        &err,
        RenderError::UnsupportedPart { index: 0, call_id, .. } if call_id == "call_1"
    ));
    assert_eq!(
        err.to_string(),
        "OpenAI Chat Completions cannot carry part 0 of the result of call `call_1`, \
         audio (audio/ogg, 4 bytes): only png, jpeg, webp and gif images, pdf files and wav and mp3 audio are accepted"
    );
}

#[test]
fn a_strict_error_never_echoes_a_whole_call_id() {
    // The id comes from the model's message, which any length passes.
    let id = "c".repeat(1_000_000);
    let result = with_ogg();
    let err = OpenAiChat::reply(&[(CallRef::new(&id, "speak"), &result)], PartPolicy::Strict)
        .unwrap_err();
    let short = format!("{}…", "c".repeat(64));
    assert!(matches!(&err, RenderError::UnsupportedPart { call_id, .. } if *call_id == short));
    assert!(err.to_string().len() < 300, "{}", err.to_string().len());
}

#[test]
fn render_is_one_calls_tool_message_then_the_user_message_with_its_parts() {
    let chart = ContentPart::from_url("https://example.com/a.png", Some("image/png")).unwrap();
    let result = ToolResult::ok("a chart").with_parts([chart]);
    let answer = (CallRef::new("call_2", "chart"), &result);
    let block = OpenAiChat::render(&answer, PartPolicy::Strict).unwrap();
    let expected = r#"[{"role":"tool","tool_call_id":"call_2","content":"a chart"},{"role":"user","content":[{"type":"text","text":"Output of tool chart (call_2):"},{"type":"image_url","image_url":{"url":"https://example.com/a.png"}}]}]"#;
    assert_eq!(serde_json::to_string(&block).unwrap(), expected);
    // The same bytes as the reply to a turn of that one call.
    let turn = [answer];
    let reply = OpenAiChat::reply(&turn, PartPolicy::Strict).unwrap();
    assert_eq!(serde_json::to_string(&reply).unwrap(), expected);

    let plain = ToolResult::ok("eu-west-1");
    let answer = (CALL, &plain);
    assert_eq!(
        serde_json::to_string(&OpenAiChat::render(&answer, PartPolicy::Strict).unwrap()).unwrap(),
        r#"[{"role":"tool","tool_call_id":"call_1","content":"eu-west-1"}]"#
    );
}

#[test]
fn render_under_strict_refuses_a_part_chat_cannot_carry() {
    let wav = ContentPart::from_url("https://example.com/a.wav", Some("audio/wav")).unwrap();
    let result = ToolResult::ok("a sound").with_parts([wav]);
    let err = OpenAiChat::render(&(CALL, &result), PartPolicy::Strict).unwrap_err();
    assert!(
        matches!(err, RenderError::UnsupportedPart { index: 0, .. }),
        "{err}"
    );
}
