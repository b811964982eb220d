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
pub struct GeminiDeclaration<'a> {
    name: &'a str,
    description: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    parameters: Option<Schema>,
}

impl GeminiDeclaration<'_> {
    /// The converted `parameters`; `None` for a tool without arguments.
    #[must_use]
    pub fn parameters(&self) -> Option<&Schema> {
        self.parameters.as_ref()
    }
}

/// The Gemini declaration of `tool`; put it inside `functionDeclarations`
/// (or use [`declare_tools`]).
///
/// Gemini's `parameters` are a subset of the OpenAPI 3.0 schema object, and
/// an unknown keyword fails the whole request, so the input schema is
/// converted:
/// - `$ref`s into `$defs` are inlined (a recursive type is cut off after a
///   few levels as a bare `{"type":"object"}`); `$defs` and `$schema` go;
/// - `null` is said the OpenAPI way, Gemini's own `"nullable": true`:
///   `"type": [X, "null"]`, an `anyOf`/`oneOf` branch `{"type":"null"}` and
///   a `null` among `enum` values become `"type": X` with `nullable`
///   (this is the only place the crate writes `nullable`: the JSON Schemas
///   themselves are draft 2020-12); other lists of types become `anyOf`;
/// - `oneOf` becomes `anyOf`; `const` becomes a one-value `enum`; an `enum`
///   with a value that is not a string is dropped (Gemini's enums are
///   strings); a tuple's `prefixItems` become its `items`;
/// - a schema that does not say its type gets the one its keywords imply
///   (`properties`: object, `items`: array, a string `enum`: string);
/// - `format` stays only where Gemini gives it meaning (`enum` and
///   `date-time` for strings, `int32`/`int64` for integers,
///   `float`/`double` for numbers);
/// - of the rest only `type`, `title`, `description`, `properties`,
///   `required`, `items`, `anyOf`, `minimum`, `maximum`, `minItems`,
///   `maxItems`, `minLength`, `maxLength`, `pattern`, `minProperties`,
///   `maxProperties`, `default`, `example` and `propertyOrdering` are kept:
///   `additionalProperties` (so a map's value type), `exclusiveMinimum`,
///   `uniqueItems`, `allOf` and the like are dropped.
///
/// A tool without arguments has no `parameters` at all: Gemini refuses an
/// object schema with no properties.
///
/// ```
/// use toolresult::provider::gemini;
/// use toolresult::tool::{self};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Args { city: String, days: Option<u8> }
///
/// let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city)?;
/// assert_eq!(
///     serde_json::to_string(&gemini::declare(&weather))?,
///     r#"{"name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","maximum":255,"minimum":0,"nullable":true}},"required":["city"]}}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declare<T: Tool + ?Sized>(tool: &T) -> GeminiDeclaration<'_> {
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
pub struct GeminiTools<'a> {
    function_declarations: Vec<GeminiDeclaration<'a>>,
}

/// The Gemini `tools[]` entry declaring all of `tools`.
///
/// ```
/// use toolresult::provider::gemini;
/// use toolresult::tool::{self, Tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// let tools: Vec<Box<dyn Tool>> = vec![Box::new(tool::function("now", "The time", |_: NoArgs| "noon")?)];
/// assert_eq!(
///     serde_json::to_string(&gemini::declare_tools(&tools))?,
///     r#"{"functionDeclarations":[{"name":"now","description":"The time"}]}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declare_tools<T: Tool>(tools: &[T]) -> GeminiTools<'_> {
    GeminiTools {
        function_declarations: tools.iter().map(declare).collect(),
    }
}
