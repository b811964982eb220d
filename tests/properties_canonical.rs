//! Property tests of the canonical wire model: every value the public
//! constructors can build survives JSON byte-identically, inline bytes
//! survive JSON and data: URLs unchanged (a data: URL keeps a mime type's
//! `type/subtype`, not its parameters), and no string handed to the
//! deserialisers makes them panic.

use std::fmt::Debug;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};
use toolresult::canonical::{Answer, ContentPart, Request, ToolResult};

const FIXTURE: &[u8] = include_bytes!("fixtures/fixture.png");

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

/// `cases` cases; a failing case is kept in
/// `properties_canonical.proptest-regressions` beside this file and tried
/// first on every later run.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// Strategies

/// Mime types the table gives, plus arbitrary well-formed `type/subtype`
/// ones (any characters the contract allows), some with parameters.
fn mime_type() -> impl Strategy<Value = String> {
    let essence = prop_oneof![
        prop::sample::select(vec![
            "image/png",
            "image/jpeg",
            "image/gif",
            "image/webp",
            "application/pdf",
            "audio/mpeg",
            "audio/wav",
            "text/csv",
            "text/plain;charset=utf-8",
        ])
        .prop_map(str::to_owned),
        "(image|audio|application|text|video|IMAGE|Audio)/[a-z0-9.+-]{1,12}",
        r#"[^\s\p{Cc}/",;]{1,8}/[^\s\p{Cc}/",;]{1,12}"#,
    ];
    let parameters = prop_oneof![
        3 => Just(String::new()),
        1 => r#"(;[^\s\p{Cc}/",;=]{0,6}(=[^\s\p{Cc}/",;]{0,6})?){1,2}"#,
    ];
    (essence, parameters).prop_map(|(essence, parameters)| essence + &parameters)
}

/// What a data: URL keeps of a mime type: `text/plain` of
/// `text/plain;charset=utf-8`.
fn essence(mime_type: &str) -> &str {
    mime_type.split(';').next().unwrap_or_default()
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..300),
        1 => Just(FIXTURE.to_vec()),
    ]
}

/// URLs a part may keep: a scheme that is neither `file` nor `data`.
fn kept_url() -> impl Strategy<Value = String> {
    prop_oneof![
        "https://[a-z0-9.-]{1,20}/[a-zA-Z0-9._~%/?=&#-]{0,40}",
        r"[a-zA-Z][a-zA-Z0-9+.-]{0,8}:[^\p{Cc}]{0,30}",
    ]
    .prop_filter("file: and data: URLs are not kept", |url| {
        let scheme = url.split(':').next().unwrap_or_default();
        !scheme.eq_ignore_ascii_case("file") && !scheme.eq_ignore_ascii_case("data")
    })
}

fn name() -> impl Strategy<Value = Option<String>> {
    prop::option::of(any::<String>())
}

prop_compose! {
    fn text_part()(text in any::<String>(), name in name()) -> ContentPart {
        with_name(ContentPart::text(text), name)
    }
}

prop_compose! {
    fn data_part()(data in bytes(), mime in mime_type(), name in name()) -> Option<ContentPart> {
        ContentPart::from_bytes(data, &mime).ok().map(|part| with_name(part, name))
    }
}

prop_compose! {
    fn url_part()(url in kept_url(), mime in mime_type(), name in name()) -> Option<ContentPart> {
        ContentPart::from_url(&url, Some(&mime)).ok().map(|part| with_name(part, name))
    }
}

prop_compose! {
    fn data_url_part()(data in bytes(), mime in mime_type(), name in name()) -> Option<ContentPart> {
        let url = format!("data:{mime};base64,{}", STANDARD.encode(&data));
        ContentPart::from_url(&url, None).ok().map(|part| with_name(part, name))
    }
}

fn with_name(part: ContentPart, name: Option<String>) -> ContentPart {
    match name {
        Some(name) => part.with_name(name),
        None => part,
    }
}

/// Any part the public constructors build. A constructor that refused a
/// generated input would show up as too many rejections, not as silence.
fn part() -> impl Strategy<Value = ContentPart> {
    prop_oneof![
        text_part(),
        data_part().prop_filter_map("from_bytes refused a valid input", |p| p),
        url_part().prop_filter_map("from_url refused a valid url", |p| p),
        data_url_part().prop_filter_map("from_url refused a valid data: URL", |p| p),
    ]
}

/// A map key: short, any characters (escapes included).
fn key() -> impl Strategy<Value = String> {
    ".{0,8}"
}

/// Any JSON value (finite numbers only: JSON has no others).
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn json_map() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map(key(), json_value(), 0..4).prop_map(|m| m.into_iter().collect())
}

prop_compose! {
    fn request()(
        kind in prop_oneof![
            Just(Request::INPUT.to_owned()),
            Just(Request::AUTHORIZATION.to_owned()),
            any::<String>(),
        ],
        prompt in any::<String>(),
        id in prop::option::of(any::<String>()),
        url in prop::option::of(any::<String>()),
        data in prop::option::of(json_map()),
        expires_at in prop::option::of(any::<String>()),
    ) -> Request {
        let mut request = Request::new(kind, prompt);
        if let Some(id) = id {
            request = request.with_id(id);
        }
        if let Some(url) = url {
            request = request.with_url(url);
        }
        if let Some(data) = data {
            request = request.with_data(data);
        }
        if let Some(expires_at) = expires_at {
            request = request.with_expires_at(expires_at);
        }
        request
    }
}

fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        (any::<String>(), prop::option::of(json_map()))
            .prop_map(|(id, data)| Answer::granted(id, data)),
        (any::<String>(), any::<String>()).prop_map(|(id, reason)| Answer::declined(id, reason)),
    ]
}

fn tool_result() -> impl Strategy<Value = ToolResult> {
    let plain = (
        any::<String>(),
        any::<bool>(),
        prop::collection::vec(part(), 0..4),
        prop::option::of(json_map()),
    )
        .prop_map(|(output, is_error, parts, metadata)| {
            let result = ToolResult::ok(output)
                .with_is_error(is_error)
                .with_parts(parts);
            match metadata {
                Some(metadata) => result.with_metadata(metadata),
                None => result,
            }
        });
    let pending = request().prop_map(ToolResult::pending);
    let auth = (any::<String>(), prop::option::of(any::<String>()))
        .prop_map(|(url, prompt)| ToolResult::auth_required(url, prompt.as_deref()));
    prop_oneof![4 => plain, 1 => pending, 1 => auth]
}

/// Valid JSON of a value with one character replaced, one removed, or the
/// text cut short: input that is almost, but not quite, what was written.
fn mangled(json: String) -> impl Strategy<Value = String> {
    let len = json.chars().count().max(1);
    (0..len, any::<char>(), 0..3u8).prop_map(move |(at, with, how)| {
        let chars = json.chars();
        match how {
            0 => chars
                .enumerate()
                .map(|(i, c)| if i == at { with } else { c })
                .collect(),
            1 => chars
                .enumerate()
                .filter_map(|(i, c)| (i != at).then_some(c))
                .collect(),
            _ => chars.take(at).collect(),
        }
    })
}

fn mangled_json<T: Serialize + Debug>(
    values: impl Strategy<Value = T>,
) -> impl Strategy<Value = String> {
    values
        .prop_map(|v| serde_json::to_string(&v).unwrap_or_default())
        .prop_flat_map(mangled)
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
        prop_assert_eq!(back.mime_type(), Some(mime.as_str()));
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
        prop_assert_eq!(back.mime_type(), Some(essence(&mime)));
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
            prop_assert_eq!(back.mime_type(), Some(essence(&mime)));
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
