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
pub struct OpenAiChatDeclaration<'a> {
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

impl OpenAiChatDeclaration<'_> {
    /// Whether the declaration asks for strict mode.
    #[must_use]
    pub fn is_strict(&self) -> bool {
        self.function.strict
    }
}

/// The OpenAI Chat Completions declaration of `tool`.
///
/// Chat Completions reads a missing `strict` as `false`, so `strict` is
/// written only as `"strict": true`, inside `function`, when the input
/// schema meets strict mode as it stands ([`is_strict_compatible`]). The
/// schema is never rewritten.
///
/// ```
/// use toolresult::provider::openai_chat;
/// use toolresult::tool::{self};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Args { city: String }
///
/// let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city)?;
/// assert_eq!(
///     serde_json::to_string(&openai_chat::declare(&weather))?,
///     r#"{"type":"function","function":{"name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declare<T: Tool + ?Sized>(tool: &T) -> OpenAiChatDeclaration<'_> {
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

/// The declarations of all of `tools`, in order: the provider's `tools`
/// array (a toolbox's `tools()`, say).
///
/// ```
/// use toolresult::provider::openai_chat;
/// use toolresult::tool::{self, Tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// let tools: Vec<Box<dyn Tool>> = vec![
///     Box::new(tool::function("now", "The time", |_: NoArgs| "noon")?),
///     Box::new(tool::function("today", "The date", |_: NoArgs| "Thursday")?),
/// ];
/// let declared = serde_json::to_value(openai_chat::declare_tools(&tools))?;
/// assert_eq!(declared.as_array().map(Vec::len), Some(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declare_tools<T: Tool>(tools: &[T]) -> Vec<OpenAiChatDeclaration<'_>> {
    tools.iter().map(declare).collect()
}
