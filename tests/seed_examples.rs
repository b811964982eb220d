//! The seed examples of the Toolnexus `ToolResult` pages, ported with their
//! expected strings.

use std::collections::HashMap;

use serde_json::json;
use toolresult::canonical::{ContentPart, PartKind, PartLimit, Request, ToolResult};

const FIXTURE: &str = "tests/fixtures/fixture.png";

fn read_config(config: &HashMap<&str, &str>, key: &str) -> ToolResult {
    match config.get(key) {
        Some(value) => ToolResult::ok(*value),
        None => ToolResult::error(format!("No such config key: {key}")),
    }
}

#[test]
fn success_and_failure_on_the_same_tool() {
    let config = HashMap::from([("region", "eu-west-1")]);
    let found = read_config(&config, "region");
    assert_eq!(found.output, "eu-west-1");
    assert!(!found.is_error);

    let missing = read_config(&config, "nope");
    assert!(missing.is_error);
    assert_eq!(missing.output, "No such config key: nope");
    assert_eq!(
        format!("ok: {} | {}", found.output, missing.output),
        "ok: eu-west-1 | No such config key: nope"
    );
}

#[test]
fn structured_output_and_metadata() {
    let hits = [(1, "Getting started"), (2, "Advanced usage")];
    let output = hits
        .iter()
        .map(|(id, title)| format!("#{id} {title}"))
        .collect::<Vec<_>>()
        .join("\n");
    let ids: Vec<i32> = hits.iter().map(|(id, _)| *id).collect();
    let res = ToolResult::ok(output)
        .with_meta("title", "search: usage")
        .with_meta("count", hits.len())
        .with_meta("ids", ids);

    assert_eq!(res.meta("count"), Some(&json!(2)));
    assert!(res.output.contains("Advanced usage"));
    assert_eq!(res.meta("title"), Some(&json!("search: usage")));

    // Value equality and a changed copy.
    assert_eq!(res, res.clone());
    let as_error = ToolResult {
        is_error: true,
        ..res.clone()
    };
    assert!(as_error.is_error);
    assert_eq!(as_error.output, res.output);
    assert_ne!(as_error, res);

    // The model never sees metadata: it rides beside output on the wire.
    assert_eq!(
        serde_json::to_string(&res).unwrap(),
        r##"{"output":"#1 Getting started\n#2 Advanced usage","isError":false,"metadata":{"count":2,"ids":[1,2],"title":"search: usage"}}"##
    );
}

#[test]
fn the_reserved_pending_key_is_a_suspension() {
    let res = ToolResult::pending(Request::input("Which environment?"));
    assert!(res.is_error, "a parked call is not a success");
    assert_eq!(res.output, "Which environment?");

    let req = res.pending_request().expect("the suspension reads back");
    assert_eq!(req.kind, "input");
    assert_eq!(req.prompt, "Which environment?");
    assert!(!req.id.is_empty(), "an id is generated");
    assert!(uuid::Uuid::parse_str(&req.id).is_ok(), "{}", req.id);

    let auth = ToolResult::auth_required("https://example.com/login", None);
    let auth_req = auth.pending_request().expect("auth suspension");
    assert_eq!(auth_req.kind, "authorization");
    assert_eq!(auth_req.url.as_deref(), Some("https://example.com/login"));
    assert_eq!(auth_req.prompt, "Authorization required to continue");
    assert_eq!(
        auth.output,
        "Authorization required to continue\nhttps://example.com/login"
    );
    // An empty prompt is the default prompt too, as in the Go port.
    let auth_empty = ToolResult::auth_required("https://example.com/login", Some(""));
    assert_eq!(
        auth_empty.pending_request().unwrap().prompt,
        "Authorization required to continue"
    );
    let custom = ToolResult::auth_required("https://example.com/login", Some("Sign in to GitHub"));
    assert_eq!(
        custom.pending_request().unwrap().prompt,
        "Sign in to GitHub"
    );

    assert!(ToolResult::ok("done").pending_request().is_none());
    assert!(!ToolResult::ok("done").is_pending());
    assert_eq!(
        format!("ok: {} | {}", req.kind, auth_req.kind),
        "ok: input | authorization"
    );
}

