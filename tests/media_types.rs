//! A part's mime type is matched case-insensitively and written in lower
//! case (`type/subtype`; parameters as given), so every rendering writes the
//! spelling providers accept: Anthropic refuses `"media_type":"Image/PNG"`.

use serde_json::{Value, json};
use toolresult::canonical::PartLimit;
use toolresult::canonical::{ContentPart, PartKind, ToolResult};
use toolresult::provider::{Anthropic, CallRef, Mcp, PartPolicy, Provider};

/// The image media types Anthropic's Messages API documents for a base64
/// image source, each with spellings a tool might use.
const ANTHROPIC_IMAGES: [(&str, &[&str]); 4] = [
    ("image/jpeg", &["IMAGE/JPEG", "Image/Jpeg", "image/JPEG"]),
    ("image/png", &["Image/PNG", "IMAGE/png", "image/Png"]),
    ("image/gif", &["IMAGE/GIF", "Image/gif"]),
    ("image/webp", &["Image/WebP", "IMAGE/WEBP"]),
];

fn anthropic_media_type(part: ContentPart) -> Value {
    let result = ToolResult::ok("an image").with_parts([part]);
    let answer = (CallRef::new("toolu_1", "shot"), &result);
    let block = Anthropic::render(&answer, PartPolicy::Strict).unwrap();
    let value = serde_json::to_value(&block).unwrap();
    value["content"][1]["source"]["media_type"].clone()
}

#[test]
fn every_constructor_writes_anthropics_media_types_in_lower_case() {
    for (documented, spellings) in ANTHROPIC_IMAGES {
        for spelling in spellings {
            let from_bytes = ContentPart::from_bytes(b"GIF8".to_vec(), spelling).unwrap();
            assert_eq!(from_bytes.mime_type(), Some(documented));
            assert_eq!(from_bytes.kind(), PartKind::Image);
            assert_eq!(anthropic_media_type(from_bytes), json!(documented));

            let from_reader =
                ContentPart::from_reader(&b"GIF8"[..], spelling, PartLimit::default()).unwrap();
            assert_eq!(anthropic_media_type(from_reader), json!(documented));

            let data_url = format!("data:{spelling};base64,R0lGOA==");
            let from_data_url = ContentPart::from_url(&data_url, None).unwrap();
            assert_eq!(anthropic_media_type(from_data_url), json!(documented));

            let kept = ContentPart::from_url("https://example.com/a", Some(spelling)).unwrap();
            assert_eq!(kept.mime_type(), Some(documented));
        }
    }
}

#[test]
fn parsing_writes_the_mime_type_in_lower_case() {
    for (documented, spellings) in ANTHROPIC_IMAGES {
        for spelling in spellings {
            let json = format!(r#"{{"type":"image","mimeType":"{spelling}","data":"R0lGOA=="}}"#);
            let part: ContentPart = serde_json::from_str(&json).unwrap();
            assert_eq!(part.mime_type(), Some(documented));
            assert_eq!(
                serde_json::to_string(&part).unwrap(),
                format!(r#"{{"type":"image","mimeType":"{documented}","data":"R0lGOA=="}}"#)
            );
            assert_eq!(anthropic_media_type(part), json!(documented));
        }
    }
    // From MCP too.
    let read = Mcp::read_result(
        json!({
            "content": [{"type": "image", "mimeType": "Image/PNG", "data": "R0lGOA=="}]
        })
        .to_string(),
        PartLimit::default(),
    )
    .unwrap();
    assert_eq!(read.parts[0].mime_type(), Some("image/png"));
}

#[test]
fn parameters_stay_as_given() {
    let part = ContentPart::from_bytes(b"a,b".to_vec(), "Text/CSV;Charset=UTF-8").unwrap();
    assert_eq!(part.mime_type(), Some("text/csv;Charset=UTF-8"));
    let url = part.data_url().unwrap();
    assert_eq!(url, "data:text/csv;Charset=UTF-8;base64,YSxi");
}
