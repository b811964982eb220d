//! The one reader of an MCP `CallToolResult`, `Mcp::read_result`, reads a
//! result alike on every path into it: from text and from bytes (UTF-8
//! checked once, strings borrowed from the input), and from the same JSON
//! written pretty (whitespace between every token) — well-formed or
//! hostile, with the same messages; and it refuses a part over the size
//! limit from the length of its base64, before any of it is decoded.

mod strategies;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use strategies::{config, json_value, mime_type, tool_result};
use toolresult::canonical::{PartLimit, ToolResult};
use toolresult::provider::{CallRef, ConvertError, Mcp, PartPolicy, Provider};

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

/// What a read gave, comparable across paths: the result, or the message.
fn outcome(read: Result<ToolResult, ConvertError>) -> Result<ToolResult, String> {
    read.map_err(|err| err.to_string())
}

/// The JSON of `value` written pretty: the same value, other bytes.
fn pretty(value: &Value) -> Vec<u8> {
    serde_json::to_vec_pretty(value).unwrap()
}

/// The three paths on one value: all give the same outcome, returned.
fn read_all_three(value: &Value) -> Result<Result<ToolResult, String>, TestCaseError> {
    let text = serde_json::to_string(value).map_err(fail)?;
    let by_pretty = outcome(Mcp::read_result(pretty(value), PartLimit::default()));
    let by_str = outcome(Mcp::read_result(&text, PartLimit::default()));
    let by_slice = outcome(Mcp::read_result(text.as_bytes(), PartLimit::default()));
    prop_assert_eq!(&by_str, &by_pretty, "text and pretty text on {}", text);
    prop_assert_eq!(&by_slice, &by_pretty, "bytes and pretty text on {}", text);
    Ok(by_pretty)
}

// ---- arbitrary, often hostile, MCP results ----

/// A field's value: mostly one of `good`, sometimes null or any JSON at all.
fn messy(good: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
    prop_oneof![8 => good, 1 => Just(Value::Null), 1 => json_value()]
}

fn base64_text() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..40).prop_map(|b| STANDARD.encode(b).into()),
        1 => prop::sample::select(vec!["not base64!", "R0lGOA=", "R0lGOA==\n", "R0lGOB==", ""])
            .prop_map(Value::from),
    ]
}

fn mime() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => mime_type().prop_map(Value::from),
        1 => prop::sample::select(vec!["", "wav", "image/", "text/plain; x"]).prop_map(Value::from),
    ]
}

fn uri() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(vec![
            "file:///report.pdf",
            "file:///a%2Fb%20c.png",
            "file:///dir/",
            "file:///%zz.wav",
            "file:///etc/passwd",
            "https://example.test/x/y.gif?z=1#f",
            "notes",
            "",
            "data:image/png;base64,R0lGOA==",
        ])
        .prop_map(Value::from),
        any::<String>().prop_map(Value::from),
    ]
}

fn block_type() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => prop::sample::select(vec!["text", "image", "audio", "resource", "resource_link"])
            .prop_map(Value::from),
        1 => Just(Value::from("video")),
        1 => "[a-z]{60,80}".prop_map(Value::from),
    ]
}

