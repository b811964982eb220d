//! The OpenAI Responses function declaration.

use schemars::Schema;
use serde::Serialize;

use crate::provider::strict::is_strict_compatible;
use crate::tool::Tool;

/// A Responses `tools[]` entry:
/// `{"type":"function","name","description","parameters","strict"}`.
/// Build it with [`declare`].
#[derive(Debug, Clone, Serialize)]
#[must_use]
pub(super) struct OpenAiResponsesDeclaration<'a> {
    r#type: &'static str,
    name: &'a str,
    description: &'a str,
    parameters: &'a Schema,
    strict: bool,
}

/// The declaration of `tool`.
pub(super) fn declare<T: Tool + ?Sized>(tool: &T) -> OpenAiResponsesDeclaration<'_> {
    let parameters = tool.input_schema();
    OpenAiResponsesDeclaration {
        r#type: "function",
        name: tool.name(),
        description: tool.description(),
        parameters,
        strict: is_strict_compatible(parameters.as_value()),
    }
}

/// The declarations of `tools`.
pub(super) fn declare_tools<T: Tool>(tools: &[T]) -> Vec<OpenAiResponsesDeclaration<'_>> {
    tools.iter().map(declare).collect()
}
