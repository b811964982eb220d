//! MCP `CallToolResult`: golden renderings, reading, and round trips.

mod common;

use common::*;
use serde_json::json;
use toolresult::IntoToolResult;
use toolresult::canonical::PartLimit;
use toolresult::canonical::{ContentPart, PartKind, ToolResult};
use toolresult::provider::{CallRef, ConvertError, Mcp, PartPolicy, Provider};

fn render(result: &ToolResult) -> serde_json::Value {
    json(&Mcp::render(&(CallRef::new("1", "tool"), result), PartPolicy::Strict).unwrap())
}

fn round_trip(result: &ToolResult) -> ToolResult {
    Mcp::read_result(render(result).to_string(), PartLimit::default()).unwrap()
}

// ---- rendering ----

#[test]
fn text_only_golden() {
    assert_eq!(
        serde_json::to_string(
            &Mcp::render(
                &(CallRef::new("1", "tool"), &text_only()),
                PartPolicy::Strict
            )
            .unwrap()
        )
        .unwrap(),
        r#"{"content":[{"type":"text","text":"eu-west-1"}],"isError":false}"#
    );
}

#[test]
fn error_golden() {
    assert_eq!(
        serde_json::to_string(
            &Mcp::render(&(CallRef::new("1", "tool"), &error()), PartPolicy::Strict).unwrap()
        )
        .unwrap(),
        r#"{"content":[{"type":"text","text":"No such config key: nope"}],"isError":true}"#
    );
}

#[test]
fn image_golden() {
    assert_eq!(
        render(&image()),
        json!({"content": [
            {"type": "text", "text": "image (image/png, 82 bytes)"},
            {"type": "image", "data": png_b64(), "mimeType": "image/png"}
        ], "isError": false})
    );
}

#[test]
fn pdf_is_an_embedded_blob_resource() {
    assert_eq!(
        render(&with_pdf())["content"][1],
        json!({"type": "resource", "resource": {"uri": "file:///q3.pdf", "mimeType": "application/pdf", "blob": "JVBERg=="}})
    );
}

#[test]
fn audio_golden() {
    assert_eq!(
        render(&with_wav())["content"][1],
        json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"})
    );
}

#[test]
fn a_url_part_is_a_resource_link() {
    let part = ContentPart::from_url("https://example.com/q3.pdf", Some("application/pdf"))
        .unwrap()
        .with_name("q3.pdf");
    let result = ToolResult::ok("the report").with_parts([part]);
    assert_eq!(
        render(&result)["content"][1],
        json!({"type": "resource_link", "uri": "https://example.com/q3.pdf", "name": "q3.pdf", "mimeType": "application/pdf"})
    );
}

#[derive(serde::Serialize)]
struct Region {
    region: &'static str,
    note: &'static str,
}

#[test]
fn structured_content_is_also_the_text_block() {
    let lowered = toolresult::ToolResult::<_>::ok(Region {
        region: "eu-west-1",
        note: "a<b & c>d",
    })
    .lower();
    let answer = (CallRef::new("1", "tool"), &lowered);
    let rendered = Mcp::render(&answer, PartPolicy::Strict).unwrap();
    // The text block is `output` byte for byte: the struct's key order, and
    // `<`, `&`, `>` as they are; `structuredContent` the same bytes.
    assert_eq!(
        serde_json::to_string(&rendered).unwrap(),
        r#"{"content":[{"type":"text","text":"{\"region\":\"eu-west-1\",\"note\":\"a<b & c>d\"}"}],"structuredContent":{"region":"eu-west-1","note":"a<b & c>d"},"isError":false}"#
    );
    let value = json(&rendered);
    let text = value["content"][0]["text"].as_str().unwrap();
    assert_eq!(text, r#"{"region":"eu-west-1","note":"a<b & c>d"}"#);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(text).unwrap(),
        value["structuredContent"]
    );
}

#[test]
fn an_empty_output_beside_parts_writes_no_empty_text_block() {
    let result = ToolResult::ok("").with_parts([png()]);
    let content = &render(&result)["content"];
    assert_eq!(content.as_array().unwrap().len(), 1);
    assert_eq!(content[0]["type"], "image");
}

