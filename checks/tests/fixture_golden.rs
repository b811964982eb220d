//! The cross-language parity fixture against its committed goldens.

use sha2::{Digest, Sha256};
use toolresult::canonical::{ContentPart, PartLimit, ToolResult};

const PNG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/fixture.png");

fn golden(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .trim()
    .to_owned()
}

#[test]
fn base64_equals_the_committed_golden() {
    let part = ContentPart::from_path(PNG, PartLimit::default()).unwrap();
    assert_eq!(part.data_base64().unwrap(), golden("fixture.png.base64"));
    let json = serde_json::to_value(&part).unwrap();
    assert_eq!(json["data"], golden("fixture.png.base64").as_str());
}

#[test]
fn the_bytes_match_the_committed_sha256() {
    let part = ContentPart::from_path(PNG, PartLimit::default()).unwrap();
    let digest = Sha256::digest(part.data().unwrap());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, golden("fixture.png.sha256"));
    assert_eq!(part.byte_len(), 82);
}

#[test]
fn the_golden_base64_decodes_to_the_fixture() {
    let url = format!("data:image/png;base64,{}", golden("fixture.png.base64"));
    let part = ContentPart::from_url(&url, None).unwrap();
    assert_eq!(part.data().unwrap(), std::fs::read(PNG).unwrap().as_slice());
    assert_eq!(
        part,
        ContentPart::from_path(PNG, PartLimit::default()).unwrap()
    );
}

#[test]
fn the_fixture_as_a_result_on_the_wire() {
    let part = ContentPart::from_path(PNG, PartLimit::default()).unwrap();
    let res = ToolResult::ok(part.describe()).with_parts([part]);
    assert_eq!(
        serde_json::to_string(&res).unwrap(),
        format!(
            r#"{{"output":"image (image/png, 82 bytes)","isError":false,"parts":[{{"type":"image","mimeType":"image/png","data":"{}"}}]}}"#,
            golden("fixture.png.base64")
        )
    );
}

#[test]
fn the_direct_writer_matches_the_committed_golden() {
    let part = ContentPart::from_path(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/fixture.png"),
        PartLimit::default(),
    )
    .unwrap();
    let shot = ToolResult::ok(part.describe()).with_parts([part]);
    let expected = format!(
        r#"{{"output":"image (image/png, 82 bytes)","isError":false,"parts":[{{"type":"image","mimeType":"image/png","data":"{}"}}]}}"#,
        golden("fixture.png.base64")
    );
    assert_eq!(shot.to_json().unwrap(), expected);
}

#[test]
fn the_direct_writer_encodes_across_chunk_boundaries() {
    // 3 KiB chunks: sizes around one and two chunks, and a remainder needing padding.
    for len in [1usize, 2, 3071, 3072, 3073, 6144, 6145, 10_000] {
        let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 256) as u8).collect();
        let part = ContentPart::from_bytes(bytes.clone(), "application/octet-stream").unwrap();
        let result = ToolResult::ok("blob").with_parts([part]);
        let json = result.to_json().unwrap();
        let expected = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &bytes);
        assert!(json.contains(&format!(r#""data":"{expected}""#)), "{len}");
        assert_eq!(json, serde_json::to_string(&result).unwrap(), "{len}");
    }
}
