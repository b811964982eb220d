//! Conversions between the crate's results and `rmcp::model::CallToolResult`
//! (feature `rmcp`), through the same rendering and reading as
//! [`Mcp`](crate::provider::Mcp)'s: the same bytes as every other MCP route.

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult};
use serde::Serialize;
use serde_json::value::RawValue;

use super::read::from_value;
use super::render::render;
use crate::canonical::ToolResult;
use crate::provider::ConvertError;
use crate::{IntoToolResult, Lowered};

/// rmcp's `CallToolResult` of what `Mcp::render` writes.
fn to_rmcp(
    result: &ToolResult,
    structured: Option<&RawValue>,
) -> Result<CallToolResult, ErrorData> {
    serde_json::to_value(render(result, structured))
        .and_then(serde_json::from_value)
        .map_err(|err| {
            ErrorData::internal_error(format!("cannot write the MCP result: {err}"), None)
        })
}

/// An rmcp server tool can return the typed result as it is: it is lowered,
/// and a success whose value is a JSON object carries it as
/// `structuredContent` beside the same JSON as text. The source error stays
/// on the Rust side: it is dropped here, never sent.
///
/// ```
/// use rmcp::handler::server::tool::IntoCallToolResult;
/// use rmcp::model::CallToolResponse;
/// use toolresult::ToolResult;
///
/// #[derive(serde::Serialize)]
/// struct Weather { celsius: f32 }
///
/// let CallToolResponse::Complete(answer) = ToolResult::<Weather>::ok(Weather { celsius: -3.5 })
///     .into_call_tool_result()?
/// else { unreachable!() };
/// assert_eq!(answer.structured_content, Some(serde_json::json!({"celsius": -3.5})));
/// assert_eq!(answer.content[0].as_text().unwrap().text, r#"{"celsius":-3.5}"#);
/// # Ok::<(), rmcp::ErrorData>(())
/// ```
impl<T: Serialize, E: Serialize> IntoCallToolResult for crate::ToolResult<T, E> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        self.lower().into_call_tool_result()
    }
}

/// The lowered result, with its `structuredContent`; its diagnostics stay behind.
impl IntoCallToolResult for Lowered {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(to_rmcp(&self.result, self.structured_content())?.into())
    }
}

/// The canonical result as text and parts.
impl IntoCallToolResult for ToolResult {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(to_rmcp(&self, None)?.into())
    }
}

impl TryFrom<&CallToolResult> for ToolResult {
    type Error = ConvertError;

    /// As [`Mcp::read_result_value`](crate::provider::Mcp::read_result_value)
    /// on the result's JSON, under the default part limit.
    fn try_from(answer: &CallToolResult) -> Result<Self, Self::Error> {
        let value = serde_json::to_value(answer).map_err(|source| ConvertError::Encode {
            what: "rmcp CallToolResult",
            source,
        })?;
        from_value(&value, crate::canonical::PartLimit::default())
    }
}

impl TryFrom<CallToolResult> for ToolResult {
    type Error = ConvertError;

    /// As [`Mcp::read_result_value`](crate::provider::Mcp::read_result_value)
    /// on the result's JSON, under the default part limit.
    fn try_from(answer: CallToolResult) -> Result<Self, Self::Error> {
        Self::try_from(&answer)
    }
}
