//! Inputs that once broke a round trip of the canonical model, kept so they
//! stay fixed.

use serde_json::{Value, json};
use toolresult::canonical::{ContentPart, Request, ToolResult};

/// A float in metadata reads back as the same number, so the result
/// serialises to the same bytes a second time.
#[test]
fn metadata_floats_round_trip_exactly() {
    for number in [
        6.939589738052056e-261,
        4.9163650468682397e-82,
        1.3119113390123349e286,
    ] {
        let result = ToolResult::ok("").with_meta("x", json!([number]));
        let first = serde_json::to_string(&result).unwrap();
        let back: ToolResult = serde_json::from_str(&first).unwrap();
        assert_eq!(back, result, "{first}");
        assert_eq!(serde_json::to_string(&back).unwrap(), first);
        assert_eq!(back.meta("x"), Some(&json!([number])));
    }

    let request = Request::input("?").with_id("r").with_data(
        json!({"n": 4.9163650468682397e-82})
            .as_object()
            .cloned()
            .unwrap(),
    );
    let text = serde_json::to_string(&request).unwrap();
    let back: Request = serde_json::from_str(&text).unwrap();
    assert_eq!(back, request);
    let parsed: Value = serde_json::from_str(r#"{"n":6.939589738052056e-261}"#).unwrap();
    assert_eq!(parsed["n"].as_f64(), Some(6.939589738052056e-261));
}

/// A part's data: URL gives the same part back, whatever its mime type
/// carries: parameters, or a `;` before the `/`.
#[test]
fn data_urls_keep_mime_type_parameters() {
    for mime in ["text/plain;charset=utf-8", ";/#", "a/b;base64", "image/png"] {
        let part = ContentPart::from_bytes(b"hi".to_vec(), mime).unwrap();
        let url = part.data_url().unwrap();
        let back = ContentPart::from_url(&url, None).unwrap();
        assert_eq!(back, part, "{url}");
        assert_eq!(back.mime_type(), Some(mime));
    }
}

/// An explicit mime type agrees with a data: URL when the two name the same
/// type, parameters aside; a different type is still refused.
#[test]
fn explicit_mime_type_agrees_with_a_data_url_parameters_aside() {
    let url = "data:text/plain;charset=utf-8;base64,aGk=";
    for explicit in ["text/plain", "TEXT/PLAIN", "text/plain;charset=utf-8"] {
        let part = ContentPart::from_url(url, Some(explicit)).unwrap();
        assert_eq!(part.mime_type(), Some("text/plain;charset=utf-8"));
        assert_eq!(part.data(), Some(&b"hi"[..]));
    }
    assert!(ContentPart::from_url(url, Some("text/csv")).is_err());
    assert!(ContentPart::from_url("data:;charset=utf-8;base64,aGk=", None).is_err());
}
