//! The part size limit when parsing: the default on every parse, another
//! one through the limit as a `DeserializeSeed` (or an argument of
//! `Mcp::read_result`), checked from the length of the base64
//! before any of it is decoded, on the borrowed path (`from_str`,
//! `from_slice`) and the owned one (`from_reader`, `from_value`) alike.

use serde::Deserialize;
use serde::de::DeserializeSeed;
use serde_json::json;
use toolresult::canonical::{PartLimit, ToolResult};
use toolresult::provider::Mcp;

/// A result with one image part of `bytes` zero bytes (`bytes` a multiple
/// of 3), its base64 ending in `last` in place of its last character.
fn result_json(bytes: usize, last: Option<char>) -> String {
    let mut data = "AAAA".repeat(bytes / 3);
    if let Some(last) = last {
        data.pop();
        data.push(last);
    }
    format!(
        r#"{{"output":"an image","isError":false,"parts":[{{"type":"image","mimeType":"image/png","data":"{data}"}}]}}"#
    )
}

/// Every way to parse a result under `limit`: borrowed from a `&str` and
/// a `&[u8]`, owned from a reader and from a `Value`, each through the
/// limit as a `DeserializeSeed`.
fn parse_every_way(json: &str, limit: PartLimit) -> Vec<Result<ToolResult, String>> {
    let text = |r: Result<ToolResult, serde_json::Error>| r.map_err(|e| e.to_string());
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    vec![
        text(limit.deserialize(&mut serde_json::Deserializer::from_str(json))),
        text(limit.deserialize(&mut serde_json::Deserializer::from_slice(json.as_bytes()))),
        text(limit.deserialize(&mut serde_json::Deserializer::from_reader(json.as_bytes()))),
        text(limit.deserialize(&value)),
        text(limit.deserialize(value)),
    ]
}

/// Every way to parse a result with the default limit (`Deserialize`).
fn parse_every_way_by_default(json: &str) -> Vec<Result<ToolResult, String>> {
    let text = |r: Result<ToolResult, serde_json::Error>| r.map_err(|e| e.to_string());
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    vec![
        text(serde_json::from_str(json)),
        text(serde_json::from_slice(json.as_bytes())),
        text(serde_json::from_reader(json.as_bytes())),
        text(ToolResult::deserialize(&value)),
        text(serde_json::from_value(value)),
    ]
}

#[test]
fn another_limit_applies_to_every_way_of_parsing() {
    let json = result_json(30, None);
    for parsed in parse_every_way(&json, PartLimit::new(29)) {
        let err = parsed.unwrap_err();
        assert!(
            err.starts_with("the part's `data` is 30 bytes, over the part size limit of 29 bytes"),
            "{err}"
        );
    }
    for parsed in parse_every_way(&json, PartLimit::new(30)) {
        assert_eq!(parsed.unwrap().parts[0].byte_len(), 30);
    }
}

#[test]
fn a_larger_limit_lets_a_larger_part_through() {
    let bytes = 21 * 1024 * 1024; // a multiple of 3, over the default
    let json = result_json(bytes, None);
    for parsed in parse_every_way_by_default(&json) {
        assert!(
            parsed
                .unwrap_err()
                .contains("over the part size limit of 20971520 bytes")
        );
    }
    for parsed in parse_every_way(&json, PartLimit::new(32 << 20)) {
        assert_eq!(parsed.unwrap().parts[0].byte_len(), bytes);
    }
}

#[test]
fn an_oversized_part_is_refused_before_it_is_decoded_on_every_path() {
    // Invalid at its last character: decoding would report that, so a size
    // error shows the base64 was never decoded.
    let json = result_json(30, Some('!'));
    for parsed in parse_every_way(&json, PartLimit::new(10)) {
        let err = parsed.unwrap_err();
        assert!(err.starts_with("the part's `data` is 30 bytes"), "{err}");
    }
    // Within the limit, the same text is decoded, and refused for it.
    for parsed in parse_every_way_by_default(&json) {
        let err = parsed.unwrap_err();
        assert!(err.starts_with("invalid base64 in `data`"), "{err}");
    }
}

#[test]
fn the_limit_applies_to_mcp_results() {
    let mcp = json!({
        "content": [{"type": "audio", "mimeType": "audio/wav", "data": "AAAAAAAA"}]
    });
    let err = Mcp::read_result(mcp.to_string(), PartLimit::new(5)).unwrap_err();
    assert!(
        err.to_string()
            .contains("the part's `data` is 6 bytes, over the part size limit of 5 bytes"),
        "{err}"
    );
    let err = Mcp::read_result(mcp.to_string().as_bytes(), PartLimit::new(5)).unwrap_err();
    assert!(
        err.to_string()
            .contains("over the part size limit of 5 bytes"),
        "{err}"
    );
}

#[test]
fn no_limit_is_in_the_air() {
    // One parse's limit is that parse's alone: the next parse, on this
    // thread or another, uses the default.
    let json = result_json(30, None);
    assert!(
        PartLimit::new(1)
            .deserialize(&mut serde_json::Deserializer::from_str(&json))
            .is_err()
    );
    assert!(serde_json::from_str::<ToolResult>(&json).is_ok());
    let other = std::thread::spawn(move || serde_json::from_str::<ToolResult>(&json).is_ok());
    assert!(other.join().unwrap());
}
