//! The part size limit when parsing: the default on every parse, another
//! one through `PartLimit::parse`, checked from the length of the base64
//! before any of it is decoded, on the borrowed path (`from_str`,
//! `from_slice`) and the owned one (`from_reader`, `from_value`) alike.

use serde::Deserialize;
use serde_json::json;
use toolresult::canonical::{ContentPart, PartLimit, ToolResult};
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

/// Every way to parse a result: borrowed from a `&str` and a `&[u8]`,
/// owned from a reader and from a `Value`.
fn parse_every_way(json: &str) -> Vec<Result<ToolResult, String>> {
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
    for parsed in PartLimit::new(29).parse(|| parse_every_way(&json)) {
        let err = parsed.unwrap_err();
        assert!(
            err.starts_with("the part's `data` is 30 bytes, over the part size limit of 29 bytes"),
            "{err}"
        );
    }
    for parsed in PartLimit::new(30).parse(|| parse_every_way(&json)) {
        assert_eq!(parsed.unwrap().parts[0].byte_len(), 30);
    }
}

#[test]
fn a_larger_limit_lets_a_larger_part_through() {
    let bytes = 21 * 1024 * 1024; // a multiple of 3, over the default
    let json = result_json(bytes, None);
    for parsed in parse_every_way(&json) {
        assert!(
            parsed
                .unwrap_err()
                .contains("over the part size limit of 20971520 bytes")
        );
    }
    for parsed in PartLimit::new(32 << 20).parse(|| parse_every_way(&json)) {
        assert_eq!(parsed.unwrap().parts[0].byte_len(), bytes);
    }
}

#[test]
fn an_oversized_part_is_refused_before_it_is_decoded_on_every_path() {
    // Invalid at its last character: decoding would report that, so a size
    // error shows the base64 was never decoded.
    let json = result_json(30, Some('!'));
    for parsed in PartLimit::new(10).parse(|| parse_every_way(&json)) {
        let err = parsed.unwrap_err();
        assert!(err.starts_with("the part's `data` is 30 bytes"), "{err}");
    }
    // Within the limit, the same text is decoded, and refused for it.
    for parsed in parse_every_way(&json) {
        let err = parsed.unwrap_err();
        assert!(err.starts_with("invalid base64 in `data`"), "{err}");
    }
}

#[test]
fn the_limit_is_restored_after_parsing_even_after_a_panic() {
    let json = result_json(30, None);
    let caught = std::panic::catch_unwind(|| {
        PartLimit::new(1).parse(|| -> () { panic!("a parse that panics") })
    });
    assert!(caught.is_err());
    // The default again: 30 bytes parse.
    assert!(serde_json::from_str::<ToolResult>(&json).is_ok());
    // Nested: the inner limit, then the outer one again.
    PartLimit::new(100).parse(|| {
        assert!(
            PartLimit::new(10)
                .parse(|| serde_json::from_str::<ToolResult>(&json))
                .is_err()
        );
        assert!(serde_json::from_str::<ToolResult>(&json).is_ok());
    });
}

#[test]
fn the_limit_applies_to_mcp_results_and_types_that_hold_parts() {
    let mcp = json!({
        "content": [{"type": "audio", "mimeType": "audio/wav", "data": "AAAAAAAA"}]
    });
    let err = PartLimit::new(5)
        .parse(|| Mcp::read_result_value(&mcp))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("the part's `data` is 6 bytes, over the part size limit of 5 bytes"),
        "{err}"
    );

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Transcript {
        turns: Vec<Vec<ContentPart>>,
    }
    let transcript =
        r#"{"turns":[[],[{"type":"image","mimeType":"image/gif","data":"R0lGOA=="}]]}"#;
    assert!(serde_json::from_str::<Transcript>(transcript).is_ok());
    let err = PartLimit::new(3)
        .parse(|| serde_json::from_str::<Transcript>(transcript))
        .err()
        .unwrap();
    assert!(
        err.to_string().starts_with("the part's `data` is 4 bytes"),
        "{err}"
    );
}

#[test]
fn the_limit_is_per_thread() {
    let json = result_json(30, None);
    PartLimit::new(1).parse(|| {
        let other = std::thread::spawn({
            let json = json.clone();
            move || serde_json::from_str::<ToolResult>(&json).is_ok()
        });
        assert!(other.join().unwrap(), "another thread keeps the default");
        assert!(serde_json::from_str::<ToolResult>(&json).is_err());
    });
}