/// An object with each of `fields` present or not.
fn object_of(fields: Vec<(&'static str, BoxedStrategy<Value>)>) -> impl Strategy<Value = Value> {
    let (keys, values): (Vec<_>, Vec<_>) = fields
        .into_iter()
        .map(|(key, value)| (key, prop::option::of(value)))
        .unzip();
    values.prop_map(move |values| {
        let object: Map<String, Value> = keys
            .iter()
            .zip(values)
            .filter_map(|(key, value)| Some(((*key).to_owned(), value?)))
            .collect();
        Value::Object(object)
    })
}

fn resource() -> impl Strategy<Value = Value> {
    object_of(vec![
        ("text", messy(any::<String>().prop_map(Value::from)).boxed()),
        ("uri", messy(uri()).boxed()),
        ("mimeType", messy(mime()).boxed()),
        ("blob", messy(base64_text()).boxed()),
        ("_meta", json_value().boxed()),
    ])
}

fn block() -> impl Strategy<Value = Value> {
    let object = object_of(vec![
        ("type", messy(block_type()).boxed()),
        ("text", messy(any::<String>().prop_map(Value::from)).boxed()),
        ("mimeType", messy(mime()).boxed()),
        ("data", messy(base64_text()).boxed()),
        ("uri", messy(uri()).boxed()),
        ("name", messy(any::<String>().prop_map(Value::from)).boxed()),
        ("resource", messy(resource()).boxed()),
        ("annotations", json_value().boxed()),
    ]);
    prop_oneof![12 => object, 1 => json_value()]
}

fn call_tool_result() -> impl Strategy<Value = Value> {
    let object = object_of(vec![
        (
            "content",
            messy(prop::collection::vec(block(), 0..5).prop_map(Value::Array)).boxed(),
        ),
        ("structuredContent", json_value().boxed()),
        (
            "isError",
            messy(any::<bool>().prop_map(Value::Bool)).boxed(),
        ),
        ("_meta", json_value().boxed()),
    ]);
    prop_oneof![12 => object, 1 => json_value()]
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn the_three_paths_agree_on_any_result(value in call_tool_result()) {
        // Ok or refused, the same on every path.
        let _read = read_all_three(&value)?;
    }

    #[test]
    fn the_three_paths_agree_on_rendered_results(result in tool_result()) {
        let value = serde_json::to_value(Mcp::render(&(CallRef::new("1", "tool"), &result), PartPolicy::Strict).unwrap()).map_err(fail)?;
        let read = read_all_three(&value)?;
        prop_assert!(read.is_ok(), "{:?} reading {}", read, value);
    }
}

// ---- the size limit, before decoding ----

/// Every block that holds base64, with `data` in it.
fn data_blocks(data: &str) -> Vec<Value> {
    vec![
        json!({"type": "image", "mimeType": "image/png", "data": data}),
        json!({"type": "audio", "mimeType": "audio/wav", "data": data}),
        json!({"type": "resource", "resource": {"uri": "file:///a.pdf", "blob": data}}),
    ]
}

#[test]
fn an_oversized_block_is_refused_before_decoding_on_every_path() {
    // 12 bytes over a 5-byte limit, and broken at the very end: the size is
    // what is reported, so none of the base64 was decoded.
    let data = "AAAAAAAAAAA!";
    for block in data_blocks(data) {
        let value = json!({"content": [{"type": "text", "text": "x"}, block], "isError": false});
        let text = value.to_string();
        let expected =
            "content[1]: the part's `data` is 9 bytes, over the part size limit of 5 bytes";
        let limit = PartLimit::new(5);
        for err in [
            Mcp::read_result(pretty(&value), limit).unwrap_err(),
            Mcp::read_result(&text, limit).unwrap_err(),
            Mcp::read_result(text.as_bytes(), limit).unwrap_err(),
        ] {
            assert!(
                matches!(&err, ConvertError::InvalidPart { at, .. } if at == "content[1]"),
                "{err:?}"
            );
            assert_eq!(err.to_string(), expected);
        }
        // At the limit it reads, on every path.
        let at_limit = value.to_string().replace(data, "AAAAAAA=");
        let read = Mcp::read_result(&at_limit, limit).unwrap();
        assert_eq!(read.parts[0].byte_len(), 5);
        assert_eq!(Mcp::read_result(at_limit.as_bytes(), limit).unwrap(), read);
        let as_value: Value = serde_json::from_str(&at_limit).unwrap();
        assert_eq!(Mcp::read_result(pretty(&as_value), limit).unwrap(), read);
    }
}

#[test]
fn an_image_over_the_default_limit_is_refused_on_every_path() {
    const BYTES: usize = 25 * 1024 * 1024 + 2; // a multiple of 3
    let mut data = "AAAA".repeat(BYTES / 3);
    data.pop();
    data.push('!');
    let value = json!({"content": [{"type": "image", "mimeType": "image/png", "data": data}]});
    let text = value.to_string();
    let over = "content[0]: the part's `data` is 26214402 bytes, over the part size limit of 20971520 bytes";
    assert_eq!(
        Mcp::read_result(pretty(&value), PartLimit::default())
            .unwrap_err()
            .to_string(),
        over
    );
    assert_eq!(
        Mcp::read_result(&text, PartLimit::default())
            .unwrap_err()
            .to_string(),
        over
    );
    assert_eq!(
        Mcp::read_result(text.as_bytes(), PartLimit::default())
            .unwrap_err()
            .to_string(),
        over
    );
}

// ---- the fast path's own cases ----

#[test]
fn escaped_strings_read_through_the_owned_fallback() {
    // `\u0052` is `R` and `\/` is `/`: a string with an escape cannot be
    // borrowed, so it is unescaped into a copy and read the same.
    let text = r#"{"content":[
        {"type":"te\u0078t","text":"a\nb"},
        {"type":"image","mimeType":"image\/gif","data":"\u0052\u0030lGOA=="},
        {"type":"resource","resource":{"uri":"file:\/\/\/r%2Fx.pdf","blob":"JVBERi0\/"}}
    ]}"#;
    let read = Mcp::read_result(text, PartLimit::default()).unwrap();
    assert_eq!(read.output, "a\nb");
    assert_eq!(read.parts[0].mime_type(), Some("image/gif"));
    assert_eq!(read.parts[0].byte_len(), 4);
    assert_eq!(read.parts[1].name(), Some("x.pdf"));
    assert_eq!(
        Mcp::read_result(text.as_bytes(), PartLimit::default()).unwrap(),
        read
    );
    let value: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        Mcp::read_result(pretty(&value), PartLimit::default()).unwrap(),
        read
    );
}

