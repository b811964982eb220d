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
pub struct OpenAiResponsesDeclaration<'a> {
    r#type: &'static str,
    name: &'a str,
    description: &'a str,
    parameters: &'a Schema,
    strict: bool,
}

impl OpenAiResponsesDeclaration<'_> {
    /// Whether the declaration asks for strict mode.
    #[must_use]
    pub fn is_strict(&self) -> bool {
        self.strict
    }
}

/// The OpenAI Responses declaration of `tool`.
///
/// `strict` is always written. The Responses API reads a missing `strict`
/// as `true` and then normalises the schema into strict mode (every field
/// required, no extra properties), which would make optional arguments
/// mandatory; and it refuses `strict: true` with a schema strict mode does
/// not support. So `strict` is `true` only when the input schema already
/// meets strict mode as it stands ([`is_strict_compatible`]), and `false`
/// otherwise; the schema is never rewritten.
///
/// ```
/// use toolresult::provider::openai_responses;
/// use toolresult::tool::{self};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// #[serde(deny_unknown_fields)]
/// struct Args { city: String }
///
/// let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city)?;
/// let declared = openai_responses::declare(&weather);
/// assert!(declared.is_strict());
/// assert_eq!(
///     serde_json::to_string(&declared)?,
///     r#"{"type":"function","name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"additionalProperties":false,"required":["city"]},"strict":true}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declare<T: Tool + ?Sized>(tool: &T) -> OpenAiResponsesDeclaration<'_> {
    let parameters = tool.input_schema();
    OpenAiResponsesDeclaration {
        r#type: "function",
        name: tool.name(),
        description: tool.description(),
        parameters,
        strict: is_strict_compatible(parameters.as_value()),
    }
}

/// The declarations of all of `tools`, in order: the provider's `tools`
/// array (a toolbox's `tools()`, say).
///
/// ```
/// use toolresult::provider::openai_responses;
/// use toolresult::tool::{self, Tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// let tools: Vec<Box<dyn Tool>> = vec![
///     Box::new(tool::function("now", "The time", |_: NoArgs| "noon")?),
///     Box::new(tool::function("today", "The date", |_: NoArgs| "Thursday")?),
/// ];
/// let declared = serde_json::to_value(openai_responses::declare_tools(&tools))?;
/// assert_eq!(declared.as_array().map(Vec::len), Some(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declare_tools<T: Tool>(tools: &[T]) -> Vec<OpenAiResponsesDeclaration<'_>> {
    tools.iter().map(declare).collect()
}
