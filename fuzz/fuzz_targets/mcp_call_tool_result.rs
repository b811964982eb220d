//! An MCP `CallToolResult` from arbitrary bytes: bytes → JSON →
//! `provider::mcp::from_value` → canonical result → `provider::mcp::render` →
//! JSON → read again. Nothing panics, and once read, a result is a fixed
//! point: rendering it back to MCP and reading that gives it back equal
//! (with its structured value too, for a success). The canonical result
//! round-trips through its own JSON, and every other style renders it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use serde_json::value::RawValue;
use toolresult::canonical::ToolResult;
use toolresult::provider::{
    PartPolicy, ToolCall, anthropic, gemini, mcp, openai_chat, openai_responses,
};

fn trip(result: &ToolResult, structured: Option<&RawValue>) -> ToolResult {
    let json = serde_json::to_value(mcp::render(result, structured)).expect("MCP JSON serialises");
    mcp::from_value(&json).unwrap_or_else(|e| panic!("our own MCP JSON reads back: {e}: {json}"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let Ok(result) = mcp::from_value(&value) else {
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
    let call = ToolCall::new("call_1", "lookup");
    let policy = PartPolicy::Placeholder;
    let turn = [(call, &result)];
    let chat = openai_chat::reply(&turn, policy).expect("placeholder renders");
    let _ = serde_json::to_vec(&chat);
    let items = openai_responses::reply(&turn, policy).expect("placeholder renders");
    let _ = serde_json::to_vec(&items);
    let message = anthropic::reply(&turn, policy).expect("placeholder renders");
    let _ = serde_json::to_vec(&message);
    let content = gemini::reply(&turn, policy).expect("placeholder renders");
    let _ = serde_json::to_vec(&content);
    let _ = serde_json::to_vec(&mcp::reply(&turn));
    let item = openai_responses::render(call, &result, policy).expect("placeholder renders");
    let _ = serde_json::to_vec(&item);
    let block = anthropic::render(call, &result, policy).expect("placeholder renders");
    let _ = serde_json::to_vec(&block);
    let parts = gemini::render(call, &result, policy).expect("placeholder renders");
    let _ = serde_json::to_vec(&parts);
    for strict in [
        openai_chat::reply(&turn, PartPolicy::Strict).map(|_| ()),
        openai_responses::render(call, &result, PartPolicy::Strict).map(|_| ()),
        anthropic::render(call, &result, PartPolicy::Strict).map(|_| ()),
        gemini::render(call, &result, PartPolicy::Strict).map(|_| ()),
    ] {
        let _ = strict.map_err(|e| e.to_string());
    }
});
