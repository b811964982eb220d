//! Conversions between the crate's results and `rmcp::model::CallToolResult`
//! (feature `rmcp`), through the same rendering and reading as
//! [`Mcp`](crate::provider::Mcp)'s: the same bytes as every other MCP route.

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use serde::Serialize;
use serde_json::Value;
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
    if result.parts.is_empty() {
        return Ok(text_only(
            result.output.clone(),
            result.is_error,
            value_of(structured)?,
        ));
    }
    serde_json::to_value(render(result, structured))
        .and_then(serde_json::from_value)
        .map_err(cannot_write)
}

/// The `CallToolResult` of a result with no parts, built directly: what
/// reading [`render`]'s JSON back gives (one text block, `isError`, the
/// `structuredContent`), without writing the JSON and taking it apart
/// again through rmcp's untagged content blocks.
fn text_only(output: String, is_error: bool, structured: Option<Value>) -> CallToolResult {
    let mut answer = CallToolResult::success(vec![ContentBlock::text(output)]);
    // Absent, as it is in the JSON `render` writes.
    answer.result_type = None;
    answer.is_error = Some(is_error);
    answer.structured_content = structured;
    answer
}

/// The `structuredContent` as a JSON value.
fn value_of(structured: Option<&RawValue>) -> Result<Option<Value>, ErrorData> {
    structured
        .map(|raw| serde_json::from_str(raw.get()))
        .transpose()
        .map_err(cannot_write)
}

fn cannot_write(err: serde_json::Error) -> ErrorData {
    ErrorData::internal_error(format!("cannot write the MCP result: {err}"), None)
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
        if self.result.parts.is_empty() {
            let structured = value_of(self.structured_content())?;
            return Ok(text_only(self.result.output, self.result.is_error, structured).into());
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What reading `render`'s JSON back gives: the long way the direct
    /// build of a result with no parts must match.
    fn read_back(result: &ToolResult, structured: Option<&RawValue>) -> CallToolResult {
        serde_json::to_value(render(result, structured))
            .and_then(serde_json::from_value)
            .unwrap()
    }

    #[test]
    fn a_result_with_no_parts_is_built_as_its_json_reads_back() {
        let structured =
            RawValue::from_string(r#"{"celsius":-3.5,"list":[1,"a"]}"#.to_owned()).unwrap();
        let cases = [
            (
                ToolResult::ok(r#"{"celsius":-3.5,"list":[1,"a"]}"#),
                Some(&*structured),
            ),
            (ToolResult::ok("42"), None),
            (ToolResult::ok(""), None),
            (ToolResult::error(r#"{"error":{"message":"no"}}"#), None),
        ];
        for (result, structured) in cases {
            let direct = to_rmcp(&result, structured).unwrap();
            assert_eq!(direct, read_back(&result, structured), "{result:?}");
            assert_eq!(
                serde_json::to_string(&direct).unwrap(),
                serde_json::to_string(&render(&result, structured)).unwrap()
            );
        }
    }
}
