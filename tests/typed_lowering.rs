//! The exact model-facing JSON of every lowering path.

use serde::Serialize;
use serde_json::json;
use toolresult::canonical::{self, ContentPart, PartLimit};
use toolresult::{Failure, IntoToolResult, ResultExt, ToolError, ToolResult};

#[derive(Serialize)]
struct Hit {
    id: u32,
    title: &'static str,
}

fn wire(result: &canonical::ToolResult) -> String {
    serde_json::to_string(result).unwrap()
}

#[test]
fn success_is_the_json_of_the_value() {
    let res = ToolResult::<_>::ok(vec![Hit {
        id: 1,
        title: "Getting started",
    }])
    .lower()
    .result;
    assert_eq!(
        wire(&res),
        r#"{"output":"[{\"id\":1,\"title\":\"Getting started\"}]","isError":false}"#
    );
}

#[test]
fn a_string_success_is_plain_text() {
    let res = ToolResult::<_>::ok("eu-west-1").lower().result;
    assert_eq!(wire(&res), r#"{"output":"eu-west-1","isError":false}"#);
    let escaped = ToolResult::<_>::ok("line \"one\"\nline two").lower().result;
    assert_eq!(escaped.output, "line \"one\"\nline two");
    let owned = ToolResult::<String>::ok("x".to_owned()).lower().result;
    assert_eq!(owned.output, "x");
}

#[test]
fn failure_without_a_suggestion() {
    let res = ToolResult::<u8>::fail(ToolError::new("No such config key: nope"))
        .lower()
        .result;
    assert_eq!(
        wire(&res),
        r#"{"output":"{\"error\":{\"message\":\"No such config key: nope\"}}","isError":true}"#
    );
}

#[test]
fn failure_with_a_suggestion() {
    let res = ToolResult::<u8>::fail(
        ToolError::new("No such config key: nope").with_suggestion("try region"),
    )
    .lower()
    .result;
    assert_eq!(
        res.output,
        r#"{"error":{"message":"No such config key: nope","suggestion":"try region"}}"#
    );
    assert!(res.is_error);
}

#[derive(Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
enum QuotaError {
    RateLimited { retry_in_seconds: u32 },
    Forbidden,
}

#[test]
fn custom_error_shapes() {
    let res = ToolResult::<u8, _>::fail(QuotaError::RateLimited {
        retry_in_seconds: 30,
    })
    .lower()
    .result;
    assert_eq!(
        res.output,
        r#"{"error":{"code":"rate_limited","retry_in_seconds":30}}"#
    );
    let res = ToolResult::<u8, _>::fail(QuotaError::Forbidden)
        .lower()
        .result;
    assert_eq!(res.output, r#"{"error":{"code":"forbidden"}}"#);
    let res = ToolResult::<u8, _>::fail("plain words").lower().result;
    assert_eq!(res.output, r#"{"error":"plain words"}"#);
}

#[test]
fn parts_travel_with_structured_data() {
    let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default()).unwrap();
    let res = ToolResult::<_>::ok(json!({"width": 8, "height": 8}))
        .with_parts([png])
        .with_meta("took_ms", 12)
        .lower()
        .result;
    let b64 = std::fs::read_to_string("tests/fixtures/fixture.png.base64").unwrap();
    assert_eq!(
        wire(&res),
        format!(
            r#"{{"output":"{{\"height\":8,\"width\":8}}","isError":false,"parts":[{{"type":"image","mimeType":"image/png","data":"{}"}}],"metadata":{{"took_ms":12}}}}"#,
            b64.trim()
        )
    );
}

#[test]
fn parts_travel_with_a_failure_too() {
    let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default()).unwrap();
    let res = ToolResult::<u8>::fail(ToolError::new("the page shows an error"))
        .with_parts([png])
        .lower()
        .result;
    assert!(res.is_error);
    assert_eq!(res.parts.len(), 1);
}

#[test]
fn results_of_plain_rust() {
    let ok: Result<u32, Failure> = Ok(7);
    assert_eq!(
        wire(&ok.lower().result),
        r#"{"output":"7","isError":false}"#
    );
    let err: Result<u32, ToolError> = Err(ToolError::new("no"));
    assert_eq!(err.lower().result.output, r#"{"error":{"message":"no"}}"#);
    // Any other error reaches the model through `?` in a body returning
    // `Result<T, Failure>`.
    fn read_shadow() -> Result<u32, Failure> {
        Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "/etc/shadow",
        ))?
    }
    let lowered = read_shadow().lower();
    assert_eq!(
        lowered.result.output,
        r#"{"error":{"message":"the tool failed with an unexpected error (std::io::Error, kind PermissionDenied)"}}"#
    );
    fn parse() -> Result<u32, Failure> {
        Ok("x".parse::<u32>()?)
    }
    assert_eq!(
        parse().lower().result.output,
        r#"{"error":{"message":"the tool failed with an unexpected error (std::num::ParseIntError)"}}"#
    );
}

