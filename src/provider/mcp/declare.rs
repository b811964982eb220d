//! The MCP `Tool` of `tools/list`.

use schemars::Schema;
use serde::Serialize;

use crate::tool::{Tool, ToolSafety, is_object_schema};

/// An MCP `Tool`:
/// `{"name","title"?,"description","inputSchema","outputSchema"?,"annotations"}`.
/// Build it with [`declare`].
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[must_use]
pub struct McpDeclaration<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
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

    /// The tool's title, a name for people, when it has one.
    #[must_use]
    pub fn title(&self) -> Option<&'a str> {
        self.title
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

/// The declaration of `tool`.
pub(super) fn declare<T: Tool + ?Sized>(tool: &T) -> McpDeclaration<'_> {
    let output = tool.output_schema();
    McpDeclaration {
        name: tool.name(),
        title: tool.title(),
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

/// The declarations of `tools`.
pub(super) fn declare_tools<T: Tool>(tools: &[T]) -> Vec<McpDeclaration<'_>> {
    tools.iter().map(declare).collect()
}
