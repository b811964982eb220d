//! Each misuse of `#[tool]` fails to compile, at its own span, with a
//! message that says what to write instead (held in `ui/*.stderr`).

#[test]
fn misuse_is_a_compile_error_saying_what_to_write() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
