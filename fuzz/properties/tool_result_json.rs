//! A canonical `ToolResult` from arbitrary bytes: parsing never panics, and
//! whatever parses serialises to JSON that parses back to the same value and
//! serialises to the same bytes.

use toolresult::canonical::ToolResult;

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    let Ok(result) = serde_json::from_slice::<ToolResult>(data) else {
        return;
    };
    let first = serde_json::to_vec(&result).expect("a parsed result serialises");
    let back: ToolResult = serde_json::from_slice(&first).expect("its own JSON parses");
    assert_eq!(back, result);
    let second = serde_json::to_vec(&back).expect("a parsed result serialises");
    assert_eq!(second, first);

    // Reading a result never panics either.
    let _ = result.estimated_tokens();
    assert_eq!(result.pending_request(), back.pending_request());
    for part in &result.parts {
        let _ = (
            part.describe(),
            (part.kind(), part.mime_type(), part.byte_len()),
            part.unsupported_placeholder(),
        );
    }
}
