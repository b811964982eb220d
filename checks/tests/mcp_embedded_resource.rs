//! An inline file reaches MCP as an embedded resource whose `uri` is an
//! absolute URI, as MCP's schema requires (`"format": "uri"`), and its name
//! reads back from it.

use serde_json::{Value, json};
use toolresult::canonical::PartLimit;
use toolresult::canonical::{ContentPart, ToolResult};
use toolresult::provider::{CallRef, Mcp, PartPolicy, Provider};

/// `EmbeddedResource` and `BlobResourceContents` as the MCP schema
/// (revision 2025-06-18, `schema.json`) defines them.
fn embedded_resource_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "type": {"const": "resource", "type": "string"},
            "resource": {
                "type": "object",
                "properties": {
                    "blob": {"type": "string", "format": "byte"},
                    "mimeType": {"type": "string"},
                    "uri": {"type": "string", "format": "uri"}
                },
                "required": ["blob", "uri"]
            }
        },
        "required": ["resource", "type"]
    })
}

fn resource_block(part: ContentPart) -> Value {
    let result = ToolResult::ok("the report").with_parts([part]);
    serde_json::to_value(
        Mcp::render(&(CallRef::new("1", "tool"), &result), PartPolicy::Strict).unwrap(),
    )
    .unwrap()["content"][1]
        .clone()
}

fn pdf() -> ContentPart {
    ContentPart::from_bytes(b"%PDF-1.7".to_vec(), "application/pdf").unwrap()
}

#[test]
fn uri_is_absolute_and_valid_by_the_mcp_schema() {
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&embedded_resource_schema())
        .unwrap();
    for (part, uri) in [
        (pdf().with_name("q3.pdf"), "file:///q3.pdf"),
        (pdf(), "file:///attachment"),
        (
            pdf().with_name("Q3 report (final).pdf"),
            "file:///Q3%20report%20%28final%29.pdf",
        ),
        (
            pdf().with_name("rapport-été.pdf"),
            "file:///rapport-%C3%A9t%C3%A9.pdf",
        ),
        (pdf().with_name("a/b.pdf"), "file:///a%2Fb.pdf"),
    ] {
        let block = resource_block(part);
        assert_eq!(block["resource"]["uri"], uri);
        let errors: Vec<String> = validator
            .iter_errors(&block)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{uri}: {errors:?}");
    }
}

#[test]
fn the_old_bare_names_fail_the_schema() {
    // What the crate used to write, so the schema check above can fail.
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&embedded_resource_schema())
        .unwrap();
    for uri in ["q3.pdf", ""] {
        let block = json!({"type": "resource", "resource": {"uri": uri, "mimeType": "application/pdf", "blob": "JVBERi0xLjc="}});
        assert!(!validator.is_valid(&block), "{uri:?}");
    }
}

#[test]
fn the_name_reads_back_from_the_uri() {
    for name in ["q3.pdf", "Q3 report (final).pdf", "rapport-été.pdf"] {
        let result = ToolResult::ok("the report").with_parts([pdf().with_name(name)]);
        let back = Mcp::read_result(
            serde_json::to_value(
                Mcp::render(&(CallRef::new("1", "tool"), &result), PartPolicy::Strict).unwrap(),
            )
            .unwrap()
            .to_string(),
            PartLimit::default(),
        )
        .unwrap();
        assert_eq!(back, result, "{name}");
    }
    // A name is never a path: only its last segment comes back.
    let result = ToolResult::ok("the report").with_parts([pdf().with_name("a/b.pdf")]);
    let back = Mcp::read_result(
        serde_json::to_value(
            Mcp::render(&(CallRef::new("1", "tool"), &result), PartPolicy::Strict).unwrap(),
        )
        .unwrap()
        .to_string(),
        PartLimit::default(),
    )
    .unwrap();
    assert_eq!(back.parts[0].name(), Some("b.pdf"));
    // A file without a name reads back named for the fixed uri.
    let result = ToolResult::ok("the report").with_parts([pdf()]);
    let back = Mcp::read_result(
        serde_json::to_value(
            Mcp::render(&(CallRef::new("1", "tool"), &result), PartPolicy::Strict).unwrap(),
        )
        .unwrap()
        .to_string(),
        PartLimit::default(),
    )
    .unwrap();
    assert_eq!(back.parts[0].name(), Some("attachment"));
}

#[test]
fn other_servers_uris_still_name_the_part_by_their_last_segment() {
    let answer = json!({"content": [
        {"type": "resource", "resource": {"uri": "https://example.com/files/q3.pdf", "mimeType": "application/pdf", "blob": "JVBERi0xLjc="}},
        {"type": "resource", "resource": {"uri": "q4.pdf", "mimeType": "application/pdf", "blob": "JVBERi0xLjc="}},
        {"type": "resource", "resource": {"uri": "file:///srv/out/q5.pdf", "mimeType": "application/pdf", "blob": "JVBERi0xLjc="}},
        {"type": "resource", "resource": {"uri": "file:///..%2F..%2Fetc%2Fpasswd", "mimeType": "application/pdf", "blob": "JVBERi0xLjc="}}
    ]});
    let back = Mcp::read_result(answer.to_string(), PartLimit::default()).unwrap();
    let names: Vec<_> = back.parts.iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            Some("q3.pdf"),
            Some("q4.pdf"),
            Some("q5.pdf"),
            Some("passwd")
        ]
    );
}
