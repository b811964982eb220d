//! A tool name no provider would take is refused when the tool is defined,
//! with an error that says what is wrong.

use toolresult::tool;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

fn define(name: &str) -> Result<(), String> {
    tool::function(name, "A tool", |_: NoArgs| "done")
        .map(drop)
        .map_err(|e| e.to_string())
}

#[test]
fn names_every_provider_accepts() {
    for name in ["get_weather", "a", "_private", "Tool-2", &"x".repeat(64)] {
        assert_eq!(define(name), Ok(()), "{name}");
    }
    let async_tool = tool::function("lookup", "A tool", |_: NoArgs| async { "done" });
    assert!(async_tool.is_ok());
}

#[test]
fn names_some_provider_refuses() {
    assert_eq!(
        define(""),
        Err("invalid tool name ``: it is empty".to_owned())
    );
    assert_eq!(
        define("3d_render"),
        Err("invalid tool name `3d_render`: it starts with `3`; a tool name starts with an ASCII letter or `_`".to_owned())
    );
    assert_eq!(
        define("-flag"),
        Err("invalid tool name `-flag`: it starts with `-`; a tool name starts with an ASCII letter or `_`".to_owned())
    );
    // Gemini takes `.` and `:`, OpenAI and Anthropic do not.
    assert_eq!(
        define("files.read"),
        Err("invalid tool name `files.read`: it holds `.` at byte 5; a tool name holds only ASCII letters, digits, `_` and `-`".to_owned())
    );
    assert_eq!(
        define("ns:tool"),
        Err("invalid tool name `ns:tool`: it holds `:` at byte 2; a tool name holds only ASCII letters, digits, `_` and `-`".to_owned())
    );
    assert_eq!(
        define("get weather"),
        Err("invalid tool name `get weather`: it holds ` ` at byte 3; a tool name holds only ASCII letters, digits, `_` and `-`".to_owned())
    );
    assert_eq!(
        define("météo"),
        Err("invalid tool name `météo`: it holds `é` at byte 1; a tool name holds only ASCII letters, digits, `_` and `-`".to_owned())
    );
    assert_eq!(
        define("new\nline"),
        Err("invalid tool name `new\\nline`: it holds `\\n` at byte 3; a tool name holds only ASCII letters, digits, `_` and `-`".to_owned())
    );
    assert_eq!(
        define(&"x".repeat(65)),
        Err(format!(
            "invalid tool name `{}…`: it is 65 bytes long; a tool name has at most 64",
            "x".repeat(64)
        ))
    );
    let async_tool = tool::function("bad name", "A tool", |_: NoArgs| async { "done" });
    assert!(async_tool.is_err());
}

#[test]
fn a_huge_name_is_cut_in_the_error() {
    let err = define(&"y".repeat(1 << 20)).unwrap_err();
    assert!(err.len() < 200, "{} bytes", err.len());
    assert!(err.ends_with("it is 1048576 bytes long; a tool name has at most 64"));
}
