//! MCP: reading `tools/call` requests, declaring tools, rendering a `CallToolResult` and reading one back.

mod calls;
mod declare;
mod read;
mod render;
#[cfg(feature = "rmcp")]
mod rmcp;
mod wire;

#[cfg(feature = "mcp-server")]
pub(crate) use rmcp::{call_id, to_rmcp};

use crate::provider::{Answered, Call, PartPolicy, Provider, ReadCallsError, RenderError};
use crate::tool::Tool;
use declare::McpDeclaration;
use render::CallToolResult;

use crate::canonical::{PartLimit, ToolResult};
use crate::provider::ConvertError;

/// The MCP [`Provider`]: a call is answered by a `CallToolResult`, which [`Mcp::read_result`] reads back.
///
/// [`render`](Provider::render) writes the MCP JSON shape (camelCase): `content` with a text
/// block first (`output`, byte for byte), then per part, in order: a `text`
/// block, an `image` or `audio` block (`data`, `mimeType`), an embedded
/// `resource` (`uri`, `mimeType`, `blob`) for an inline file, a
/// `resource_link` (`uri`, `name`, `mimeType`) for any part held by URL;
/// then `structuredContent` when the answer has one
/// ([`Answered::structured_content`]: for a lowered result, the JSON
/// object of a typed success, the same bytes as `output`, unless a budget
/// withheld it) and `isError`. A success whose `structuredContent` was
/// withheld ([`Answered::structured_content_withheld`]) goes with
/// `isError: true`: MCP wants a conforming value with every success of a
/// tool that declares an output schema. Every MCP path writes these same
/// bytes: this provider, the `rmcp` conversions and
/// [`McpServer`](crate::mcp)'s `tools/call`. There is no `resultType`:
/// the JSON is for no revision in particular, the 2025 revisions have no
/// such field, and a 2026-07-28 client reads a result without one as
/// `"complete"`. The `rmcp` conversions add `"resultType": "complete"`,
/// which the 2026-07-28 revision wants of its servers, and rmcp's server
/// strips it for an older peer; a 2026-07-28 server of your own adds it. MCP carries every part, so
/// the [`PartPolicy`] changes nothing here and rendering never fails.
///
/// An embedded file's `uri` is `file:///` and its name, percent-encoded
/// (`file:///attachment` for a part without a name): MCP requires an
/// absolute URI there, and a part holds no path, only a name.
///
/// [`read_result`](Mcp::read_result), the one reader of a `CallToolResult`,
/// reads one from its JSON text or bytes into a canonical result: it
/// builds no `Value`, borrows every string without an escape straight
/// from the input, and decodes image, audio and blob base64 from it in
/// place, after checking its size against the part size limit the caller
/// passes ([`PartLimit`](crate::canonical::PartLimit)) from the length of
/// the base64. It reads by the shared contract:
///
/// - `output`: when `isError`, the non-blank text joined by a blank line;
///   else, when there is `structuredContent`, the text block that holds the
///   same JSON (so a round trip keeps `output` byte for byte), or failing
///   that the JSON of `structuredContent`; else the text joined by `"\n"`.
///   An embedded text resource counts as text, in place. With no text at
///   all, the parts' describe lines joined by `"\n"` (an error with neither
///   text nor parts reads `MCP tool returned an error`).
/// - `parts`: every non-text block, always: `image` and `audio` as those
///   parts, `resource_link` as a file part by URL (one to a `file:` URI, a
///   path on the server's machine that no part may hold, reads as a text
///   line after the text, `[{name}: {uri}]`), an embedded `blob`
///   resource as an inline file part named from its `file:///` URI (or the
///   last segment of any other URI).
///
/// What a round trip through MCP cannot keep: text parts (MCP text blocks
/// all read back into `output`), an empty or blank error `output`, an empty
/// `output` beside parts (it reads back as the describe lines), the kind of
/// an image or audio part held by URL (a `resource_link` reads back as a
/// file part), the name of an inline image or audio part (its block has no
/// field for one), all but the last `/` segment of an inline file's name,
/// the missing name of an inline file (it reads back as `attachment`), and
/// `metadata` (not written). Everything else comes back
/// equal, and a second round trip changes nothing.
///
/// ```
/// use toolresult::canonical::{ContentPart, PartLimit, ToolResult};
/// use toolresult::provider::{CallRef, Mcp, PartPolicy, Provider};
///
/// let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())?;
/// let shot = ToolResult::ok(png.describe()).with_parts([png]);
/// let json = serde_json::to_value(Mcp::render(&(CallRef::new("7", "screenshot"), &shot), PartPolicy::Strict)?)?;
/// assert_eq!(json["content"][0], serde_json::json!({"type": "text", "text": "image (image/png, 82 bytes)"}));
/// assert_eq!(json["content"][1]["type"], "image");
/// assert_eq!(json["isError"], false);
///
/// assert_eq!(Mcp::read_result(json.to_string(), PartLimit::default())?, shot);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Mcp;

