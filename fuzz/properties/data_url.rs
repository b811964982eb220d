//! `ContentPart::from_url` on arbitrary text: it never panics, and a part it
//! builds gives itself back, through its data: URL or its kept URL, and
//! through JSON.
//!
//! The input is the URL, optionally followed by a newline and an explicit
//! mime type.

use toolresult::canonical::ContentPart;

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (url, mime) = match text.split_once('\n') {
        Some((url, mime)) => (url, Some(mime)),
        None => (text, None),
    };
    let Ok(part) = ContentPart::from_url(url, mime) else {
        return;
    };
    let again = match (part.data_url(), part.url()) {
        (Some(data_url), None) => ContentPart::from_url(&data_url, None),
        (None, Some(kept)) => ContentPart::from_url(kept, part.mime_type()),
        other => panic!("a url part has exactly one source, not {other:?}"),
    };
    assert_eq!(again.expect("a part's own URL parses"), part);

    let json = serde_json::to_vec(&part).expect("a part serialises");
    let back: ContentPart = serde_json::from_slice(&json).expect("its own JSON parses");
    assert_eq!(back, part);
    let _ = (part.describe(), part.unsupported_placeholder());
}