#[test]
fn text_value_unit_and_canonical() {
    assert_eq!(
        wire(&"done".lower().result),
        r#"{"output":"done","isError":false}"#
    );
    assert_eq!(String::from("done").lower().result.output, "done");
    assert_eq!(json!("text").lower().result.output, "text");
    assert_eq!(json!([1, "a"]).lower().result.output, r#"[1,"a"]"#);
    assert_eq!(().lower().result.output, "null");
    let canonical = canonical::ToolResult::error("boom").with_meta("k", 1);
    let lowered = canonical.clone().lower();
    assert_eq!(lowered.result, canonical);
    assert!(lowered.result.is_error);
    assert!(lowered.diagnostics.source().is_none());
}

#[test]
fn a_success_has_no_diagnostics() {
    let lowered = ToolResult::<_>::ok(1).lower();
    assert!(!lowered.result.is_error);
    assert!(lowered.diagnostics.source().is_none());
    assert_eq!(lowered.diagnostics.is_transient(), None);
}

struct Unserialisable;

impl Serialize for Unserialisable {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("refused: token=SECRET"))
    }
}

#[test]
fn a_failing_serialize_becomes_an_error_result() {
    for lowered in [
        ToolResult::<_>::ok(Unserialisable)
            .with_meta("k", 1)
            .lower(),
        ToolResult::<u8, _>::fail(Unserialisable).lower(),
    ] {
        assert!(lowered.result.is_error);
        assert_eq!(
            lowered.result.output,
            r#"{"error":{"message":"the tool's result could not be serialised to JSON"}}"#
        );
        let source = lowered.diagnostics.source().unwrap();
        let serde_error = source.downcast_ref::<serde_json::Error>().unwrap();
        assert!(serde_error.to_string().contains("refused"));
        assert_eq!(lowered.diagnostics.is_transient(), Some(false));
    }
    let with_meta = ToolResult::<_>::ok(Unserialisable)
        .with_meta("k", 1)
        .lower()
        .result;
    assert_eq!(with_meta.meta("k"), Some(&json!(1)));
}

#[derive(Debug, thiserror::Error)]
#[error("upstream said 503")]
struct Upstream {
    status: u16,
}

#[test]
fn the_source_downcasts_after_lowering() {
    let result: ToolResult<u8> = ToolResult::fail(
        Failure::new(ToolError::new("the upstream is down"))
            .with_source(Upstream { status: 503 })
            .transient()
            .with_retry_after(std::time::Duration::from_millis(1500)),
    );
    let (canonical, diagnostics) = result.lower().into_parts();
    assert!(canonical.is_error);
    let upstream = diagnostics
        .source()
        .unwrap()
        .downcast_ref::<Upstream>()
        .unwrap();
    assert_eq!(upstream.status, 503);
    assert_eq!(diagnostics.source_type_name(), Some("Upstream"));
    assert_eq!(diagnostics.is_transient(), Some(true));
    assert_eq!(
        diagnostics.retry_after(),
        Some(std::time::Duration::from_millis(1500))
    );
    let owned: Upstream = diagnostics.into_source().unwrap().downcast().unwrap();
    assert_eq!(owned.status, 503);
}

