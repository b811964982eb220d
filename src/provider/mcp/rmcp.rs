//! Conversions from the crate's results to `rmcp::model::CallToolResult`
//! (feature `rmcp`), built from the same decision as
//! [`Mcp`](crate::provider::Mcp)'s JSON: the same bytes as every other MCP
//! route, with rmcp's `resultType`.

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
#[cfg(feature = "mcp-server")]
use rmcp::model::NumberOrString;
use rmcp::model::{
    AudioContent, CallToolResponse, CallToolResult, ContentBlock, EmbeddedResource, ImageContent,
    Resource, ResourceContents, ResultType,
};
use serde::Serialize;
use serde_json::value::RawValue;

#[cfg(feature = "mcp-server")]
use super::calls::number_id;
use super::render::{self, Content, render};
use crate::canonical::ToolResult;
use crate::{IntoToolResult, Lowered};

/// rmcp's `CallToolResult` of what [`Mcp::render`](crate::provider::Mcp)
/// writes for `result` (MCP's rules included: see [`render`]), built block
/// for block from [`render`]'s decision, with `resultType: "complete"`
/// (rmcp's server strips it for a peer older than 2026-07-28).
pub(crate) fn to_rmcp(
    result: &ToolResult,
    structured: Option<&RawValue>,
    withheld: bool,
) -> Result<CallToolResult, ErrorData> {
    let rendered = render(result, structured, withheld);
    let structured_content = rendered
        .structured_content
        .map(|raw| serde_json::from_str(raw.get()))
        .transpose()
        .map_err(|err| {
            ErrorData::internal_error(
                format!("cannot read the structuredContent back as JSON: {err}"),
                None,
            )
        })?;
    let mut answer = CallToolResult::success(rendered.content.iter().map(block).collect());
    answer.result_type = Some(ResultType::COMPLETE);
    answer.structured_content = structured_content;
    answer.is_error = Some(rendered.is_error);
    Ok(answer)
}

/// rmcp's block of one rendered block: the same fields, no others.
fn block(content: Content<'_>) -> ContentBlock {
    match content {
        Content::Text { text } => ContentBlock::text(text),
        Content::Image { data, mime_type } => {
            ContentBlock::Image(ImageContent::new(data.to_string(), mime_type))
        }
        Content::Audio { data, mime_type } => {
            ContentBlock::Audio(AudioContent::new(data.to_string(), mime_type))
        }
        Content::Resource {
            resource:
                render::BlobResource {
                    uri,
                    mime_type,
                    blob,
                },
        } => ContentBlock::Resource(EmbeddedResource::new(
            ResourceContents::blob(blob.to_string(), uri).with_mime_type(mime_type),
        )),
        Content::ResourceLink {
            uri,
            name,
            mime_type,
        } => ContentBlock::ResourceLink(Resource::new(uri, name).with_mime_type(mime_type)),
    }
}

/// The call id of an MCP request id (see [`number_id`]).
#[cfg(feature = "mcp-server")]
pub(crate) fn call_id(id: &NumberOrString) -> String {
    match id {
        NumberOrString::Number(number) => number_id(*number),
        NumberOrString::String(text) => text.to_string(),
    }
}

/// An rmcp server tool can return the typed result as it is: it is lowered,
/// and a success whose value is a JSON object carries it as
/// `structuredContent` beside the same JSON as text. The source error stays
/// on the Rust side: it is dropped here, never sent. Every conversion here
/// carries the 2026-07-28 revision's `resultType: "complete"`, which
/// rmcp's server strips for a peer of an older revision.
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
/// assert_eq!(answer.result_type, Some(rmcp::model::ResultType::COMPLETE));
/// # Ok::<(), rmcp::ErrorData>(())
/// ```
impl<T: Serialize, E: Serialize> IntoCallToolResult for crate::ToolResult<T, E> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        self.lower().into_call_tool_result()
    }
}

/// The lowered result, with its `structuredContent` (a success whose
/// `structuredContent` was withheld goes as an error result); its
/// diagnostics stay behind.
impl IntoCallToolResult for Lowered {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(to_rmcp(
            &self.result,
            self.structured_content(),
            self.structured_content_withheld(),
        )?
        .into())
    }
}

/// The canonical result as text and parts.
impl IntoCallToolResult for ToolResult {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(to_rmcp(&self, None, false)?.into())
    }
}
