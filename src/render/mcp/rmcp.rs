//! Conversions between the canonical result and `rmcp::model::CallToolResult`.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, Resource, ResourceContents};
use serde::Serialize;
use serde_json::Value;

use crate::canonical::{ContentPart, PartKind, ToolResult};
use crate::render::ConvertError;
use crate::{IntoToolResult, Lowered};

use super::{contract_json, from_value, structured_content};

/// The `rmcp` `CallToolResult` of a result: the same content as
/// [`render`](super::render), with `structured` as `structuredContent`.
///
/// ```
/// use toolresult::canonical::ToolResult;
/// use toolresult::render::mcp;
///
/// let answer = mcp::to_rmcp(&ToolResult::error("no such table"), None);
/// assert_eq!(answer.is_error, Some(true));
/// assert_eq!(answer.content[0].as_text().unwrap().text, "no such table");
/// ```
#[must_use]
pub fn to_rmcp(result: &ToolResult, structured: Option<&Value>) -> CallToolResult {
    let mut content = Vec::with_capacity(result.parts.len() + 1);
    match structured {
        Some(value) => content.push(ContentBlock::text(contract_json(value))),
        None if !result.output.is_empty() || result.parts.is_empty() => {
            content.push(ContentBlock::text(result.output.clone()));
        }
        None => {}
    }
    content.extend(result.parts.iter().map(block));
    let mut answer = if result.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    answer.structured_content = structured.cloned();
    answer
}

fn block(part: &ContentPart) -> ContentBlock {
    let (Some(mime_type), Some(source)) = (part.mime_type(), part.source()) else {
        return ContentBlock::text(part.as_text().unwrap_or_default());
    };
    let name = part.name().unwrap_or_default();
    match source {
        crate::canonical::MediaSource::Url(url) => {
            let mut link = Resource::new(url.clone(), name);
            link.mime_type = Some(mime_type.to_owned());
            ContentBlock::resource_link(link)
        }
        crate::canonical::MediaSource::Data(bytes) => {
            let data = STANDARD.encode(bytes);
            match part.kind() {
                PartKind::Image => ContentBlock::image(data, mime_type),
                PartKind::Audio => ContentBlock::audio(data, mime_type),
                _ => ContentBlock::resource(
                    ResourceContents::blob(data, name).with_mime_type(mime_type),
                ),
            }
        }
    }
}

impl From<&ToolResult> for CallToolResult {
    /// As [`to_rmcp`] with no structured value.
    fn from(result: &ToolResult) -> Self {
        to_rmcp(result, None)
    }
}

impl From<ToolResult> for CallToolResult {
    /// As [`to_rmcp`] with no structured value.
    fn from(result: ToolResult) -> Self {
        to_rmcp(&result, None)
    }
}

impl TryFrom<&CallToolResult> for ToolResult {
    type Error = ConvertError;

    /// As [`from_value`] on the result's JSON.
    fn try_from(answer: &CallToolResult) -> Result<Self, Self::Error> {
        let value = serde_json::to_value(answer).map_err(|source| ConvertError::Encode {
            what: "rmcp CallToolResult",
            source,
        })?;
        from_value(&value)
    }
}

impl TryFrom<CallToolResult> for ToolResult {
    type Error = ConvertError;

    /// As [`from_value`] on the result's JSON.
    fn try_from(answer: CallToolResult) -> Result<Self, Self::Error> {
        Self::try_from(&answer)
    }
}

/// An rmcp server tool can return the typed result as it is: a success
/// whose value is a JSON object becomes `structuredContent` with the same
/// JSON as its text block; any other success, and every failure, becomes
/// the lowered output as text (`{"error": ...}` with `isError: true`). Parts
/// follow the text. The source error stays on the Rust side: it is dropped
/// here, never sent.
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
        let Some(structured) = structured_content(&self) else {
            return Ok(to_rmcp(&self.lower().result, None).into());
        };
        // The text block of a structured answer is the JSON of `structured`
        // (`to_rmcp` writes it from the value), so the value is not
        // serialised a second time by lowering: only its parts are carried.
        let carried = ToolResult {
            output: String::new(),
            is_error: false,
            parts: self.parts,
            metadata: None,
        };
        Ok(to_rmcp(&carried, Some(&structured)).into())
    }
}

/// The lowered result as text and parts; its diagnostics stay behind.
impl IntoCallToolResult for Lowered {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(to_rmcp(&self.result, None).into())
    }
}

/// The canonical result as text and parts.
impl IntoCallToolResult for ToolResult {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(to_rmcp(&self, None).into())
    }
}
