//! The Anthropic Messages tool declaration.

use schemars::Schema;
use serde::Serialize;

use crate::tool::Tool;

/// A Messages `tools[]` entry: `{"name","description","input_schema"}`.
/// Build it with [`declare`].
#[derive(Debug, Clone, Serialize)]
#[must_use]
pub struct AnthropicDeclaration<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Schema,
}

/// The Anthropic Messages declaration of `tool`: the input schema goes as
/// it is (Anthropic takes JSON Schema).
///
/// ```
/// use toolresult::provider::anthropic;
/// use toolresult::tool::{self};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Args { city: String }
///
/// let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city)?;
/// let json = serde_json::to_value(anthropic::declare(&weather))?;
/// assert_eq!(json["input_schema"]["required"], serde_json::json!(["city"]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declare<T: Tool + ?Sized>(tool: &T) -> AnthropicDeclaration<'_> {
    AnthropicDeclaration {
        name: tool.name(),
        description: tool.description(),
        input_schema: tool.input_schema(),
    }
}

/// The declarations of all of `tools`, in order: the provider's `tools`
/// array (a toolbox's `tools()`, say).
///
/// ```
/// use toolresult::provider::anthropic;
/// use toolresult::tool::{self, Tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// let tools: Vec<Box<dyn Tool>> = vec![
///     Box::new(tool::function("now", "The time", |_: NoArgs| "noon")?),
///     Box::new(tool::function("today", "The date", |_: NoArgs| "Thursday")?),
/// ];
/// let declared = serde_json::to_value(anthropic::declare_tools(&tools))?;
/// assert_eq!(declared.as_array().map(Vec::len), Some(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declare_tools<T: Tool>(tools: &[T]) -> Vec<AnthropicDeclaration<'_>> {
    tools.iter().map(declare).collect()
}