// The declaration and results are MCP's own types, which the `rmcp`
// conversions and the server read.
#[allow(refining_impl_trait)]
impl Provider for Mcp {
    /// Reads the call of an MCP `tools/call` JSON-RPC request: one call whose
    /// id is the JSON-RPC `id` as text (a number as its decimal digits, so the
    /// string `"7"` and the number `7` read alike), whose name is
    /// `params.name`, and whose `params.arguments` are kept as JSON
    /// ([`Arguments::Json`](crate::tool::Arguments::Json), `{}` when left out). Other fields are ignored.
    ///
    /// # Errors
    /// [`ReadCallsError`] when the text is not JSON, a field has the wrong
    /// type, the `method` is not `tools/call`, the request has no `id` (a
    /// notification) or a `null` one, no `params` or `params.name`, or an
    /// empty name.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolresult::provider::{Call, Mcp, PartPolicy, Provider};
    /// use toolresult::tool::Arguments;
    ///
    /// let calls = Mcp::read_calls(
    ///     r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}"#,
    /// )?;
    /// assert_eq!(calls, [Call::new("7", "add", Arguments::Json(json!({"a": 1})))]);
    ///
    /// let err = Mcp::read_calls(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#).unwrap_err();
    /// assert_eq!(err.to_string(), r#"mcp tools/call request: method: expected "tools/call", found "tools/list""#);
    /// # Ok::<(), toolresult::provider::ReadCallsError>(())
    /// ```
    fn read_calls(message: &str) -> Result<Vec<Call>, ReadCallsError> {
        calls::read_calls(message)
    }

    /// The MCP `Tool` declaring `tool`.
    ///
    /// `annotations` say what the tool does to the world, from its
    /// [`ToolSafety`](crate::tool::ToolSafety): `readOnlyHint`, `destructiveHint` and `idempotentHint`,
    /// all three always written (a tool that says nothing gets MCP's defaults:
    /// not read-only, destructive, not idempotent).
    ///
    /// MCP requires an `outputSchema` to have `"type": "object"` at its root,
    /// and a server that declares one must answer every successful call with a
    /// `structuredContent` that matches it. So:
    /// - when the success type `T` serialises to an object (a struct, a map),
    ///   its schema is the `outputSchema`, and lowering a successful call gives
    ///   the matching `structuredContent`
    ///   ([`Lowered::structured_content`](crate::Lowered::structured_content));
    /// - otherwise (a number, a string, a list, an `Option`, an enum of several
    ///   shapes) `outputSchema` is left out: the answer stays the text content
    ///   of `output`, and no `structuredContent` is promised. The value is not
    ///   wrapped in a made-up object, since the model would then read a shape
    ///   in `structuredContent` that is not the one in `output`.
    ///
    /// (The MCP revision 2026-07-28, SEP-2106, allows a non-object
    /// `outputSchema` and `structuredContent`; clients of the 2025 revisions
    /// refuse one, so it is not declared here.)
    ///
    /// ```
    /// use toolresult::provider::{Mcp, PartPolicy, Provider};
    /// use toolresult::tool::{self, ToolSafety};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Args { city: String }
    /// #[derive(serde::Serialize, schemars::JsonSchema)]
    /// struct Weather { celsius: f32 }
    ///
    /// let weather = tool::function("get_weather", "Current weather", |_: Args| {
    ///     toolresult::ToolResult::<_>::ok(Weather { celsius: -3.5 })
    /// })?
    /// .with_safety(ToolSafety::ReadOnly);
    /// assert_eq!(
    ///     serde_json::to_string(&Mcp::declare(&weather))?,
    ///     r#"{"name":"get_weather","description":"Current weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"outputSchema":{"type":"object","properties":{"celsius":{"type":"number","format":"float"}},"required":["celsius"]},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true}}"#
    /// );
    ///
    /// let length = tool::function("length", "The length of a city's name", |a: Args| a.city.len().to_string())?;
    /// assert!(Mcp::declare(&length).output_schema().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn declare<T: Tool + ?Sized>(tool: &T) -> McpDeclaration<'_> {
        declare::declare(tool)
    }

    /// The declarations of all of `tools`, in order: the provider's `tools`
    /// array (a toolbox's `tools()`, say).
    ///
    /// ```
    /// use toolresult::provider::{Mcp, PartPolicy, Provider};
    /// use toolresult::tool::{self, Tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct NoArgs {}
    ///
    /// let tools: Vec<Box<dyn Tool>> = vec![
    ///     Box::new(tool::function("now", "The time", |_: NoArgs| "noon")?),
    ///     Box::new(tool::function("today", "The date", |_: NoArgs| "Thursday")?),
    /// ];
    /// let declared = serde_json::to_value(Mcp::declare_tools(&tools))?;
    /// assert_eq!(declared.as_array().map(Vec::len), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn declare_tools<T: Tool>(tools: &[T]) -> Vec<McpDeclaration<'_>> {
        declare::declare_tools(tools)
    }

    /// The MCP `CallToolResult` of one answered call, with the answer's
    /// [`structured_content`](Answered::structured_content) (for a lowered
    /// result, [`Lowered::structured_content`](crate::Lowered::structured_content))
    /// as its `structuredContent`. The text block is `output` as it is. MCP
    /// carries every part: this never fails, under either policy.
    ///
    /// ```
    /// use toolresult::provider::{CallRef, Mcp, PartPolicy, Provider};
    /// use toolresult::{IntoToolResult, ToolResult};
    ///
    /// #[derive(serde::Serialize)]
    /// struct Weather { city: &'static str, celsius: f32 }
    ///
    /// let lowered = ToolResult::<_>::ok(Weather { city: "Oslo", celsius: -3.5 }).lower();
    /// let answer = (CallRef::new("7", "weather"), &lowered);
    /// let answer = Mcp::render(&answer, PartPolicy::Strict)?;
    /// assert_eq!(
    ///     serde_json::to_string(&answer)?,
    ///     r#"{"content":[{"type":"text","text":"{\"city\":\"Oslo\",\"celsius\":-3.5}"}],"structuredContent":{"city":"Oslo","celsius":-3.5},"isError":false}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn render<'a, A: Answered + ?Sized>(
        answer: &'a A,
        _policy: PartPolicy,
    ) -> Result<CallToolResult<'a>, RenderError> {
        Ok(render::render(
            answer.result(),
            answer.structured_content(),
            answer.structured_content_withheld(),
        ))
    }

    /// The `CallToolResult`s answering a turn's `tools/call` requests, one per
    /// answer in order, each with its `structuredContent`. Each is the `result`
    /// of the JSON-RPC response to its request, whose envelope (and `id`) the
    /// MCP server writes.
    ///
    /// ```
    /// use toolresult::provider::{CallRef, Mcp, PartPolicy, Provider};
    /// use toolresult::canonical::ToolResult;
    ///
    /// let found = ToolResult::ok("eu-west-1");
    /// let turn = [(CallRef::new("7", "lookup"), &found)];
    /// let answers = Mcp::reply(&turn, PartPolicy::Strict)?;
    /// assert_eq!(
    ///     serde_json::to_string(&answers)?,
    ///     r#"[{"content":[{"type":"text","text":"eu-west-1"}],"isError":false}]"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn reply<'a, A: Answered>(
        answers: &'a [A],
        _policy: PartPolicy,
    ) -> Result<Vec<CallToolResult<'a>>, RenderError> {
        Ok(render::reply(answers))
    }
}

