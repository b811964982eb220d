//! A secret in the source error's Display, Debug and context chain never
//! reaches the model: not the canonical result, its JSON, its Debug, nor
//! the Debug of the typed result or the diagnostics.

use std::fmt;

use toolresult::canonical::ContentPart;
use toolresult::{DynToolResult, Failure, IntoToolResult, ResultExt, ToolError, ToolResult};

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
    let result: ToolResult<u8> = Failure::new(ToolError::new("the database is unavailable"))
        .with_source(leaky())
        .into();
    assert_clean("typed Debug", &format!("{result:?}"));
    assert_clean(
        "failure Debug",
        &format!("{:?}", result.as_failure().unwrap()),
    );
    check("typed", result.lower());
}

#[test]
fn unexpected_std_error() {
    let failed: Result<u8, Leaky> = Err(leaky());
    check("Result<T, std error>", failed.lower());
}

#[test]
fn question_mark_on_a_std_error() {
    fn body() -> Result<u8, Failure> {
        Err(leaky())?
    }
    let result: ToolResult<u8> = body().into();
    assert_clean("typed Debug", &format!("{result:?}"));
    check("? in a body", result.lower());
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
    let result: ToolResult<u8> = Failure::unexpected_anyhow(err).into();
    check("anyhow", result.lower());
    let err = anyhow::Error::new(leaky()).context(format!("while loading user {SECRET}"));
    let result: ToolResult<u8> = Failure::new(ToolError::new("x")).with_anyhow(err).into();
    check("anyhow with model error", result.lower());
}

#[test]
fn failure_with_parts_and_the_dyn_view() {
    let png = ContentPart::from_path("tests/fixtures/fixture.png").unwrap();
    let result: ToolResult<u8> = ToolResult::failure(
        Failure::new(ToolError::new("screenshot of the failure")).with_source(leaky()),
    )
    .with_part(png);
    let view: &dyn DynToolResult = &result;
    let by_ref = view.to_tool_result();
    assert_clean("dyn view", &serde_json::to_string(&by_ref).unwrap());
    assert_clean("dyn view Debug", &format!("{by_ref:?}"));
    let boxed: Box<dyn DynToolResult> = Box::new(result);
    check("dyn lower_boxed", boxed.lower_boxed());
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
