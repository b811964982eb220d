//! Wire parity with the `toolnexus` crate: the same results, parts, requests
//! and answers serialise to the same bytes, and each side reads the other's
//! JSON back to the same bytes.
//!
//! Expected JSON is written by hand from the contract; the fixture's base64
//! comes from the committed golden, never from either crate's encoder.
#![cfg(feature = "toolnexus")]

use serde_json::{Map, Value, json};
use toolnexus as tn;
use toolresult::canonical as ours;

const PNG: &str = "tests/fixtures/fixture.png";
const PDF_BYTES: &[u8] = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
/// `PDF_BYTES` in standard padded base64, worked out by hand.
const PDF_B64: &str = "JVBERi0xLjcKJeLjz9MK";
/// Eight bytes of a WAV header; `UklGRiQAAABXQVZF` is their base64.
const WAV_BYTES: &[u8] = b"RIFF$\0\0\0WAVE";
const WAV_B64: &str = "UklGRiQAAABXQVZF";

fn png_b64() -> String {
    std::fs::read_to_string("tests/fixtures/fixture.png.base64")
        .unwrap()
        .trim()
        .to_owned()
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap()
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// Asserts both values serialise to `expected`, byte for byte.
#[track_caller]
fn same_bytes<A: serde::Serialize, B: serde::Serialize>(our: &A, their: &B, expected: &str) {
    let our = to_json(our);
    let their = to_json(their);
    assert_eq!(our, expected, "ours differs from the contract");
    assert_eq!(their, expected, "toolnexus differs from the contract");
}

/// Parses `json` with our type and with theirs, and checks each re-serialises
/// to the input bytes.
#[track_caller]
fn both_round_trip<A, B>(json: &str)
where
    A: serde::Serialize + serde::de::DeserializeOwned,
    B: serde::Serialize + serde::de::DeserializeOwned,
{
    let our: A = serde_json::from_str(json).unwrap();
    assert_eq!(to_json(&our), json, "ours did not round-trip");
    let their: B = serde_json::from_str(json).unwrap();
    assert_eq!(to_json(&their), json, "toolnexus did not round-trip");
}

// ---------------------------------------------------------------------------
// (a) the same value from each crate's own constructors
// ---------------------------------------------------------------------------

#[test]
fn ok_and_error_results() {
    same_bytes(
        &ours::ToolResult::ok("eu-west-1"),
        &tn::ToolResult::ok("eu-west-1"),
        r#"{"output":"eu-west-1","isError":false}"#,
    );
    same_bytes(
        &ours::ToolResult::error("No such config key: nope"),
        &tn::ToolResult::error("No such config key: nope"),
        r#"{"output":"No such config key: nope","isError":true}"#,
    );
    same_bytes(
        &ours::ToolResult::ok(""),
        &tn::ToolResult::ok(""),
        r#"{"output":"","isError":false}"#,
    );
    // Escapes: quotes, newlines, control characters and non-ASCII.
    let tricky = "line \"one\"\nline\ttwo \u{1} é ☃";
    same_bytes(
        &ours::ToolResult::ok(tricky),
        &tn::ToolResult::ok(tricky),
        r#"{"output":"line \"one\"\nline\ttwo \u0001 é ☃","isError":false}"#,
    );
}

#[test]
fn a_result_with_the_fixture_png() {
    let our_png = ours::ContentPart::from_path(PNG, ours::PartLimit::default()).unwrap();
    let our = ours::ToolResult::ok(our_png.describe()).with_parts([our_png]);
    let their = tn::ToolResult {
        parts: vec![tn::ContentPart::from_path(PNG).unwrap()],
        ..tn::ToolResult::ok("image (image/png, 82 bytes)")
    };
    same_bytes(
        &our,
        &their,
        &format!(
            r#"{{"output":"image (image/png, 82 bytes)","isError":false,"parts":[{{"type":"image","mimeType":"image/png","data":"{}"}}]}}"#,
            png_b64()
        ),
    );
}

#[test]
fn a_pdf_part_from_bytes_with_a_name() {
    let our = ours::ContentPart::from_bytes(PDF_BYTES.to_vec(), "application/pdf")
        .unwrap()
        .with_name("q3.pdf");
    let mut their = tn::ContentPart::from_bytes(PDF_BYTES, "application/pdf").unwrap();
    their.name = "q3.pdf".into();
    same_bytes(
        &our,
        &their,
        &format!(
            r#"{{"type":"file","mimeType":"application/pdf","data":"{PDF_B64}","name":"q3.pdf"}}"#
        ),
    );
}

#[test]
fn a_pdf_part_from_a_path_keeps_its_base_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Report.PDF");
    std::fs::write(&path, PDF_BYTES).unwrap();
    same_bytes(
        &ours::ContentPart::from_path(&path, ours::PartLimit::default()).unwrap(),
        &tn::ContentPart::from_path(&path).unwrap(),
        &format!(
            r#"{{"type":"file","mimeType":"application/pdf","data":"{PDF_B64}","name":"Report.PDF"}}"#
        ),
    );
}

