//! An MCP `CallToolResult` from arbitrary bytes: bytes → JSON →
//! `provider::Mcp::read_result` → canonical result → `Mcp::render` →
//! JSON → read again. Nothing panics, and once read, a result is a fixed
//! point: rendering it back to MCP and reading that gives it back equal
//! (with its structured value too, for a success). The canonical result
//! round-trips through its own JSON, and every other style renders it.

use serde_json::Value;
use serde_json::value::RawValue;
use toolresult::canonical::ToolResult;
use toolresult::provider::{CallRef, PartPolicy};

use super::providers::{self, Style};

fn trip(result: &ToolResult, structured: Option<&RawValue>) -> ToolResult {
    let json = providers::mcp_render(result, structured);
    providers::mcp_read(&json)
        .unwrap_or_else(|e| panic!("our own MCP JSON reads back: {e}: {json}"))
}

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let Ok(result) = providers::mcp_read(&value) else {
        return;
    };
    // What MCP can carry, it carries: a second trip changes nothing.
    assert!(result.metadata.is_none(), "MCP carries no metadata");
    assert!(
        result.parts.iter().all(|p| p.as_text().is_none()),
        "MCP text blocks read into output, never into text parts"
    );
    assert!(
        result.parts.is_empty() || !result.output.is_empty(),
        "a result with parts describes them in output"
    );
    assert_eq!(trip(&result, None), result);
    let structured = value.get("structuredContent").filter(|v| !v.is_null());
    if let Some(structured) = structured
        && !result.is_error
    {
        let raw = serde_json::value::to_raw_value(structured).expect("a JSON value serialises");
        assert_eq!(trip(&result, Some(&raw)), result);
    }

    // The canonical result it reads into is a valid one.
    let first = serde_json::to_vec(&result).expect("a result serialises");
    let back: ToolResult = serde_json::from_slice(&first).expect("its own JSON parses");
    assert_eq!(back, result);

    // Every other style renders it; Placeholder never fails.
    let call = CallRef::new("call_1", "lookup");
    let turn = [(call, &result)];
    for style in Style::ALL {
        let _ = providers::reply(style, &turn, PartPolicy::Placeholder);
        let _ = providers::reply_strict(style, &turn);
        if let Some(block) = providers::render_one(style, call, &result, PartPolicy::Placeholder) {
            block.unwrap_or_else(|e| panic!("{style:?}: placeholder renders: {e}"));
        }
        let _ = providers::render_one(style, call, &result, PartPolicy::Strict);
    }
}
