//! The MCP `Tool` of `tools/list`, and the `structuredContent` its
//! `outputSchema` promises.

use schemars::Schema;
use serde::Serialize;
use serde_json::Value;

use crate::canonical;
use crate::tool::{Tool, is_object_schema};

/// An MCP `Tool`: `{"name","description","inputSchema","outputSchema"?}`.
/// Build it with [`mcp`].
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[must_use]
pub struct McpDeclaration<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Schema,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<&'a Schema>,
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
/// MCP requires an `outputSchema` to have `"type": "object"` at its root,
/// and a server that declares one must answer every successful call with a
/// `structuredContent` that matches it. So:
/// - when the success type `T` serialises to an object (a struct, a map;
///   [`is_object_schema`]), its schema is the `outputSchema`, and
///   [`mcp_structured_content`] gives the `structuredContent` of each
///   successful call;
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
/// use toolresult::tool::{self, declaration};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Args { city: String }
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Weather { celsius: f32 }
///
/// let weather = tool::function("get_weather", "Current weather", |_: Args| {
///     toolresult::ToolResult::<_>::ok(Weather { celsius: -3.5 })
/// });
/// assert_eq!(
///     serde_json::to_string(&declaration::mcp(&weather))?,
///     r#"{"name":"get_weather","description":"Current weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"outputSchema":{"type":"object","properties":{"celsius":{"type":"number","format":"float"}},"required":["celsius"]}}"#
/// );
///
/// let length = tool::function("length", "The length of a city's name", |a: Args| a.city.len().to_string());
/// assert!(declaration::mcp(&length).output_schema().is_none());
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn mcp<T: Tool + ?Sized>(tool: &T) -> McpDeclaration<'_> {
    let output = tool.output_schema();
    McpDeclaration {
        name: tool.name(),
        description: tool.description(),
        input_schema: tool.input_schema(),
        output_schema: is_object_schema(output).then_some(output),
    }
}

/// The `structuredContent` of a call of `tool`, to pass to
/// [`render::mcp::render`](crate::render::mcp::render): the JSON object of
/// a success, when `tool` declares an `outputSchema` ([`mcp`]); `None` for
/// a failure or a tool without one.
///
/// ```
/// use toolresult::render::mcp;
/// use toolresult::tool::{self, declaration, Tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Args { city: String }
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Weather { celsius: f32 }
///
/// let weather = tool::function("get_weather", "Current weather", |_: Args| {
///     toolresult::ToolResult::<_>::ok(Weather { celsius: -3.5 })
/// });
/// let lowered = weather.call_blocking(serde_json::json!({"city": "Oslo"})).unwrap();
/// let structured = declaration::mcp_structured_content(&weather, &lowered.result);
/// assert_eq!(structured, Some(serde_json::json!({"celsius": -3.5})));
/// let answer = serde_json::to_value(mcp::render(&lowered.result, structured.as_ref()))?;
/// assert_eq!(answer["structuredContent"]["celsius"], -3.5);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[must_use]
pub fn mcp_structured_content<T: Tool + ?Sized>(
    tool: &T,
    result: &canonical::ToolResult,
) -> Option<Value> {
    if result.is_error || !is_object_schema(tool.output_schema()) {
        return None;
    }
    serde_json::from_str::<Value>(&result.output)
        .ok()
        .filter(Value::is_object)
}

#[cfg(feature = "rmcp")]
impl From<McpDeclaration<'_>> for rmcp::model::Tool {
    /// The same declaration as an `rmcp` `Tool` (feature `rmcp`).
    fn from(declared: McpDeclaration<'_>) -> Self {
        let object = |schema: &Schema| schema.as_object().cloned().unwrap_or_default();
        let mut tool = rmcp::model::Tool::new(
            declared.name.to_owned(),
            declared.description.to_owned(),
            object(declared.input_schema),
        );
        tool.output_schema = declared
            .output_schema
            .map(|schema| std::sync::Arc::new(object(schema)));
        tool
    }
}