impl Mcp {
    /// Reads an MCP `CallToolResult` from its JSON text or bytes (as a
    /// transport hands them over: `&str`, `String`, `&[u8]`, `Vec<u8>`)
    /// into a canonical result, by the shared contract (see [`Mcp`]): the
    /// crate's one reader of an MCP result. A caller holding a
    /// [`serde_json::Value`] or an `rmcp::model::CallToolResult` passes its
    /// JSON (`serde_json::to_vec`).
    ///
    /// Every string is borrowed from `json` where it holds no escape
    /// (base64 never does), so image, audio and blob data are decoded
    /// straight from the input, each after its size is checked against
    /// `limit` from the length of its base64.
    ///
    /// A resource that names no mime type gets one from its URI's extension
    /// (the fixed media table), else `application/octet-stream`. An embedded
    /// blob's part name is the last segment of its URI, never a path.
    ///
    /// # Errors
    /// Bytes that are not UTF-8 JSON ([`ConvertError::Json`]); a value that
    /// is not an object, a field of the wrong type, a block without a field
    /// it needs, an unknown block type, or a block that breaks the part
    /// contract (bad base64, an invalid mime type, a `file:` URL, data over
    /// the part size limit).
    ///
    /// ```
    /// use toolresult::canonical::PartLimit;
    /// use toolresult::provider::Mcp;
    ///
    /// let gif = r#"{"content":[{"type":"image","mimeType":"image/gif","data":"R0lGOA=="}],"isError":false}"#;
    /// let result = Mcp::read_result(gif, PartLimit::default())?;
    /// assert_eq!(result.output, "image (image/gif, 4 bytes)");
    /// assert_eq!(result.parts[0].byte_len(), 4);
    /// let refused = Mcp::read_result(gif, PartLimit::new(3)).unwrap_err();
    /// assert!(refused.to_string().contains("over the part size limit of 3 bytes"));
    ///
    /// let rows = serde_json::json!({
    ///     "content": [{"type": "text", "text": "3 rows"}],
    ///     "structuredContent": {"rows": 3},
    ///     "isError": false
    /// });
    /// let result = Mcp::read_result(serde_json::to_vec(&rows)?, PartLimit::default())?;
    /// assert_eq!(result.output, r#"{"rows":3}"#);
    ///
    /// let failed = br#"{"content":[{"type":"text","text":"no such table"},{"type":"text","text":"  "}],"isError":true}"#;
    /// let failed = Mcp::read_result(failed, PartLimit::default())?;
    /// assert!(failed.is_error);
    /// assert_eq!(failed.output, "no such table");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_result(
        json: impl AsRef<[u8]>,
        limit: PartLimit,
    ) -> Result<ToolResult, ConvertError> {
        read::from_bytes(json.as_ref(), limit)
    }
}
