//! The MCP `Tool` of `tools/list`.

use schemars::Schema;
use serde::Serialize;

use crate::tool::{Tool, ToolSafety, is_object_schema};

/// An MCP `Tool`:
/// `{"name","description","inputSchema","outputSchema"?,"annotations"}`.
/// Build it with [`declare`].
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[must_use]
pub struct McpDeclaration<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Schema,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<&'a Schema>,
    annotations: Annotations,
}

/// MCP's tool annotations, from the tool's [`ToolSafety`].
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
struct Annotations {
    read_only_hint: bool,
    destructive_hint: bool,
    idempotent_hint: bool,
}

impl From<ToolSafety> for Annotations {
    fn from(safety: ToolSafety) -> Self {
        Self {
            read_only_hint: safety.is_read_only(),
            destructive_hint: safety.is_destructive(),
            idempotent_hint: safety.is_idempotent(),
        }
    }
}

impl<'a> McpDeclaration<'a> {
    /// The tool's name.
    #[must_use]
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The tool's description.
    #[must_use]
    pub fn description(&self) -> &'a str {
        self.description
    }

    /// The `inputSchema`.
    #[must_use]
    pub fn input_schema(&self) -> &'a Schema {
        self.input_schema
    }

    /// The `outputSchema`, when the success type is an object.
    #[must_use]
    pub fn output_schema(&self) -> Option<&'a Schema> {
        self.output_schema
    }
}

/// The MCP `Tool` declaring `tool`.
///
/// `annotations` say what the tool does to the world, from its
/// [`ToolSafety`]: `readOnlyHint`, `destructiveHint` and `idempotentHint`,
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
/// use toolresult::provider::mcp;
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
///     serde_json::to_string(&mcp::declare(&weather))?,
///     r#"{"name":"get_weather","description":"Current weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"outputSchema":{"type":"object","properties":{"celsius":{"type":"number","format":"float"}},"required":["celsius"]},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true}}"#
/// );
///
/// let length = tool::function("length", "The length of a city's name", |a: Args| a.city.len().to_string())?;
/// assert!(mcp::declare(&length).output_schema().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declare<T: Tool + ?Sized>(tool: &T) -> McpDeclaration<'_> {
    let output = tool.output_schema();
    McpDeclaration {
        name: tool.name(),
        description: tool.description(),
        input_schema: tool.input_schema(),
        output_schema: is_object_schema(output).then_some(output),
        annotations: tool.safety().into(),
    }
}

#[cfg(feature = "rmcp")]
impl TryFrom<McpDeclaration<'_>> for rmcp::model::Tool {
    type Error = serde_json::Error;

    /// The same declaration as an `rmcp` `Tool` (feature `rmcp`), read from
    /// the JSON [`declare`] writes.
    fn try_from(declared: McpDeclaration<'_>) -> Result<Self, Self::Error> {
        serde_json::to_value(declared).and_then(serde_json::from_value)
    }
}

/// The declarations of all of `tools`, in order: the provider's `tools`
/// array (a toolbox's `tools()`, say).
///
/// ```
/// use toolresult::provider::mcp;
/// use toolresult::tool::{self, Tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// let tools: Vec<Box<dyn Tool>> = vec![
///     Box::new(tool::function("now", "The time", |_: NoArgs| "noon")?),
///     Box::new(tool::function("today", "The date", |_: NoArgs| "Thursday")?),
/// ];
/// let declared = serde_json::to_value(mcp::declare_tools(&tools))?;
/// assert_eq!(declared.as_array().map(Vec::len), Some(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declare_tools<T: Tool>(tools: &[T]) -> Vec<McpDeclaration<'_>> {
    tools.iter().map(declare).collect()
}
