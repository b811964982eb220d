//! A suspension `Request` and an `Answer` from arbitrary bytes: parsing
//! never panics, and whatever parses round-trips byte-identically; a parsed
//! request parked in a result reads back the same.

use serde::Serialize;
use serde::de::DeserializeOwned;
use toolresult::canonical::{Answer, Request, ToolResult};

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(
    data: &[u8],
) -> Option<T> {
    let value = serde_json::from_slice::<T>(data).ok()?;
    let first = serde_json::to_vec(&value).expect("a parsed value serialises");
    let back: T = serde_json::from_slice(&first).expect("its own JSON parses");
    assert_eq!(back, value);
    let second = serde_json::to_vec(&back).expect("a parsed value serialises");
    assert_eq!(second, first);
    Some(value)
}

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    if let Some(request) = round_trip::<Request>(data) {
        let parked = ToolResult::pending(request.clone());
        let read = parked
            .pending_request()
            .expect("a parked request reads back");
        assert_eq!(read.kind, request.kind);
        assert_eq!(read.prompt, request.prompt);
        assert_eq!(read.url, request.url);
        assert_eq!(read.data, request.data);
        assert_eq!(read.expires_at, request.expires_at);
        if !request.id.is_empty() {
            assert_eq!(read.id, request.id);
        }
    }
    if let Some(answer) = round_trip::<Answer>(data) {
        let _ = answer.answers(&Request::default());
    }
}
