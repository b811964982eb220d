//! The Anthropic Messages tool declaration.

use schemars::Schema;
use serde::Serialize;

use crate::tool::Tool;

/// A Messages `tools[]` entry: `{"name","description","input_schema"}`.
/// Build it with [`declare`].
#[derive(Debug, Clone, Serialize)]
#[must_use]
pub(super) struct AnthropicDeclaration<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Schema,
}

/// The declaration of `tool`.
pub(super) fn declare<T: Tool + ?Sized>(tool: &T) -> AnthropicDeclaration<'_> {
    AnthropicDeclaration {
        name: tool.name(),
        description: tool.description(),
        input_schema: tool.input_schema(),
    }
}

/// The declarations of `tools`.
pub(super) fn declare_tools<T: Tool>(tools: &[T]) -> Vec<AnthropicDeclaration<'_>> {
    tools.iter().map(declare).collect()
}
