//! The Gemini function declaration, with its OpenAPI-subset `parameters`.

use schemars::Schema;
use serde::Serialize;
use serde_json::Value;

use super::schema::to_gemini;
use crate::tool::Tool;

/// One Gemini `functionDeclarations[]` entry:
/// `{"name","description","parameters"?}`. Build it with [`declare`].
#[derive(Debug, Clone, Serialize)]
#[must_use]
pub(super) struct GeminiDeclaration<'a> {
    name: &'a str,
    description: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    parameters: Option<Schema>,
}

/// The declaration of `tool`.
pub(super) fn declare<T: Tool + ?Sized>(tool: &T) -> GeminiDeclaration<'_> {
    let mut parameters = to_gemini(tool.input_schema().as_value());
    if let Value::Object(root) = &mut parameters {
        root.insert("type".to_owned(), Value::String("object".to_owned()));
    }
    let has_arguments = parameters
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty())
        || parameters.get("anyOf").is_some();
    GeminiDeclaration {
        name: tool.name(),
        description: tool.description(),
        parameters: has_arguments
            .then(|| Schema::try_from(parameters).ok())
            .flatten(),
    }
}

/// A Gemini `tools[]` entry for many tools:
/// `{"functionDeclarations":[{"name","description","parameters"?}, ..]}`.
/// Build it with [`declare_tools`].
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[must_use]
pub(super) struct GeminiTools<'a> {
    function_declarations: Vec<GeminiDeclaration<'a>>,
}

/// The declarations of `tools`.
pub(super) fn declare_tools<T: Tool>(tools: &[T]) -> GeminiTools<'_> {
    GeminiTools {
        function_declarations: tools.iter().map(declare).collect(),
    }
}