#[test]
fn generated_ids_are_unique_and_given_ids_are_kept() {
    let a = ToolResult::pending(Request::input("a"))
        .pending_request()
        .unwrap();
    let b = ToolResult::pending(Request::input("a"))
        .pending_request()
        .unwrap();
    assert_ne!(a.id, b.id);
    let kept = ToolResult::pending(Request::input("a").with_id("req-7"));
    assert_eq!(kept.pending_request().unwrap().id, "req-7");
}

#[test]
fn a_pending_request_reads_back_after_a_json_round_trip() {
    let mut data = serde_json::Map::new();
    data.insert("env".into(), json!(["dev", "prod"]));
    let request = Request::input("Which environment?")
        .with_id("req-1")
        .with_url("https://example.com/pick")
        .with_data(data)
        .with_expires_at("2026-12-03T10:00:00Z");
    let res = ToolResult::pending(request.clone());
    let json = serde_json::to_string(&res).unwrap();
    assert_eq!(
        json,
        r#"{"output":"Which environment?\nhttps://example.com/pick","isError":true,"metadata":{"pending":{"data":{"env":["dev","prod"]},"expiresAt":"2026-12-03T10:00:00Z","id":"req-1","kind":"input","prompt":"Which environment?","url":"https://example.com/pick"}}}"#
    );
    let back: ToolResult = serde_json::from_str(&json).unwrap();
    assert_eq!(back.pending_request(), Some(request));
    assert_eq!(back, res);
}

#[test]
fn metadata_that_is_not_a_request_is_no_suspension() {
    let res = ToolResult::ok("x").with_meta("pending", true);
    assert!(res.pending_request().is_none());
    let res = ToolResult::ok("x").with_meta("pending", json!({}));
    assert!(res.pending_request().is_none());
}

#[test]
fn non_text_output_in_parts() {
    let res = ToolResult::ok(
        ContentPart::from_path(FIXTURE, PartLimit::default())
            .unwrap()
            .describe(),
    )
    .with_parts([ContentPart::from_path(FIXTURE, PartLimit::default()).unwrap()]);
    assert!(!res.is_error);
    assert_eq!(res.parts.len(), 1);
    assert_eq!(res.parts[0].kind(), PartKind::Image);
    assert_eq!(res.output, "image (image/png, 82 bytes)");
    assert!(ToolResult::ok("done").parts.is_empty());
    assert_eq!(
        format!("ok: {} | {}", res.output, res.parts[0].describe()),
        "ok: image (image/png, 82 bytes) | image (image/png, 82 bytes)"
    );
}

#[test]
fn read_of_a_media_file() {
    let res = ToolResult::from_path(FIXTURE, PartLimit::default());
    assert!(!res.is_error, "{}", res.output);
    assert!(
        res.output.ends_with("fixture.png (image/png, 82 bytes)"),
        "{}",
        res.output
    );
    assert_eq!(res.parts.len(), 1);
    let img = &res.parts[0];
    assert_eq!(img.kind(), PartKind::Image);
    assert_eq!(img.mime_type(), Some("image/png"));
    assert_eq!(img.byte_len(), 82);
    let b64 = img.data_base64().unwrap();
    assert!(
        !res.output.contains(&b64),
        "output must not carry the base64"
    );
}

#[test]
fn read_of_a_text_file() {
    let res = ToolResult::from_path("tests/fixtures/mcp.json", PartLimit::default());
    assert!(!res.is_error, "{}", res.output);
    assert!(res.parts.is_empty(), "a text read carries no parts");
    assert_eq!(
        res.output,
        std::fs::read_to_string("tests/fixtures/mcp.json").unwrap()
    );
    assert_eq!(
        serde_json::to_string(&res).unwrap(),
        format!(
            r#"{{"output":{},"isError":false}}"#,
            serde_json::to_string(&res.output).unwrap()
        )
    );
}

#[test]
fn read_failures_are_error_results_naming_the_path() {
    let res = ToolResult::from_path("tests/fixtures/missing.png", PartLimit::default());
    assert!(res.is_error);
    assert!(
        res.output
            .starts_with("read: cannot read `tests/fixtures/missing.png`: "),
        "{}",
        res.output
    );
    let res = ToolResult::from_path("tests/fixtures", PartLimit::default());
    assert!(res.is_error);
    assert_eq!(res.output, "read: `tests/fixtures` is not a regular file");
    let res = ToolResult::from_path("tests/fixtures/mcp.json", PartLimit::new(10));
    assert!(res.is_error);
}
