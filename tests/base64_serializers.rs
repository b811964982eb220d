//! A part's data is the same standard padded base64 through every way of
//! serialising it: serde_json's writer (compact and pretty), its `Value`,
//! a wrapping serialiser, and `to_json`; checked against the `base64`
//! crate's encoding, at every length around the chunks it is written in.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use toolresult::canonical::{ContentPart, ToolResult};

/// Lengths on and around every chunk edge (48, 96, 192, … input bytes,
/// then 1,536 at a time), and some odd ones.
fn lengths() -> Vec<usize> {
    let mut edges = vec![0, 1, 2, 3, 4, 5];
    let mut total = 0;
    let mut step = 48;
    while total < 60_000 {
        total += step;
        edges.extend([total - 1, total, total + 1]);
        step = (step * 2).min(1536);
    }
    edges.extend([100_000, 123_457]);
    edges
}

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 131 % 256) as u8).collect()
}

#[test]
fn every_serialiser_writes_the_same_base64() {
    for len in lengths() {
        let bytes = data(len);
        let encoded = STANDARD.encode(&bytes);
        let part = ContentPart::from_bytes(bytes, "image/png").unwrap();
        let result = ToolResult::ok("shot").with_parts([part.clone()]);
        let expected = format!(
            r#"{{"output":"shot","isError":false,"parts":[{{"type":"image","mimeType":"image/png","data":"{encoded}"}}]}}"#
        );
        assert_eq!(serde_json::to_string(&result).unwrap(), expected, "{len}");
        assert_eq!(result.to_json().unwrap(), expected, "{len}");
        let mut written = Vec::new();
        result.write_json(&mut written).unwrap();
        assert_eq!(written, expected.as_bytes(), "{len}");

        let value = serde_json::to_value(&part).unwrap();
        assert_eq!(
            value,
            json!({"type": "image", "mimeType": "image/png", "data": encoded}),
            "{len}"
        );

        let pretty = serde_json::to_string_pretty(&part).unwrap();
        assert_eq!(
            pretty,
            format!(
                "{{\n  \"type\": \"image\",\n  \"mimeType\": \"image/png\",\n  \"data\": \"{encoded}\"\n}}"
            ),
            "{len}"
        );

        let mut wrapped = Vec::new();
        serde_path_to_error::serialize(&part, &mut serde_json::Serializer::new(&mut wrapped))
            .unwrap();
        let wrapped: Value = serde_json::from_slice(&wrapped).unwrap();
        assert_eq!(wrapped, value, "{len}");
    }
}
