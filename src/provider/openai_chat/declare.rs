//! The OpenAI Chat Completions function declaration.

use crate::provider::strict::is_strict_compatible;
use schemars::Schema;
use serde::Serialize;

use crate::tool::Tool;

/// A Chat Completions `tools[]` entry:
/// `{"type":"function","function":{"name","description","parameters","strict"?}}`.
/// Build it with [`declare`].
#[derive(Debug, Clone, Serialize)]
#[must_use]
pub(super) struct OpenAiChatDeclaration<'a> {
    r#type: &'static str,
    function: ChatFunction<'a>,
}

#[derive(Debug, Clone, Serialize)]
struct ChatFunction<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a Schema,
    #[serde(skip_serializing_if = "crate::provider::encode::is_false")]
    strict: bool,
}

/// The declaration of `tool`.
pub(super) fn declare<T: Tool + ?Sized>(tool: &T) -> OpenAiChatDeclaration<'_> {
    OpenAiChatDeclaration {
        r#type: "function",
        function: ChatFunction {
            name: tool.name(),
            description: tool.description(),
            parameters: tool.input_schema(),
            strict: is_strict_compatible(tool.input_schema().as_value()),
        },
    }
}

/// The declarations of `tools`.
pub(super) fn declare_tools<T: Tool>(tools: &[T]) -> Vec<OpenAiChatDeclaration<'_>> {
    tools.iter().map(declare).collect()
}