#[derive(Debug, thiserror::Error)]
#[error("query failed")]
struct Query(#[source] std::io::Error);

#[test]
fn the_whole_chain_is_kept_and_io_kinds_are_found_in_it() {
    fn query() -> Result<u8, Failure> {
        Err(Query(std::io::ErrorKind::TimedOut.into()))?
    }
    let lowered = query().lower();
    assert_eq!(
        lowered.result.output,
        r#"{"error":{"message":"the tool failed with an unexpected error (Query, kind TimedOut)"}}"#
    );
    let chain: Vec<String> = lowered
        .diagnostics
        .source()
        .unwrap()
        .chain()
        .map(ToString::to_string)
        .collect();
    assert_eq!(chain, ["query failed", "timed out"]);
}

#[test]
fn question_mark_works_in_a_tool_body() {
    fn body(input: &str) -> Result<u32, Failure> {
        if input.is_empty() {
            Err(ToolError::new("input is empty"))?;
        }
        let n: u32 = input.parse()?;
        let text = std::fs::read_to_string(format!("no/such/{n}"))
            .tool_error(ToolError::new("cannot read the file"))?;
        Ok(text.len() as u32)
    }
    let empty = body("").unwrap_err();
    assert_eq!(empty.error().message, "input is empty");
    assert!(empty.diagnostics().source().is_none());
    let bad = body("x").unwrap_err();
    assert!(
        bad.diagnostics()
            .source()
            .unwrap()
            .is::<std::num::ParseIntError>()
    );
    let missing = body("3").unwrap_err();
    assert_eq!(missing.error().message, "cannot read the file");
    assert_eq!(
        missing
            .diagnostics()
            .source()
            .unwrap()
            .downcast_ref::<std::io::Error>()
            .unwrap()
            .kind(),
        std::io::ErrorKind::NotFound
    );
}

#[test]
fn anyhow_sources_keep_their_backtrace() {
    let err = anyhow::anyhow!("the pool is exhausted");
    let failure = Failure::unexpected(err);
    assert_eq!(
        failure.error().message,
        "the tool failed with an unexpected error (anyhow::Error)"
    );
    let diagnostics = failure.diagnostics();
    assert_eq!(diagnostics.source_type_name(), Some("anyhow::Error"));
    match diagnostics.source().unwrap().backtrace().status() {
        std::backtrace::BacktraceStatus::Captured => assert!(diagnostics.backtrace().is_some()),
        _ => assert!(diagnostics.backtrace().is_none()),
    }
}

#[test]
fn accessors_and_conversions() {
    let ok = ToolResult::<_>::ok(5u8);
    assert_eq!(ok.value(), Some(&5));
    // A success has no failure, so no error, source or hint.
    assert!(ok.failure().is_none() && ok.pending_request().is_none());
    let doubled = ok.map(|n| n * 2);
    assert_eq!(doubled.value(), Some(&10));
    assert_eq!(doubled.lower().result.output, "10");

    let failed = ToolResult::<u8>::fail(Failure::new(ToolError::new("x")).permanent());
    assert!(failed.value().is_none());
    let hint = failed.failure().unwrap().diagnostics().is_transient();
    assert_eq!(hint, Some(false));
    let mapped = failed.map_error(|e| e.message.len());
    assert_eq!(mapped.failure().map(Failure::error), Some(&1));
    // The mapped error is what the model gets, and the Rust channel is kept.
    let hint = mapped.failure().unwrap().diagnostics().is_transient();
    assert_eq!(hint, Some(false));
    let lowered = mapped.lower();
    assert_eq!(lowered.result.output, r#"{"error":1}"#);
    assert_eq!(lowered.diagnostics.is_transient(), Some(false));
}
