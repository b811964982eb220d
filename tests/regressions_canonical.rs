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

/// A part's data: URL gives the same part back, its mime type's parameters
/// dropped: a data: URL keeps only `type/subtype` (as `toolnexus_parity`
/// records, toolnexus keeps them; we do not).
#[test]
fn data_urls_read_back_without_mime_type_parameters() {
    for (mime, read_back) in [
        ("text/plain;charset=utf-8", "text/plain"),
        ("a/b;base64", "a/b"),
        ("image/png", "image/png"),
        ("IMAGE/PNG;q=1", "image/png"),
    ] {
        let part = ContentPart::from_bytes(b"hi".to_vec(), mime).unwrap();
        let url = part.data_url().unwrap();
        let back = ContentPart::from_url(&url, None).unwrap();
        assert_eq!(back.mime_type(), Some(read_back), "{url}");
        assert_eq!(back.data(), Some(&b"hi"[..]));
        assert_eq!(back.kind(), part.kind());
        assert_eq!(
            back,
            ContentPart::from_bytes(b"hi".to_vec(), read_back).unwrap()
        );
    }
}

/// A mime type whose part before its parameters is not `type/subtype` was
/// accepted, and its part then wrote a data: URL that could not be read
/// back (`;/#` became `data:;/#;base64,..`: "it has no mime type"; `#/;`
/// became `data:#/;;base64,..`: "invalid mime type `#/`"). It is refused up
/// front now, by every constructor and by the wire.
#[test]
fn a_mime_type_must_be_type_slash_subtype_before_its_parameters() {
    for mime in [
        ";/#",
        "#/;",
        "a;b/c",
        "image/;charset=utf-8",
        ";charset=utf-8",
    ] {
        assert_eq!(
            ContentPart::from_bytes(b"hi".to_vec(), mime)
                .unwrap_err()
                .to_string(),
            format!("invalid mime type `{mime}`: expected `type/subtype`"),
        );
        assert!(ContentPart::from_url("https://example.com/a", Some(mime)).is_err());
        let json = format!(r#"{{"type":"file","mimeType":"{mime}","data":"aGk="}}"#);
        assert!(
            serde_json::from_str::<ContentPart>(&json).is_err(),
            "{json}"
        );
    }
    // Parameters after a well-formed `type/subtype` are still fine.
    for mime in ["text/plain;charset=utf-8", "a/b;", "a/b;;x"] {
        assert!(
            ContentPart::from_bytes(b"hi".to_vec(), mime).is_ok(),
            "{mime}"
        );
    }
}

/// An explicit mime type agrees with a data: URL when the two name the same
/// type, parameters aside, so a part's own data URL and mime type build it
/// again; a different type is still refused.
#[test]
fn explicit_mime_type_agrees_with_a_data_url_parameters_aside() {
    let url = "data:text/plain;charset=utf-8;base64,aGk=";
    for explicit in ["text/plain", "TEXT/PLAIN", "text/plain;charset=utf-8"] {
        let part = ContentPart::from_url(url, Some(explicit)).unwrap();
        assert_eq!(part.mime_type(), Some("text/plain"));
        assert_eq!(part.data(), Some(&b"hi"[..]));
    }
    let part = ContentPart::from_bytes(b"hi".to_vec(), "text/plain;charset=utf-8").unwrap();
    let again = ContentPart::from_url(&part.data_url().unwrap(), part.mime_type()).unwrap();
    assert_eq!(again.mime_type(), Some("text/plain"));
    assert_eq!(
        ContentPart::from_url(url, Some("text/csv;charset=utf-8"))
            .unwrap_err()
            .to_string(),
        "mime type `text/csv;charset=utf-8` does not match the data: URL's mime type `text/plain`"
    );
    assert_eq!(
        ContentPart::from_url("data:;charset=utf-8;base64,aGk=", None)
            .unwrap_err()
            .to_string(),
        "malformed data: URL `data:;charset=utf-8;base64,aGk=`: it has no mime type"
    );
}

#[test]
fn non_canonical_trailing_bits_are_refused_after_the_fast_decoder() {
    let part = |data: &str| {
        serde_json::from_value::<ContentPart>(serde_json::json!({
            "type": "file", "mimeType": "application/octet-stream", "data": data
        }))
    };
    // `QQ==` is "A"; `QR==` has a stray bit in the padding, `QUI=` too little.
    assert_eq!(part("QQ==").unwrap().data(), Some(&b"A"[..]));
    assert_eq!(part("QUI=").unwrap().data(), Some(&b"AB"[..]));
    let long_prefix = "QUJD".repeat(64);
    for bad in [
        "QR==",
        "QUJ=",
        &format!("{long_prefix}QR=="),
        &format!("{long_prefix}QUJ="),
    ] {
        let err = part(bad).unwrap_err().to_string();
        assert!(
            err.starts_with("invalid base64 in `data`: the last character"),
            "{bad}: {err}"
        );
        assert!(
            err.ends_with("has bits set past the end of the data"),
            "{bad}: {err}"
        );
    }
}