#[test]
fn checks_run_in_one_order_whatever_the_order_of_keys() {
    // `isError` is checked before `content`, and `type` before anything a
    // block type needs, wherever they stand in the text.
    for (text, message) in [
        (
            r#"{"content":{},"isError":"yes"}"#,
            "isError: expected a boolean, found a string",
        ),
        (
            r#"{"content":[{"data":"!","mimeType":3,"type":"image"}]}"#,
            "content[0].mimeType: expected a string, found a number",
        ),
        (
            r#"{"content":[{"data":"!!!!","mimeType":"image/png","type":"image"}]}"#,
            "content[0]: invalid base64 in `data`: invalid character `!` at offset 0",
        ),
    ] {
        assert_eq!(
            Mcp::read_result(text, PartLimit::default())
                .unwrap_err()
                .to_string(),
            message
        );
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            Mcp::read_result(pretty(&value), PartLimit::default())
                .unwrap_err()
                .to_string(),
            message
        );
    }
}

#[test]
fn a_repeated_key_keeps_its_last_value_as_a_value_does() {
    let text = r#"{"content":[{"type":"text","text":"first","text":"last"}],"isError":true,"isError":false}"#;
    let read = Mcp::read_result(text, PartLimit::default()).unwrap();
    assert_eq!(read.output, "last");
    assert!(!read.is_error);
    let value: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        Mcp::read_result(pretty(&value), PartLimit::default()).unwrap(),
        read
    );
}

#[test]
fn text_that_is_not_json_is_a_json_error() {
    for text in [
        "",
        "{",
        r#"{"content":[]} x"#,
        r#"{"content":[{"type":"text","text":"a"#,
    ] {
        let err = Mcp::read_result(text, PartLimit::default()).unwrap_err();
        assert!(matches!(err, ConvertError::Json { .. }), "{err:?}");
        assert!(
            err.to_string()
                .starts_with("the result is not valid JSON: "),
            "{err}"
        );
        assert!(matches!(
            Mcp::read_result(text.as_bytes(), PartLimit::default()).unwrap_err(),
            ConvertError::Json { .. }
        ));
    }
    let err = Mcp::read_result(
        b"{\"content\":[{\"type\":\"text\",\"text\":\"\xff\"}]}",
        PartLimit::default(),
    )
    .unwrap_err();
    assert!(matches!(err, ConvertError::Json { .. }), "{err:?}");
}

#[test]
fn an_unknown_content_type_is_cut_to_64_characters() {
    let long = "v".repeat(10_000);
    let value = json!({"content": [{"type": long}]});
    let expected = format!(
        "content[0]: unknown content type `{}…`: expected one of `text`, `image`, `audio`, `resource`, `resource_link`",
        "v".repeat(64)
    );
    assert_eq!(
        Mcp::read_result(pretty(&value), PartLimit::default())
            .unwrap_err()
            .to_string(),
        expected
    );
    assert_eq!(
        Mcp::read_result(pretty(&value), PartLimit::default())
            .unwrap_err()
            .to_string(),
        expected
    );
    let exact = "w".repeat(64);
    let err = Mcp::read_result(
        json!({"content": [{"type": exact}]}).to_string(),
        PartLimit::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&err, ConvertError::UnknownContentType { type_name, .. } if *type_name == exact),
        "{err:?}"
    );
}
