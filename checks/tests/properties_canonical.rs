//! Property tests of the canonical wire model: every value the public
//! constructors can build survives JSON byte-identically, inline bytes
//! survive JSON and data: URLs unchanged (a data: URL keeps a mime type's
//! `type/subtype`, not its parameters), and no string handed to the
//! deserialisers makes them panic.

mod strategies;

use std::fmt::Debug;

use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use strategies::*;
use toolresult::canonical::{Answer, ContentPart, Request, ToolResult};

/// Serialise, parse, serialise: the parse gives an equal value and the two
/// serialisations are the same bytes.
fn assert_round_trip<T>(value: &T) -> Result<String, TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let first = serde_json::to_vec(value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back: T = serde_json::from_slice(&first)
        .map_err(|e| TestCaseError::fail(format!("{e} in {}", String::from_utf8_lossy(&first))))?;
    prop_assert_eq!(&back, value);
    let second = serde_json::to_vec(&back).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&second, &first);
    String::from_utf8(first).map_err(|e| TestCaseError::fail(e.to_string()))
}

/// Any parse of `input` re-serialises to JSON that parses to the same value.
fn assert_parsed_round_trips<T>(input: &str) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    if let Ok(value) = serde_json::from_str::<T>(input) {
        assert_round_trip(&value)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Round trips of built values

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn tool_results_round_trip_byte_identically(result in tool_result()) {
        assert_round_trip(&result)?;
    }

    #[test]
    fn the_direct_writer_gives_serde_json_s_bytes(result in tool_result()) {
        let serde = serde_json::to_string(&result).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let direct = result.to_json().map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&direct, &serde);
        let mut written = Vec::new();
        result.write_json(&mut written).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(written, serde.into_bytes());
    }

    #[test]
    fn part_data_is_accepted_exactly_when_strict_base64_decodes_it(
        data in proptest::string::string_regex("[A-Za-z0-9+/=]{0,12}|[A-Za-z0-9+/]{40,80}={0,2}|[A-Za-z0-9+/= \\-_]{0,16}").unwrap()
    ) {
        let json = serde_json::json!({"type": "file", "mimeType": "application/octet-stream", "data": data});
        let ours = serde_json::from_value::<ContentPart>(json).map(|p| p.data().map(|d| d.to_vec()));
        let strict = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, &data);
        match (ours, strict) {
            (Ok(bytes), Ok(expected)) => prop_assert_eq!(bytes, Some(expected)),
            (Err(_), Err(_)) => {}
            // An empty payload is refused by the part's own rules, not by base64.
            (Err(_), Ok(expected)) if expected.is_empty() => {}
            (ours, strict) => prop_assert!(false, "{data:?}: ours {ours:?}, strict {strict:?}"),
        }
    }

    #[test]
    fn suspensions_read_back_after_a_round_trip(request in request()) {
        let parked = ToolResult::pending(request.clone());
        let json = assert_round_trip(&parked)?;
        let back: ToolResult = serde_json::from_str(&json)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let read = back.pending_request();
        prop_assert!(read.is_some(), "no pending request in {}", json);
        let read = read.unwrap_or_default();
        prop_assert!(!read.id.is_empty());
        if !request.id.is_empty() {
            prop_assert_eq!(&read.id, &request.id);
        }
        prop_assert_eq!(read.with_id(""), request.with_id(""));
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn requests_round_trip_byte_identically(request in request()) {
        assert_round_trip(&request)?;
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn parts_round_trip_byte_identically(part in part()) {
        let json = assert_round_trip(&part)?;
        prop_assert!(!json.contains(['\n', '\r']), "line break in {}", json);
    }

    #[test]
    fn answers_round_trip_byte_identically(answer in answer()) {
        assert_round_trip(&answer)?;
    }

    #[test]
    fn bytes_survive_json_unchanged(data in bytes(), mime in mime_type()) {
        let part = ContentPart::from_bytes(data.clone(), &mime)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let json = serde_json::to_string(&part).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back: ContentPart = serde_json::from_str(&json)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back.data(), Some(&data[..]));
        let expected_mime = written(&mime);
        prop_assert_eq!(back.mime_type(), Some(expected_mime.as_str()));
        prop_assert_eq!(back.byte_len(), data.len());
    }

    #[test]
    fn bytes_survive_a_data_url_unchanged(data in bytes(), mime in mime_type()) {
        let part = ContentPart::from_bytes(data.clone(), &mime)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let url = part.data_url();
        prop_assert!(url.is_some());
        let url = url.unwrap_or_default();
        let back = ContentPart::from_url(&url, None)
            .map_err(|e| TestCaseError::fail(format!("{e}: {url}")))?;
        prop_assert_eq!(back.data(), Some(&data[..]));
        prop_assert_eq!(back.url(), None);
        prop_assert_eq!(back.kind(), part.kind());
        let expected_mime = written(essence(&mime));
        prop_assert_eq!(back.mime_type(), Some(expected_mime.as_str()));
        let expected = ContentPart::from_bytes(data.clone(), essence(&mime))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &expected);
        let again = ContentPart::from_url(&url, Some(&mime))
            .map_err(|e| TestCaseError::fail(format!("{e}: {url}")))?;
        prop_assert_eq!(&again, &expected);
    }
}

proptest! {
    #![proptest_config(config(1024))]

    /// Whatever mime type a constructor accepts, the part's data: URL reads
    /// back into the same bytes under that type's `type/subtype`.
    #[test]
    fn any_accepted_mime_type_survives_a_data_url(
        mime in prop_oneof![".{0,12}", "[a-z;/=#,]{0,10}", "[a-z;#]{0,3}/[a-z;/=#]{0,6}"],
        data in prop::collection::vec(any::<u8>(), 0..16),
    ) {
        if let Ok(part) = ContentPart::from_bytes(data.clone(), &mime) {
            let url = part.data_url().unwrap_or_default();
            let back = ContentPart::from_url(&url, None)
                .map_err(|e| TestCaseError::fail(format!("{e}: {url}")))?;
            prop_assert_eq!(back.data(), Some(&data[..]));
            let expected_mime = written(essence(&mime));
        prop_assert_eq!(back.mime_type(), Some(expected_mime.as_str()));
            prop_assert_eq!(back.kind(), part.kind());
        }
    }
}

// ---------------------------------------------------------------------------
// Arbitrary input never panics, and whatever parses round-trips

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn arbitrary_strings_never_panic(input in any::<String>()) {
        assert_parsed_round_trips::<ToolResult>(&input)?;
        assert_parsed_round_trips::<ContentPart>(&input)?;
        assert_parsed_round_trips::<Request>(&input)?;
        assert_parsed_round_trips::<Answer>(&input)?;
    }

    #[test]
    fn arbitrary_strings_as_data_urls_never_panic(input in any::<String>()) {
        let url = format!("data:{input}");
        for candidate in [&input, &url] {
            if let Ok(part) = ContentPart::from_url(candidate, None) {
                let again = part.data_url().map(|u| ContentPart::from_url(&u, None));
                prop_assert!(matches!(again, Some(Ok(ref p)) if *p == part), "{}", candidate);
            }
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn mangled_results_never_panic(input in mangled_json(tool_result())) {
        assert_parsed_round_trips::<ToolResult>(&input)?;
    }

    #[test]
    fn mangled_parts_never_panic(input in mangled_json(part())) {
        assert_parsed_round_trips::<ContentPart>(&input)?;
    }

    #[test]
    fn mangled_requests_never_panic(input in mangled_json(request())) {
        assert_parsed_round_trips::<Request>(&input)?;
    }
}
