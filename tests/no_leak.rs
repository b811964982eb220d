//! A secret in the source error's Display, Debug and context chain never
//! reaches the model: not the canonical result, its JSON, its Debug, nor
//! the Debug of the typed result or the diagnostics.

use std::fmt;

use toolresult::canonical::{ContentPart, PartLimit};
use toolresult::{Failure, IntoToolResult, Lowered, ResultExt, ToolError, ToolResult};

const SECRET: &str = "SENTINEL-7f3a9c";

/// Carries the secret in Display, in Debug and in its source.
struct Leaky {
    inner: std::io::Error,
}

impl fmt::Display for Leaky {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "connect to db with password {SECRET}")
    }
}

impl fmt::Debug for Leaky {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Leaky {{ dsn: \"postgres://admin:{SECRET}@db\" }}")
    }
}

impl std::error::Error for Leaky {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.inner)
    }
}

fn leaky() -> Leaky {
    Leaky {
        inner: std::io::Error::new(
            std::io::ErrorKind::ConnectionRefused,
            format!("inner {SECRET}"),
        ),
    }
}

fn assert_clean(label: &str, text: &str) {
    assert!(!text.contains(SECRET), "{label} leaks the secret: {text}");
}

/// Checks everything the model channel can be seen through, and that the
/// secret is still there for Rust (so the test can fail).
fn check(label: &str, lowered: toolresult::Lowered) {
    let json = serde_json::to_string(&lowered.result).unwrap();
    assert_clean(label, &json);
    assert_clean(label, &lowered.result.output);
    assert_clean(label, &format!("{:?}", lowered.result));
    assert_clean(label, &format!("{:#?}", lowered.result));
    assert_clean(label, &format!("{:?}", lowered.diagnostics));
    assert_clean(label, &format!("{lowered:?}"));
    assert!(lowered.result.is_error, "{label}");
    let source = lowered
        .diagnostics
        .source()
        .expect("the source is kept for Rust");
    let chain = format!("{source:#} {source:?}");
    assert!(
        chain.contains(SECRET),
        "{label}: the source should still hold the secret"
    );
}

#[test]
fn typed_failure_with_a_source() {
    let result: ToolResult<u8> = ToolResult::fail(
        Failure::new(ToolError::new("the database is unavailable")).with_source(leaky()),
    );
    assert_clean("typed Debug", &format!("{result:?}"));
    assert_clean("failure Debug", &format!("{:?}", result.failure().unwrap()));
    check("typed", result.lower());
}

#[test]
fn unexpected_std_error() {
    // Any std error is an unexpected failure, its text kept for Rust only.
    let failed: Result<u8, Failure> = Err(Failure::unexpected(leaky()));
    assert_clean("Result Debug", &format!("{failed:?}"));
    check("Result<T, Failure> of a std error", failed.lower());
}

#[test]
fn question_mark_on_a_std_error() {
    fn body() -> Result<u8, Failure> {
        Err(leaky())?
    }
    assert_clean("Result Debug", &format!("{:?}", body()));
    let result: ToolResult<u8> = ToolResult::fail(body().unwrap_err());
    assert_clean("typed Debug", &format!("{result:?}"));
    check("? in a body", body().lower());
    check("? in a body, typed", result.lower());
}

#[test]
fn result_ext_context() {
    let failed: Result<u8, Leaky> = Err(leaky());
    let with_context = failed.tool_error(ToolError::new("cannot connect"));
    check("ResultExt", with_context.lower());
}

#[test]
fn anyhow_context_chain() {
    let err = anyhow::Error::new(leaky()).context(format!("while loading user {SECRET}"));
    let result: ToolResult<u8> = ToolResult::fail(Failure::unexpected(err));
    check("anyhow", result.lower());
    let err = anyhow::Error::new(leaky()).context(format!("while loading user {SECRET}"));
    let result: ToolResult<u8> =
        ToolResult::fail(Failure::new(ToolError::new("x")).with_source(err));
    check("anyhow with model error", result.lower());
    // `?` on an `anyhow::Result` in a body.
    fn body() -> Result<u8, Failure> {
        let loaded: anyhow::Result<u8> =
            Err(anyhow::Error::new(leaky()).context(format!("while loading user {SECRET}")));
        Ok(loaded?)
    }
    check("? on anyhow", body().lower());
}

#[test]
fn failure_with_parts_and_the_dyn_view() {
    let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default()).unwrap();
    let result: ToolResult<u8> = ToolResult::fail(
        Failure::new(ToolError::new("screenshot of the failure")).with_source(leaky()),
    )
    .with_parts([png]);
    // Results of different types are held type-erased as `Lowered` values.
    let other: ToolResult<String, String> =
        ToolResult::fail(Failure::new("no screenshot".to_owned()).with_source(leaky()));
    let held: Vec<Lowered> = vec![result.lower(), other.lower()];
    assert_eq!(held[0].result.parts.len(), 1);
    for lowered in held {
        check("held Lowered", lowered);
    }
}

#[test]
fn failing_serialiser_text_is_not_shown() {
    struct Refuses;
    impl serde::Serialize for Refuses {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom(SECRET))
        }
    }
    check(
        "failing Serialize of T",
        ToolResult::<_>::ok(Refuses).lower(),
    );
    check(
        "failing Serialize of E",
        ToolResult::<u8, _>::fail(Refuses).lower(),
    );
}