#[test]
fn a_url_part() {
    same_bytes(
        &ours::ContentPart::from_url("https://example.com/a.png", Some("image/png")).unwrap(),
        &tn::ContentPart::from_url("https://example.com/a.png", "image/png").unwrap(),
        r#"{"type":"image","mimeType":"image/png","url":"https://example.com/a.png"}"#,
    );
    same_bytes(
        &ours::ContentPart::from_url("https://example.com/q3", Some("application/pdf")).unwrap(),
        &tn::ContentPart::from_url("https://example.com/q3", "application/pdf").unwrap(),
        r#"{"type":"file","mimeType":"application/pdf","url":"https://example.com/q3"}"#,
    );
}

#[test]
fn a_data_url_becomes_inline_data_in_both() {
    let url = format!("data:image/png;base64,{}", png_b64());
    same_bytes(
        &ours::ContentPart::from_url(&url, None).unwrap(),
        &tn::ContentPart::from_url(&url, "").unwrap(),
        &format!(
            r#"{{"type":"image","mimeType":"image/png","data":"{}"}}"#,
            png_b64()
        ),
    );
}

#[test]
fn text_parts() {
    same_bytes(
        &ours::ContentPart::text("hello"),
        &tn::ContentPart::text("hello"),
        r#"{"type":"text","text":"hello"}"#,
    );
    same_bytes(
        &ours::ContentPart::text(""),
        &tn::ContentPart::text(""),
        r#"{"type":"text"}"#,
    );
}

