//! Calling one tool in a test, outside a toolbox: the conveniences the
//! `Tool` trait leaves out (its one way to call is `Tool::call` with the
//! arguments and a `CallContext`).
#![allow(dead_code)]

use serde_json::Value;
use toolresult::Lowered;
use toolresult::tool::{Arguments, CallContext, Tool};

/// Calls `tool` with JSON arguments, as call `call_1`, and waits.
pub fn call<T: Tool + ?Sized>(tool: &T, args: Value) -> Lowered {
    pollster::block_on(tool.call(
        &Arguments::Json(args),
        &CallContext::new("call_1", tool.name()),
    ))
}

/// Calls `tool` with arguments as JSON text (OpenAI's `arguments`), and waits.
pub fn call_text<T: Tool + ?Sized>(tool: &T, text: &str) -> Lowered {
    pollster::block_on(tool.call(
        &Arguments::Text(text.to_owned()),
        &CallContext::new("call_1", tool.name()),
    ))
}
