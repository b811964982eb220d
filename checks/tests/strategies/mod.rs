//! Strategies for arbitrary canonical values, built through the public
//! constructors only, shared by the property tests.
#![allow(dead_code)]

use std::fmt::Debug;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde::Serialize;
use serde_json::{Map, Number, Value};
use toolresult::canonical::{Answer, ContentPart, Request, ToolResult};

const FIXTURE: &[u8] = include_bytes!("../../../tests/fixtures/fixture.png");

/// `cases` cases (or `PROPTEST_CASES`, when set, for a longer soak); a
/// failing case is kept in `<test file>.proptest-regressions` beside the
/// test and tried first on every later run.
pub fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

/// Mime types the table gives, plus arbitrary well-formed `type/subtype`
/// ones (any characters the contract allows), some with parameters.
pub fn mime_type() -> impl Strategy<Value = String> {
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
pub fn essence(mime_type: &str) -> &str {
    mime_type.split(';').next().unwrap_or_default()
}

/// How a part writes a mime type: `type/subtype` in ASCII lower case,
/// parameters as given (`Text/Plain;Charset=X` is `text/plain;Charset=X`).
pub fn written(mime_type: &str) -> String {
    let essence = essence(mime_type);
    format!(
        "{}{}",
        essence.to_ascii_lowercase(),
        &mime_type[essence.len()..]
    )
}

pub fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..300),
        1 => Just(FIXTURE.to_vec()),
    ]
}

/// URLs a part may keep: a scheme that is neither `file` nor `data`.
pub fn kept_url() -> impl Strategy<Value = String> {
    prop_oneof![
        "https://[a-z0-9.-]{1,20}/[a-zA-Z0-9._~%/?=&#-]{0,40}",
        r"[a-zA-Z][a-zA-Z0-9+.-]{0,8}:[^\p{Cc}]{0,30}",
    ]
    .prop_filter("file: and data: URLs are not kept", |url| {
        let scheme = url.split(':').next().unwrap_or_default();
        !scheme.eq_ignore_ascii_case("file") && !scheme.eq_ignore_ascii_case("data")
    })
}

pub fn name() -> impl Strategy<Value = Option<String>> {
    prop::option::of(any::<String>())
}

prop_compose! {
    pub fn text_part()(text in any::<String>(), name in name()) -> ContentPart {
        with_name(ContentPart::text(text), name)
    }
}

prop_compose! {
    pub fn data_part()(data in bytes(), mime in mime_type(), name in name()) -> Option<ContentPart> {
        ContentPart::from_bytes(data, &mime).ok().map(|part| with_name(part, name))
    }
}

prop_compose! {
    pub fn url_part()(url in kept_url(), mime in mime_type(), name in name()) -> Option<ContentPart> {
        ContentPart::from_url(&url, Some(&mime)).ok().map(|part| with_name(part, name))
    }
}

prop_compose! {
    pub fn data_url_part()(data in bytes(), mime in mime_type(), name in name()) -> Option<ContentPart> {
        let url = format!("data:{mime};base64,{}", STANDARD.encode(&data));
        ContentPart::from_url(&url, None).ok().map(|part| with_name(part, name))
    }
}

pub fn with_name(part: ContentPart, name: Option<String>) -> ContentPart {
    match name {
        Some(name) => part.with_name(name),
        None => part,
    }
}

/// Any part the public constructors build. A constructor that refused a
/// generated input would show up as too many rejections, not as silence.
pub fn part() -> impl Strategy<Value = ContentPart> {
    prop_oneof![
        text_part(),
        data_part().prop_filter_map("from_bytes refused a valid input", |p| p),
        url_part().prop_filter_map("from_url refused a valid url", |p| p),
        data_url_part().prop_filter_map("from_url refused a valid data: URL", |p| p),
    ]
}

/// A map key: short, any characters (escapes included).
pub fn key() -> impl Strategy<Value = String> {
    ".{0,8}"
}

/// Any JSON value (finite numbers only: JSON has no others).
pub fn json_value() -> impl Strategy<Value = Value> {
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

pub fn json_map() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map(key(), json_value(), 0..4).prop_map(|m| m.into_iter().collect())
}

prop_compose! {
    pub fn request()(
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

pub fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        (any::<String>(), prop::option::of(json_map()))
            .prop_map(|(id, data)| Answer::granted(id, data)),
        (any::<String>(), any::<String>()).prop_map(|(id, reason)| Answer::declined(id, reason)),
    ]
}

pub fn tool_result() -> impl Strategy<Value = ToolResult> {
    let plain = (
        any::<String>(),
        any::<bool>(),
        prop::collection::vec(part(), 0..4),
        prop::option::of(json_map()),
    )
        .prop_map(|(output, is_error, parts, metadata)| {
            let mut result = ToolResult::ok(output).with_parts(parts);
            result.is_error = is_error;
            result.metadata = metadata;
            result
        });
    let pending = request().prop_map(ToolResult::pending);
    let auth = (any::<String>(), prop::option::of(any::<String>()))
        .prop_map(|(url, prompt)| ToolResult::auth_required(url, prompt.as_deref()));
    prop_oneof![4 => plain, 1 => pending, 1 => auth]
}

/// Valid JSON of a value with one character replaced, one removed, or the
/// text cut short: input that is almost, but not quite, what was written.
pub fn mangled(json: String) -> impl Strategy<Value = String> {
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

pub fn mangled_json<T: Serialize + Debug>(
    values: impl Strategy<Value = T>,
) -> impl Strategy<Value = String> {
    values
        .prop_map(|v| serde_json::to_string(&v).unwrap_or_default())
        .prop_flat_map(mangled)
}