// ---- reading ----

#[test]
fn reads_structured_content_as_its_json() {
    let read = Mcp::read_result(
        json!({
            "content": [{"type": "text", "text": "ignored"}],
            "structuredContent": {"b": 1, "a": "<x>"}
        })
        .to_string(),
        PartLimit::default(),
    )
    .unwrap();
    assert_eq!(read.output, r#"{"a":"\u003cx\u003e","b":1}"#);
    assert!(!read.is_error);
}

#[test]
fn reads_an_error_as_its_non_blank_text_joined_by_a_blank_line() {
    let read = Mcp::read_result(
        json!({
            "content": [
                {"type": "text", "text": "first"},
                {"type": "text", "text": " "},
                {"type": "text", "text": "second"}
            ],
            "structuredContent": {"ignored": true},
            "isError": true
        })
        .to_string(),
        PartLimit::default(),
    )
    .unwrap();
    assert_eq!(read.output, "first\n\nsecond");
    assert!(read.is_error);
}

#[test]
fn reads_text_joined_by_newlines_with_resource_text_in_place() {
    let read = Mcp::read_result(json!({"content": [
        {"type": "text", "text": "a"},
        {"type": "resource", "resource": {"uri": "mem://notes", "mimeType": "text/plain", "text": "b"}},
        {"type": "text", "text": "c"}
    ]}).to_string(), PartLimit::default())
    .unwrap();
    assert_eq!(read.output, "a\nb\nc");
    assert!(read.parts.is_empty());
}

#[test]
fn non_text_content_always_becomes_parts() {
    let b64 = png_b64();
    let read = Mcp::read_result(json!({"content": [
        {"type": "text", "text": "here"},
        {"type": "image", "data": b64, "mimeType": "image/png"},
        {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
        {"type": "resource_link", "uri": "https://example.com/q3.pdf", "name": "q3", "mimeType": "application/pdf"},
        {"type": "resource", "resource": {"uri": "file:///srv/out/q3.pdf", "mimeType": "application/pdf", "blob": "JVBERg=="}}
    ], "structuredContent": {"n": 1}}).to_string(), PartLimit::default())
    .unwrap();
    assert_eq!(read.output, r#"{"n":1}"#);
    assert_eq!(read.parts.len(), 4);
    assert_eq!(read.parts[0], png());
    assert_eq!(read.parts[1], wav());
    assert_eq!(read.parts[2].kind(), PartKind::File);
    assert_eq!(read.parts[2].url(), Some("https://example.com/q3.pdf"));
    assert_eq!(read.parts[2].name(), Some("q3"));
    // The blob's name is the last segment of its URI, never the path.
    assert_eq!(read.parts[3], pdf());
}

#[test]
fn no_text_reads_as_the_describe_lines() {
    let read = Mcp::read_result(
        json!({"content": [
            {"type": "image", "data": png_b64(), "mimeType": "image/png"},
            {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}
        ]})
        .to_string(),
        PartLimit::default(),
    )
    .unwrap();
    assert_eq!(
        read.output,
        "image (image/png, 82 bytes)\naudio (audio/wav, 4 bytes)"
    );
    let failed = Mcp::read_result(
        json!({"content": [], "isError": true}).to_string(),
        PartLimit::default(),
    )
    .unwrap();
    assert_eq!(failed.output, "MCP tool returned an error");
}

#[test]
fn a_resource_without_a_mime_type_takes_it_from_the_uri() {
    let read = Mcp::read_result(
        json!({"content": [
            {"type": "resource", "resource": {"uri": "out/chart.PNG", "blob": "R0lGOA=="}},
            {"type": "resource_link", "uri": "https://example.com/data.bin", "name": "data"}
        ]})
        .to_string(),
        PartLimit::default(),
    )
    .unwrap();
    assert_eq!(read.parts[0].mime_type(), Some("image/png"));
    assert_eq!(read.parts[0].kind(), PartKind::File);
    assert_eq!(read.parts[1].mime_type(), Some("application/octet-stream"));
}

#[test]
fn invalid_content_is_a_clear_error() {
    let cases = [
        (json!([]), "the result: expected an object, found an array"),
        (
            json!({"isError": "yes"}),
            "isError: expected a boolean, found a string",
        ),
        (
            json!({"content": {}}),
            "content: expected an array, found an object",
        ),
        (
            json!({"content": [3]}),
            "content[0]: expected an object, found a number",
        ),
        (
            json!({"content": [{"text": "x"}]}),
            "content[0]: a content block has no `type`",
        ),
        (
            json!({"content": [{"type": "text"}]}),
            "content[0]: a text block has no `text`",
        ),
        (
            json!({"content": [{"type": "text", "text": 1}]}),
            "content[0].text: expected a string, found a number",
        ),
        (
            json!({"content": [{"type": "image", "data": "R0lGOA=="}]}),
            "content[0]: an image block has no `mimeType`",
        ),
        (
            json!({"content": [{"type": "video", "uri": "x"}]}),
            "content[0]: unknown content type `video`: expected one of `text`, `image`, `audio`, `resource`, `resource_link`",
        ),
        (
            json!({"content": [{"type": "resource"}]}),
            "content[0]: a resource block has no `resource`",
        ),
        (
            json!({"content": [{"type": "resource", "resource": {"uri": "a.pdf"}}]}),
            "content[0].resource: an embedded resource without `text` has no `blob`",
        ),
    ];
    for (value, message) in cases {
        assert_eq!(
            Mcp::read_result(value.to_string(), PartLimit::default())
                .unwrap_err()
                .to_string(),
            message,
            "{value}"
        );
    }
}

#[test]
fn content_that_breaks_the_part_contract_names_the_block() {
    let bad_base64 =
        json!({"content": [{"type": "image", "data": "not base64!", "mimeType": "image/png"}]});
    let err = Mcp::read_result(bad_base64.to_string(), PartLimit::default()).unwrap_err();
    assert!(matches!(&err, ConvertError::InvalidPart { at, .. } if at == "content[0]"));
    assert!(
        err.to_string()
            .starts_with("content[0]: invalid base64 in `data`"),
        "{err}"
    );

    // A link to a path on the server's machine is no part, but the model
    // reads where it is: MCP's own example result reads whole.
    let spec_example = json!({"content": [
        {"type": "text", "text": "Found the entry point."},
        {"type": "resource_link", "uri": "file:///project/src/main.rs", "name": "main.rs",
         "description": "Primary application entry point", "mimeType": "text/x-rust"}
    ], "isError": false});
    let read = Mcp::read_result(spec_example.to_string(), PartLimit::default()).unwrap();
    assert_eq!(
        read.output,
        "Found the entry point.\n[main.rs: file:///project/src/main.rs]"
    );
    assert!(read.parts.is_empty());

    let bad_mime = json!({"content": [{"type": "audio", "data": "UklGRg==", "mimeType": "wav"}]});
    let err = Mcp::read_result(bad_mime.to_string(), PartLimit::default()).unwrap_err();
    assert!(err.to_string().contains("invalid mime type `wav`"), "{err}");
}

// ---- round trips ----

#[test]
fn round_trip_keeps_output_is_error_and_every_part() {
    let url_pdf = ContentPart::from_url("https://example.com/q3.pdf", Some("application/pdf"))
        .unwrap()
        .with_name("q3.pdf");
    let cases = [
        text_only(),
        error(),
        image(),
        with_pdf(),
        with_wav(),
        ToolResult {
            is_error: true,
            ..image()
        },
        ToolResult::ok("a screenshot, a report and a recording").with_parts([
            png(),
            pdf(),
            wav(),
            url_pdf,
        ]),
        ToolResult::ok("multi\nline\n\noutput"),
        ToolResult::ok(""),
    ];
    for result in cases {
        assert_eq!(round_trip(&result), result, "{result:?}");
    }
}

#[test]
fn round_trip_with_structured_content_keeps_its_json() {
    #[derive(serde::Serialize)]
    struct Rows {
        rows: u32,
        zone: &'static str,
        note: &'static str,
    }
    let lowered = toolresult::ToolResult::<_>::ok(Rows {
        rows: 3,
        zone: "eu",
        note: "<a & b>",
    })
    .lower();
    let rendered =
        json(&Mcp::render(&(CallRef::new("1", "tool"), &lowered), PartPolicy::Strict).unwrap());
    let back = Mcp::read_result(rendered.to_string(), PartLimit::default()).unwrap();
    // `output` comes back byte for byte: unsorted keys, nothing escaped.
    assert_eq!(back.output, r#"{"rows":3,"zone":"eu","note":"<a & b>"}"#);
    assert_eq!(back, lowered.result);
}

/// What MCP cannot carry back, each as documented on `provider::mcp`.
#[test]
fn round_trip_losses_are_the_documented_ones() {
    // Text parts read back into output.
    let texts = ToolResult::ok("a").with_parts([ContentPart::text("b")]);
    let back = round_trip(&texts);
    assert_eq!(back.output, "a\nb");
    assert!(back.parts.is_empty());

    // An empty output beside parts reads back as the describe lines.
    let bare = ToolResult::ok("").with_parts([png()]);
    let back = round_trip(&bare);
    assert_eq!(back.output, "image (image/png, 82 bytes)");
    assert_eq!(back.parts, bare.parts);

    // An empty error output reads back as the fixed message.
    assert_eq!(
        round_trip(&ToolResult::error("")).output,
        "MCP tool returned an error"
    );

    // An image held by URL reads back as a file part by URL.
    let link = ContentPart::from_url("https://example.com/a.png", Some("image/png")).unwrap();
    let back = round_trip(&ToolResult::ok("a chart").with_parts([link]));
    assert_eq!(back.parts[0].kind(), PartKind::File);
    assert_eq!(back.parts[0].url(), Some("https://example.com/a.png"));
    assert_eq!(back.parts[0].mime_type(), Some("image/png"));

    // Metadata is not written.
    let with_meta = ToolResult::ok("x").with_meta("count", 2);
    assert_eq!(round_trip(&with_meta).metadata, None);
}

/// An embedded blob whose URI names nothing (no `uri`, an empty one, one
/// ending in `/`) reads as a file named `attachment`, the name the crate
/// writes for an unnamed file, so a second trip through MCP changes
/// nothing (found by the `mcp_call_tool_result` fuzz target; the input is
/// kept in `fuzz/regressions/mcp_call_tool_result/`).
#[test]
fn a_blob_whose_uri_names_nothing_reads_as_attachment_and_stays_so() {
    for resource in [
        json!({"blob": "JVBERg=="}),
        json!({"uri": null, "blob": "JVBERg=="}),
        json!({"uri": "", "blob": "JVBERg=="}),
        json!({"uri": "https://example.com/out/", "blob": "JVBERg=="}),
        json!({"uri": "file:///", "blob": "JVBERg=="}),
    ] {
        let read = Mcp::read_result(
            json!({"content": [{"type": "resource", "resource": resource}]}).to_string(),
            PartLimit::default(),
        )
        .unwrap();
        assert_eq!(read.parts.len(), 1, "{resource}");
        assert_eq!(read.parts[0].name(), Some("attachment"), "{resource}");
        assert_eq!(read.parts[0].data(), Some(&b"%PDF"[..]), "{resource}");
        assert_eq!(read.parts[0].mime_type(), Some("application/octet-stream"));
        let answer = (CallRef::new("c1", "t"), &read);
        let json = serde_json::to_value(Mcp::render(&answer, PartPolicy::Strict).unwrap()).unwrap();
        assert_eq!(
            json["content"][1]["resource"]["uri"], "file:///attachment",
            "{resource}"
        );
        assert_eq!(
            Mcp::read_result(json.to_string(), PartLimit::default()).unwrap(),
            read,
            "{resource}"
        );
    }
}
