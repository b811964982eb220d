//! Fixtures shared by the rendering tests.
#![allow(dead_code)]

use toolresult::canonical::{ContentPart, PartLimit, ToolResult};

/// The committed golden base64 of `fixture.png`.
pub fn png_b64() -> String {
    std::fs::read_to_string("tests/fixtures/fixture.png.base64")
        .unwrap()
        .trim()
        .to_owned()
}

pub fn png() -> ContentPart {
    ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default()).unwrap()
}

/// `%PDF`, base64 `JVBERg==`.
pub fn pdf() -> ContentPart {
    ContentPart::from_bytes(b"%PDF".to_vec(), "application/pdf")
        .unwrap()
        .with_name("q3.pdf")
}

/// `RIFF`, base64 `UklGRg==`.
pub fn wav() -> ContentPart {
    ContentPart::from_bytes(b"RIFF".to_vec(), "audio/wav").unwrap()
}

/// `OggS`, base64 `T2dnUw==`.
pub fn ogg() -> ContentPart {
    ContentPart::from_bytes(b"OggS".to_vec(), "audio/ogg").unwrap()
}

pub fn text_only() -> ToolResult {
    ToolResult::ok("eu-west-1")
}

pub fn error() -> ToolResult {
    ToolResult::error("No such config key: nope")
}

pub fn image() -> ToolResult {
    ToolResult::ok("image (image/png, 82 bytes)").with_parts([png()])
}

pub fn with_pdf() -> ToolResult {
    ToolResult::ok("file (application/pdf, 4 bytes)").with_parts([pdf()])
}

pub fn with_wav() -> ToolResult {
    ToolResult::ok("audio (audio/wav, 4 bytes)").with_parts([wav()])
}

pub fn with_ogg() -> ToolResult {
    ToolResult::ok("audio (audio/ogg, 4 bytes)").with_parts([ogg()])
}

pub fn json<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).unwrap()
}
