//! The cross-language parity fixture against its committed goldens.

use sha2::{Digest, Sha256};
use toolresult::canonical::{ContentPart, ToolResult};

const PNG: &str = "tests/fixtures/fixture.png";

fn golden(name: &str) -> String {
    std::fs::read_to_string(format!("tests/fixtures/{name}"))
        .unwrap()
        .trim()
        .to_owned()
}

#[test]
fn base64_equals_the_committed_golden() {
    let part = ContentPart::from_path(PNG).unwrap();
    assert_eq!(part.data_base64().unwrap(), golden("fixture.png.base64"));
    let json = serde_json::to_value(&part).unwrap();
    assert_eq!(json["data"], golden("fixture.png.base64").as_str());
}

#[test]
fn the_bytes_match_the_committed_sha256() {
    let part = ContentPart::from_path(PNG).unwrap();
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
    assert_eq!(part, ContentPart::from_path(PNG).unwrap());
}

#[test]
fn the_fixture_as_a_result_on_the_wire() {
    let part = ContentPart::from_path(PNG).unwrap();
    let res = ToolResult::ok_with_parts(part.describe(), vec![part]);
    assert_eq!(
        serde_json::to_string(&res).unwrap(),
        format!(
            r#"{{"output":"image (image/png, 82 bytes)","isError":false,"parts":[{{"type":"image","mimeType":"image/png","data":"{}"}}]}}"#,
            golden("fixture.png.base64")
        )
    );
}