#[test]
fn an_audio_part() {
    same_bytes(
        &ours::ContentPart::from_bytes(WAV_BYTES.to_vec(), "audio/wav").unwrap(),
        &tn::ContentPart::from_bytes(WAV_BYTES, "audio/wav").unwrap(),
        &format!(r#"{{"type":"audio","mimeType":"audio/wav","data":"{WAV_B64}"}}"#),
    );
    same_bytes(
        &ours::ContentPart::from_reader(WAV_BYTES, "audio/mpeg", ours::PartLimit::default())
            .unwrap(),
        &tn::ContentPart::from_reader(WAV_BYTES, "audio/mpeg").unwrap(),
        &format!(r#"{{"type":"audio","mimeType":"audio/mpeg","data":"{WAV_B64}"}}"#),
    );
}

#[test]
fn a_result_with_every_kind_of_part_and_metadata() {
    let our = ours::ToolResult::ok("four parts")
        .with_parts([
            ours::ContentPart::text("caption"),
            ours::ContentPart::from_path(PNG, ours::PartLimit::default()).unwrap(),
            ours::ContentPart::from_bytes(PDF_BYTES.to_vec(), "application/pdf")
                .unwrap()
                .with_name("q3.pdf"),
            ours::ContentPart::from_url("https://example.com/a.wav", Some("audio/wav")).unwrap(),
        ])
        .with_meta("title", "search: usage")
        .with_meta("count", 2)
        .with_meta("ids", vec![1, 2]);

    let mut pdf = tn::ContentPart::from_bytes(PDF_BYTES, "application/pdf").unwrap();
    pdf.name = "q3.pdf".into();
    let their = tn::ToolResult {
        parts: vec![
            tn::ContentPart::text("caption"),
            tn::ContentPart::from_path(PNG).unwrap(),
            pdf,
            tn::ContentPart::from_url("https://example.com/a.wav", "audio/wav").unwrap(),
        ],
        ..tn::ToolResult::ok("four parts").with_metadata(object(json!({
            "title": "search: usage",
            "count": 2,
            "ids": [1, 2],
        })))
    };
    same_bytes(
        &our,
        &their,
        &format!(
            concat!(
                r#"{{"output":"four parts","isError":false,"parts":["#,
                r#"{{"type":"text","text":"caption"}},"#,
                r#"{{"type":"image","mimeType":"image/png","data":"{png}"}},"#,
                r#"{{"type":"file","mimeType":"application/pdf","data":"{pdf}","name":"q3.pdf"}},"#,
                r#"{{"type":"audio","mimeType":"audio/wav","url":"https://example.com/a.wav"}}],"#,
                r#""metadata":{{"count":2,"ids":[1,2],"title":"search: usage"}}}}"#,
            ),
            png = png_b64(),
            pdf = PDF_B64,
        ),
    );
}

fn full_request_data() -> Map<String, Value> {
    object(json!({"env": ["dev", "prod"], "default": "dev"}))
}

#[test]
fn pending_with_a_fixed_id() {
    let our = ours::ToolResult::pending(
        ours::Request::input("Which environment?")
            .with_id("req-1")
            .with_url("https://example.com/pick")
            .with_data(full_request_data())
            .with_expires_at("2026-12-03T10:00:00Z"),
    );
    let their = tn::pending(tn::Request {
        id: "req-1".into(),
        kind: "input".into(),
        prompt: "Which environment?".into(),
        url: "https://example.com/pick".into(),
        data: Some(full_request_data()),
        expires_at: "2026-12-03T10:00:00Z".into(),
    });
    same_bytes(
        &our,
        &their,
        concat!(
            r#"{"output":"Which environment?\nhttps://example.com/pick","isError":true,"#,
            r#""metadata":{"pending":{"data":{"default":"dev","env":["dev","prod"]},"#,
            r#""expiresAt":"2026-12-03T10:00:00Z","id":"req-1","kind":"input","#,
            r#""prompt":"Which environment?","url":"https://example.com/pick"}}}"#,
        ),
    );

    // The bare minimum: no url, data or expiry.
    same_bytes(
        &ours::ToolResult::pending(ours::Request::input("Which environment?").with_id("req-2")),
        &tn::pending(tn::Request {
            id: "req-2".into(),
            kind: "input".into(),
            prompt: "Which environment?".into(),
            ..tn::Request::default()
        }),
        r#"{"output":"Which environment?","isError":true,"metadata":{"pending":{"id":"req-2","kind":"input","prompt":"Which environment?"}}}"#,
    );
}

#[test]
fn auth_required_with_a_fixed_id_through_the_request_path() {
    let our = ours::ToolResult::pending(
        ours::Request::authorization("https://example.com/login").with_id("auth-1"),
    );
    let their = tn::pending(tn::Request {
        id: "auth-1".into(),
        kind: "authorization".into(),
        prompt: "Authorization required to continue".into(),
        url: "https://example.com/login".into(),
        ..tn::Request::default()
    });
    same_bytes(
        &our,
        &their,
        concat!(
            r#"{"output":"Authorization required to continue\nhttps://example.com/login","isError":true,"#,
            r#""metadata":{"pending":{"id":"auth-1","kind":"authorization","#,
            r#""prompt":"Authorization required to continue","url":"https://example.com/login"}}}"#,
        ),
    );
}

/// `auth_required` itself generates an id, so compare everything but the id.
#[test]
fn auth_required_agrees_apart_from_the_generated_id() {
    let cases = [
        (None, ""),
        (Some(""), ""),
        (Some("Sign in to GitHub"), "Sign in to GitHub"),
    ];
    for (our_prompt, their_prompt) in cases {
        let mut our = serde_json::to_value(ours::ToolResult::auth_required(
            "https://example.com/login",
            our_prompt,
        ))
        .unwrap();
        let mut their =
            serde_json::to_value(tn::auth_required("https://example.com/login", their_prompt))
                .unwrap();
        let our_id = our["metadata"]["pending"]["id"].take();
        let their_id = their["metadata"]["pending"]["id"].take();
        assert!(!our_id.as_str().unwrap().is_empty());
        assert!(!their_id.as_str().unwrap().is_empty());
        assert_eq!(to_json(&our), to_json(&their), "prompt {our_prompt:?}");
    }
}

/// A difference in spelling only: our generated ids are UUID v4, theirs are
/// `pnd-<base36 ms>-<seq>`. Both are opaque correlation keys.
#[test]
fn generated_ids_differ_in_form_only() {
    let our = ours::ToolResult::pending(ours::Request::input("a"))
        .pending_request()
        .unwrap()
        .id;
    assert!(uuid::Uuid::parse_str(&our).is_ok(), "{our}");
    let their = tn::pending_of(&tn::pending(tn::Request {
        kind: "input".into(),
        prompt: "a".into(),
        ..tn::Request::default()
    }))
    .unwrap()
    .id;
    assert!(their.starts_with("pnd-"), "{their}");
}

#[test]
fn answers_granted_and_declined() {
    let data = object(json!({"env": "prod"}));
    same_bytes(
        &ours::Answer::granted("req-1", Some(data.clone())),
        &tn::Answer {
            id: "req-1".into(),
            ok: true,
            data: Some(data),
            reason: String::new(),
        },
        r#"{"id":"req-1","ok":true,"data":{"env":"prod"}}"#,
    );
    same_bytes(
        &ours::Answer::granted("req-1", None),
        &tn::Answer {
            id: "req-1".into(),
            ok: true,
            ..tn::Answer::default()
        },
        r#"{"id":"req-1","ok":true}"#,
    );
    same_bytes(
        &ours::Answer::declined("req-1", "user cancelled"),
        &tn::Answer {
            id: "req-1".into(),
            ok: false,
            data: None,
            reason: "user cancelled".into(),
        },
        r#"{"id":"req-1","ok":false,"reason":"user cancelled"}"#,
    );
}

#[test]
fn requests_on_their_own() {
    same_bytes(
        &ours::Request::input("Which environment?").with_id("req-1"),
        &tn::Request {
            id: "req-1".into(),
            kind: "input".into(),
            prompt: "Which environment?".into(),
            ..tn::Request::default()
        },
        r#"{"id":"req-1","kind":"input","prompt":"Which environment?"}"#,
    );
    // Field order of a standalone request follows the struct: url, data, expiresAt.
    same_bytes(
        &ours::Request::new("approval", "Deploy?")
            .with_id("req-3")
            .with_url("https://example.com/approve")
            .with_data(object(json!({"b": 1, "a": 2})))
            .with_expires_at("2026-12-03T10:00:00Z"),
        &tn::Request {
            id: "req-3".into(),
            kind: "approval".into(),
            prompt: "Deploy?".into(),
            url: "https://example.com/approve".into(),
            data: Some(object(json!({"b": 1, "a": 2}))),
            expires_at: "2026-12-03T10:00:00Z".into(),
        },
        concat!(
            r#"{"id":"req-3","kind":"approval","prompt":"Deploy?","#,
            r#""url":"https://example.com/approve","data":{"a":2,"b":1},"#,
            r#""expiresAt":"2026-12-03T10:00:00Z"}"#,
        ),
    );
}

// ---------------------------------------------------------------------------
// (b) and (c): each side parses the other's JSON back to the same bytes
// ---------------------------------------------------------------------------

/// JSON produced by our constructors, for every shape the contract has.
fn our_results() -> Vec<ours::ToolResult> {
    vec![
        ours::ToolResult::ok("eu-west-1"),
        ours::ToolResult::error("No such config key: nope"),
        ours::ToolResult::ok("image (image/png, 82 bytes)")
            .with_parts([ours::ContentPart::from_path(PNG, ours::PartLimit::default()).unwrap()]),
        ours::ToolResult::ok("parts")
            .with_parts([
                ours::ContentPart::text("caption"),
                ours::ContentPart::from_bytes(PDF_BYTES.to_vec(), "application/pdf")
                    .unwrap()
                    .with_name("q3.pdf"),
                ours::ContentPart::from_bytes(WAV_BYTES.to_vec(), "audio/wav").unwrap(),
                ours::ContentPart::from_url("https://example.com/a.png", Some("image/png"))
                    .unwrap(),
            ])
            .with_meta("count", 2),
        ours::ToolResult::pending(
            ours::Request::input("Which environment?")
                .with_id("req-1")
                .with_url("https://example.com/pick")
                .with_data(full_request_data())
                .with_expires_at("2026-12-03T10:00:00Z"),
        ),
        ours::ToolResult::pending(ours::Request::authorization("https://example.com/login")),
    ]
}

/// JSON produced by their constructors, for the same shapes.
fn their_results() -> Vec<tn::ToolResult> {
    let mut pdf = tn::ContentPart::from_bytes(PDF_BYTES, "application/pdf").unwrap();
    pdf.name = "q3.pdf".into();
    vec![
        tn::ToolResult::ok("eu-west-1"),
        tn::ToolResult::error("No such config key: nope"),
        tn::ToolResult {
            parts: vec![tn::ContentPart::from_path(PNG).unwrap()],
            ..tn::ToolResult::ok("image (image/png, 82 bytes)")
        },
        tn::ToolResult {
            parts: vec![
                tn::ContentPart::text("caption"),
                pdf,
                tn::ContentPart::from_bytes(WAV_BYTES, "audio/wav").unwrap(),
                tn::ContentPart::from_url("https://example.com/a.png", "image/png").unwrap(),
            ],
            ..tn::ToolResult::ok("parts").with_metadata(object(json!({"count": 2})))
        },
        tn::pending(tn::Request {
            id: "req-1".into(),
            kind: "input".into(),
            prompt: "Which environment?".into(),
            url: "https://example.com/pick".into(),
            data: Some(full_request_data()),
            expires_at: "2026-12-03T10:00:00Z".into(),
        }),
        tn::auth_required("https://example.com/login", ""),
    ]
}

#[test]
fn they_read_our_results_back_to_the_same_bytes() {
    for our in our_results() {
        let json = to_json(&our);
        let their: tn::ToolResult = serde_json::from_str(&json).unwrap();
        assert_eq!(to_json(&their), json);
    }
}

#[test]
fn we_read_their_results_back_to_the_same_bytes() {
    for their in their_results() {
        let json = to_json(&their);
        let our: ours::ToolResult = serde_json::from_str(&json).unwrap();
        assert_eq!(to_json(&our), json);
    }
}

#[test]
fn our_results_and_theirs_are_the_same_bytes_pairwise() {
    let ours = our_results();
    let theirs = their_results();
    assert_eq!(ours.len(), theirs.len());
    // The last pair carries generated ids, which differ by design.
    for (our, their) in ours.iter().zip(&theirs).take(ours.len() - 1) {
        assert_eq!(to_json(our), to_json(their));
    }
}

#[test]
fn parts_requests_and_answers_round_trip_through_both() {
    let png = format!(
        r#"{{"type":"image","mimeType":"image/png","data":"{}"}}"#,
        png_b64()
    );
    for json in [
        png.as_str(),
        r#"{"type":"text","text":"caption"}"#,
        r#"{"type":"text"}"#,
        r#"{"type":"text","text":"caption","name":"notes.txt"}"#,
        r#"{"type":"file","mimeType":"application/pdf","data":"JVBERi0xLjcKJeLjz9MK","name":"q3.pdf"}"#,
        r#"{"type":"audio","mimeType":"audio/wav","data":"UklGRiQAAABXQVZF"}"#,
        r#"{"type":"image","mimeType":"image/png","url":"https://example.com/a.png"}"#,
    ] {
        both_round_trip::<ours::ContentPart, tn::ContentPart>(json);
    }
    for json in [
        r#"{"id":"req-1","kind":"input","prompt":"Which environment?"}"#,
        r#"{"id":"req-3","kind":"approval","prompt":"Deploy?","url":"https://example.com/approve","data":{"a":2,"b":1},"expiresAt":"2026-12-03T10:00:00Z"}"#,
    ] {
        both_round_trip::<ours::Request, tn::Request>(json);
    }
    for json in [
        r#"{"id":"req-1","ok":true,"data":{"env":"prod"}}"#,
        r#"{"id":"req-1","ok":true}"#,
        r#"{"id":"req-1","ok":false,"reason":"user cancelled"}"#,
    ] {
        both_round_trip::<ours::Answer, tn::Answer>(json);
    }
}

// ---------------------------------------------------------------------------
// (d) each side reads the other's suspension
// ---------------------------------------------------------------------------

#[test]
fn our_pending_request_reads_their_pending_result() {
    let their = tn::pending(tn::Request {
        id: "req-1".into(),
        kind: "input".into(),
        prompt: "Which environment?".into(),
        url: "https://example.com/pick".into(),
        data: Some(full_request_data()),
        expires_at: "2026-12-03T10:00:00Z".into(),
    });
    let our: ours::ToolResult = serde_json::from_str(&to_json(&their)).unwrap();
    let request = our
        .pending_request()
        .expect("their suspension reads as ours");
    assert_eq!(
        request,
        ours::Request::input("Which environment?")
            .with_id("req-1")
            .with_url("https://example.com/pick")
            .with_data(full_request_data())
            .with_expires_at("2026-12-03T10:00:00Z")
    );
    assert!(our.is_error);

    let their_auth = tn::auth_required("https://example.com/login", "");
    let our_auth: ours::ToolResult = serde_json::from_str(&to_json(&their_auth)).unwrap();
    let request = our_auth.pending_request().unwrap();
    assert_eq!(request.kind, "authorization");
    assert_eq!(request.prompt, "Authorization required to continue");
    assert_eq!(request.url.as_deref(), Some("https://example.com/login"));
    assert_eq!(request.id, tn::pending_of(&their_auth).unwrap().id);
}

#[test]
fn their_pending_of_reads_our_pending_result() {
    let our = ours::ToolResult::pending(
        ours::Request::input("Which environment?")
            .with_id("req-1")
            .with_url("https://example.com/pick")
            .with_data(full_request_data())
            .with_expires_at("2026-12-03T10:00:00Z"),
    );
    let their: tn::ToolResult = serde_json::from_str(&to_json(&our)).unwrap();
    assert_eq!(
        tn::pending_of(&their),
        Some(tn::Request {
            id: "req-1".into(),
            kind: "input".into(),
            prompt: "Which environment?".into(),
            url: "https://example.com/pick".into(),
            data: Some(full_request_data()),
            expires_at: "2026-12-03T10:00:00Z".into(),
        })
    );

    // A generated id survives the crossing.
    let our_auth = ours::ToolResult::auth_required("https://example.com/login", None);
    let their_auth: tn::ToolResult = serde_json::from_str(&to_json(&our_auth)).unwrap();
    let request = tn::pending_of(&their_auth).expect("our suspension reads as theirs");
    assert_eq!(request.id, our_auth.pending_request().unwrap().id);
    assert_eq!(request.kind, "authorization");
    assert_eq!(request.url, "https://example.com/login");

    // And neither side sees a suspension in a plain result of the other.
    let plain: tn::ToolResult =
        serde_json::from_str(&to_json(&ours::ToolResult::ok("done"))).unwrap();
    assert_eq!(tn::pending_of(&plain), None);
    let plain: ours::ToolResult =
        serde_json::from_str(&to_json(&tn::ToolResult::ok("done"))).unwrap();
    assert_eq!(plain.pending_request(), None);
}

// ---------------------------------------------------------------------------
// describe strings against their read builtin
// ---------------------------------------------------------------------------

fn their_read(path: &str) -> tn::ToolResult {
    let cfg = tn::BuiltinsConfig {
        shell: vec!["sh".into(), "-c".into()],
        ..tn::BuiltinsConfig::default()
    };
    let read = tn::builtins::create_builtin_tools(&cfg)
        .into_iter()
        .find(|tool| tool.name == "read")
        .expect("toolnexus has a read builtin");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(read.call(json!({ "path": path }), tn::ToolContext::default()))
}

#[test]
fn read_of_the_fixture_matches_their_read_builtin() {
    let their = their_read(PNG);
    let our = ours::ToolResult::from_path(PNG, ours::PartLimit::default());
    let expected = format!(
        r#"{{"output":"tests/fixtures/fixture.png (image/png, 82 bytes)","isError":false,"parts":[{{"type":"image","mimeType":"image/png","data":"{}"}}]}}"#,
        png_b64()
    );
    same_bytes(&our, &their, &expected);
}

#[test]
fn read_of_a_pdf_and_a_wav_matches_their_read_builtin() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("q3.pdf");
    std::fs::write(&pdf, PDF_BYTES).unwrap();
    let wav = dir.path().join("a.WAV");
    std::fs::write(&wav, WAV_BYTES).unwrap();
    for (path, part) in [
        (
            pdf,
            format!(
                r#"{{"type":"file","mimeType":"application/pdf","data":"{PDF_B64}","name":"q3.pdf"}}"#
            ),
        ),
        (
            wav,
            format!(r#"{{"type":"audio","mimeType":"audio/wav","data":"{WAV_B64}"}}"#),
        ),
    ] {
        let shown = path.to_str().unwrap();
        let mime = if shown.ends_with(".pdf") {
            "application/pdf"
        } else {
            "audio/wav"
        };
        let len = if shown.ends_with(".pdf") {
            PDF_BYTES.len()
        } else {
            WAV_BYTES.len()
        };
        let expected = format!(
            r#"{{"output":"{shown} ({mime}, {len} bytes)","isError":false,"parts":[{part}]}}"#
        );
        same_bytes(
            &ours::ToolResult::from_path(&path, ours::PartLimit::default()),
            &their_read(shown),
            &expected,
        );
    }
}

#[test]
fn read_of_a_text_file_matches_their_read_builtin() {
    let path = "tests/fixtures/mcp.json";
    same_bytes(
        &ours::ToolResult::from_path(path, ours::PartLimit::default()),
        &their_read(path),
        &format!(
            r#"{{"output":{},"isError":false}}"#,
            serde_json::to_string(&std::fs::read_to_string(path).unwrap()).unwrap()
        ),
    );
}

#[test]
fn our_describe_is_their_read_output_without_the_path() {
    let their = their_read(PNG);
    let our_part = ours::ContentPart::from_path(PNG, ours::PartLimit::default()).unwrap();
    assert_eq!(our_part.describe(), "image (image/png, 82 bytes)");
    assert_eq!(
        their.output,
        format!("{PNG} {}", our_part.describe().trim_start_matches("image "))
    );
}

// ---------------------------------------------------------------------------
// differences: where toolnexus accepts what the contract forbids
// ---------------------------------------------------------------------------

mod differences {
    use super::*;

    /// Parses with both: they accept the JSON, we refuse it with `message`.
    #[track_caller]
    fn they_accept_we_refuse_part(json: &str, message: &str) {
        assert!(
            serde_json::from_str::<tn::ContentPart>(json).is_ok(),
            "toolnexus now refuses {json}"
        );
        let err = serde_json::from_str::<ours::ContentPart>(json).unwrap_err();
        assert_eq!(err.to_string(), message, "for {json}");
    }

    #[test]
    fn invalid_parts_on_the_wire() {
        they_accept_we_refuse_part(
            r#"{"type":"image","mimeType":"image/png","data":"AAAA","url":"https://example.com/a.png"}"#,
            "an image part has both `data` and `url`; it must have exactly one at line 1 column 87",
        );
        they_accept_we_refuse_part(
            r#"{"type":"image","mimeType":"image/png"}"#,
            "an image part has neither `data` nor `url`; it must have exactly one at line 1 column 39",
        );
        they_accept_we_refuse_part(
            r#"{"type":"image","data":"AAAA"}"#,
            "an image part needs a mime type at line 1 column 30",
        );
        they_accept_we_refuse_part(
            r#"{"type":"video","mimeType":"video/mp4","data":"AAAA"}"#,
            "unknown part type `video`: expected one of `text`, `image`, `file`, `audio` at line 1 column 53",
        );
        they_accept_we_refuse_part(
            r#"{"type":"image","mimeType":"image/png","data":"AAA"}"#,
            "invalid base64 in `data`: missing or misplaced `=` padding (standard base64 is padded to a multiple of 4 characters) at line 1 column 51",
        );
        they_accept_we_refuse_part(
            r#"{"type":"image","mimeType":"image/png","url":"file:///etc/passwd"}"#,
            "`file:///etc/passwd` is not a URL a part may hold: a file: URL is a filesystem path at line 1 column 66",
        );
        they_accept_we_refuse_part(
            r#"{"type":"text","text":"hi","mimeType":"text/plain"}"#,
            "a text part cannot carry `mimeType` at line 1 column 51",
        );
    }

    #[test]
    fn invalid_parts_from_constructors() {
        // A mime type that is not `type/subtype`.
        let their = tn::ContentPart::from_bytes(b"x", "png").unwrap();
        assert_eq!(their.kind, "file");
        assert_eq!(
            ours::ContentPart::from_bytes(b"x".to_vec(), "png")
                .unwrap_err()
                .to_string(),
            "invalid mime type `png`: expected `type/subtype`"
        );
        // A file: URL and a URL without a scheme are kept by them.
        assert_eq!(
            tn::ContentPart::from_url("file:///etc/passwd", "image/png")
                .unwrap()
                .url,
            "file:///etc/passwd"
        );
        assert_eq!(
            ours::ContentPart::from_url("file:///etc/passwd", Some("image/png"))
                .unwrap_err()
                .to_string(),
            "`file:///etc/passwd` is not a URL a part may hold: a file: URL is a filesystem path"
        );
        assert_eq!(
            tn::ContentPart::from_url("example.com/a.png", "image/png")
                .unwrap()
                .url,
            "example.com/a.png"
        );
        assert_eq!(
            ours::ContentPart::from_url("example.com/a.png", Some("image/png"))
                .unwrap_err()
                .to_string(),
            "`example.com/a.png` is not a URL a part may hold: it has no scheme"
        );
    }

    #[test]
    fn data_url_parameters() {
        // A parameter before `;base64`: they keep it in the mime type, we drop it.
        let url = "data:image/png;charset=utf-8;base64,R0lGOA==";
        assert_eq!(
            tn::ContentPart::from_url(url, "").unwrap().mime_type,
            "image/png;charset=utf-8"
        );
        assert_eq!(
            ours::ContentPart::from_url(url, None).unwrap().mime_type(),
            Some("image/png")
        );
        // An explicit mime type that disagrees with the data: URL: they
        // ignore it, we refuse.
        let url = "data:image/gif;base64,R0lGOA==";
        assert_eq!(
            tn::ContentPart::from_url(url, "image/png")
                .unwrap()
                .mime_type,
            "image/gif"
        );
        assert_eq!(
            ours::ContentPart::from_url(url, Some("image/png"))
                .unwrap_err()
                .to_string(),
            "mime type `image/png` does not match the data: URL's mime type `image/gif`"
        );
        // An upper-case scheme: they keep it as a URL, we decode it.
        let url = "DATA:image/gif;base64,R0lGOA==";
        assert_eq!(
            tn::ContentPart::from_url(url, "image/gif").unwrap().url,
            url
        );
        assert_eq!(
            ours::ContentPart::from_url(url, None).unwrap().data(),
            Some(&b"GIF8"[..])
        );
    }

    #[test]
    fn mime_case_picks_the_kind() {
        // We read `IMAGE/PNG` as an image, they as a file.
        assert_eq!(
            tn::ContentPart::from_bytes(b"x", "IMAGE/PNG").unwrap().kind,
            "file"
        );
        assert_eq!(
            ours::ContentPart::from_bytes(b"x".to_vec(), "IMAGE/PNG")
                .unwrap()
                .kind(),
            ours::PartKind::Image
        );
    }

    #[test]
    fn an_empty_inline_payload() {
        // Zero bytes inline: we write `"data":""`, they drop the empty string,
        // leaving a part with neither data nor url, which we then refuse.
        let our = ours::ContentPart::from_bytes(Vec::new(), "text/csv").unwrap();
        assert_eq!(
            to_json(&our),
            r#"{"type":"file","mimeType":"text/csv","data":""}"#
        );
        let their = tn::ContentPart::from_bytes(b"", "text/csv").unwrap();
        let their_json = to_json(&their);
        assert_eq!(their_json, r#"{"type":"file","mimeType":"text/csv"}"#);
        assert_eq!(
            serde_json::from_str::<ours::ContentPart>(&their_json)
                .unwrap_err()
                .to_string(),
            "a file part has neither `data` nor `url`; it must have exactly one at line 1 column 37"
        );
    }

    #[test]
    fn lenient_reading_of_results() {
        // A missing or null output, and null parts: we read them, they refuse.
        for json in [
            r#"{"isError":false}"#,
            r#"{"output":null,"isError":false}"#,
            r#"{"output":"x","isError":false,"parts":null}"#,
            r#"{"output":"x"}"#,
        ] {
            assert!(
                serde_json::from_str::<tn::ToolResult>(json).is_err(),
                "{json}"
            );
            assert!(
                serde_json::from_str::<ours::ToolResult>(json).is_ok(),
                "{json}"
            );
        }
        // Null strings in a request or an answer.
        for json in [
            r#"{"id":"req-1","kind":"input","prompt":null}"#,
            r#"{"id":"req-1","kind":"input"}"#,
            r#"{"id":"req-1","kind":"input","prompt":"p","url":null}"#,
        ] {
            assert!(serde_json::from_str::<tn::Request>(json).is_err(), "{json}");
            assert!(
                serde_json::from_str::<ours::Request>(json).is_ok(),
                "{json}"
            );
        }
        // A JSON array read field by field: they take it as a result, we
        // take only objects.
        let json = r#"["done",true,[],null]"#;
        assert_eq!(
            serde_json::from_str::<tn::ToolResult>(json).unwrap(),
            tn::ToolResult::error("done")
        );
        assert_eq!(
            serde_json::from_str::<ours::ToolResult>(json)
                .unwrap_err()
                .to_string(),
            "invalid type: sequence, expected a tool result object at line 1 column 0"
        );
        let json = r#"{"id":"req-1","ok":false,"reason":null}"#;
        assert!(serde_json::from_str::<tn::Answer>(json).is_err());
        assert!(serde_json::from_str::<ours::Answer>(json).is_ok());
    }

    #[test]
    fn size_limits_and_directories() {
        let dir = tempfile::tempdir().unwrap();
        // A directory with a media extension.
        let shots = dir.path().join("shots.png");
        std::fs::create_dir(&shots).unwrap();
        assert!(tn::ContentPart::from_path(&shots).is_err());
        assert_eq!(
            ours::ContentPart::from_path(&shots, ours::PartLimit::default())
                .unwrap_err()
                .to_string(),
            format!("`{}` is not a regular file", shots.display())
        );
        // No size limit on their side: 21 MiB of bytes make a part.
        let big = vec![0u8; 21 * 1024 * 1024];
        assert!(tn::ContentPart::from_bytes(&big, "image/png").is_ok());
        assert_eq!(
            ours::ContentPart::from_bytes(big, "image/png")
                .unwrap_err()
                .to_string(),
            "the data is 22020096 bytes, over the part size limit of 20971520 bytes"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_non_utf8_file_name() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(OsStr::from_bytes(b"shot-\xff.png"));
        std::fs::write(&path, b"GIF8").unwrap();
        // They read it, we refuse: a name we cannot pass on faithfully.
        assert!(tn::ContentPart::from_path(&path).is_ok());
        assert_eq!(
            ours::ContentPart::from_path(&path, ours::PartLimit::default())
                .unwrap_err()
                .to_string(),
            format!(
                "the file name of `{}/shot-\u{fffd}.png` is not valid UTF-8",
                dir.path().display()
            )
        );
    }
}
