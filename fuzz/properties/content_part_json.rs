//! A `ContentPart` from arbitrary bytes: parsing never panics, whatever
//! parses round-trips through JSON byte-identically, and inline data
//! round-trips through its data: URL (which keeps the mime type's
//! `type/subtype`, not its parameters).

use toolresult::canonical::ContentPart;

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    let Ok(part) = serde_json::from_slice::<ContentPart>(data) else {
        return;
    };
    let first = serde_json::to_vec(&part).expect("a parsed part serialises");
    let back: ContentPart = serde_json::from_slice(&first).expect("its own JSON parses");
    assert_eq!(back, part);
    let second = serde_json::to_vec(&back).expect("a parsed part serialises");
    assert_eq!(second, first);

    let _ = (
        part.describe(),
        (part.kind(), part.mime_type(), part.byte_len()),
        part.unsupported_placeholder(),
    );
    let _ = part.estimated_tokens();
    if let Some(url) = part.data_url() {
        let again = ContentPart::from_url(&url, None)
            .unwrap_or_else(|e| panic!("a part's data: URL parses: {e}: {url}"));
        assert_eq!(again.data(), part.data());
        let essence = part.mime_type().and_then(|m| m.split(';').next());
        assert_eq!(again.mime_type(), essence);
        // Its own mime type agrees with its data: URL, parameters aside.
        let explicit = ContentPart::from_url(&url, part.mime_type())
            .unwrap_or_else(|e| panic!("a part's data: URL and mime type parse: {e}: {url}"));
        assert_eq!(explicit, again);
    }
}
