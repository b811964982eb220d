//! `structuredContent`: the JSON value of a typed success, when it is an object.

use serde::Serialize;
use serde_json::Value;

use crate::ToolResult;

/// What MCP calls `structuredContent` for a typed result: the JSON value of
/// a success when it serialises to an object; `None` for a failure, for a
/// success that is not an object (MCP requires an object there: a string,
/// a number or a list travels as text alone), and for a value that fails to
/// serialise (its lowering is the error result).
///
/// Pass it to [`render`](super::render) (or `to_rmcp`) beside the lowered
/// result: the text block then carries the same JSON.
///
/// ```
/// use toolresult::{IntoToolResult, ToolError, ToolResult};
/// use toolresult::render::mcp;
///
/// #[derive(serde::Serialize)]
/// struct Weather { city: &'static str, celsius: f32 }
///
/// let typed = ToolResult::<Weather>::ok(Weather { city: "Oslo", celsius: -3.5 });
/// let structured = mcp::structured_content(&typed);
/// let lowered = typed.lower();
/// let json = serde_json::to_string(&mcp::render(&lowered.result, structured.as_ref()))?;
/// assert_eq!(
///     json,
///     r#"{"content":[{"type":"text","text":"{\"celsius\":-3.5,\"city\":\"Oslo\"}"}],"structuredContent":{"celsius":-3.5,"city":"Oslo"},"isError":false}"#
/// );
///
/// assert_eq!(mcp::structured_content(&ToolResult::<u32>::ok(5)), None);
/// assert_eq!(mcp::structured_content(&ToolResult::<u32>::fail(ToolError::new("no"))), None);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[must_use]
pub fn structured_content<T: Serialize, E>(result: &ToolResult<T, E>) -> Option<Value> {
    match serde_json::to_value(result.value()?) {
        Ok(value @ Value::Object(_)) => Some(value),
        _ => None,
    }
}
