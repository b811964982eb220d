//! JSON Schemas of a tool, from its Rust types, by schemars (draft 2020-12).
//!
//! - [`input_schema`]: what the model must send (the `Args`, as deserialised);
//! - [`output_schema`]: the JSON of a success (the `T`, as serialised);
//! - [`model_facing_schema`]: everything the model can read back, `anyOf`
//!   the success or `{"error": E}`.
//!
//! The schemas are JSON Schema draft 2020-12: `Option<T>` is
//! `"type": [.., "null"]` (never the OpenAPI `nullable`). They carry no
//! `$schema` key (2020-12 is what MCP and the providers assume, and Gemini
//! refuses the key) and no root `title` (schemars would put the Rust type's
//! name there). Subschemas are inlined, which providers handle best; only a
//! recursive type keeps a `$defs` entry and a `$ref` to it.

use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema};
use serde_json::{Map, Value, json};

use crate::ToolError;

fn generator(settings: SchemaSettings) -> SchemaGenerator {
    settings
        .with(|s| {
            s.meta_schema = None;
            s.inline_subschemas = true;
        })
        .into_generator()
}

/// The subschema for `T`, with whatever definitions it needed put at the root.
fn with_definitions(mut generator: SchemaGenerator, mut schema: Schema) -> Schema {
    let definitions = generator.take_definitions(true);
    if !definitions.is_empty() {
        schema.insert("$defs".to_owned(), Value::Object(definitions));
    }
    schema
}

/// The schema of the arguments `A`, as serde deserialises them.
///
/// Arguments are always a JSON object (a call with anything else is
/// refused before `A` is decoded), and every provider wants
/// `"type": "object"` at the root of a tool's parameters: a root that does
/// not say its type (an enum of argument shapes, say) gets it added.
///
/// ```
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct WeatherArgs {
///     /// The city, in English.
///     city: String,
///     days: Option<u8>,
/// }
///
/// use toolresult::tool::{self, Tool};
/// let weather = tool::function("weather", "Weather", |a: WeatherArgs| a.city)?;
/// let schema = weather.input_schema();
/// assert_eq!(schema.get("type"), Some(&serde_json::json!("object")));
/// assert_eq!(schema.get("required"), Some(&serde_json::json!(["city"])));
/// assert_eq!(
///     schema.pointer("/properties/days/type"),
///     Some(&serde_json::json!(["integer", "null"]))
/// );
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
#[must_use]
pub(crate) fn input_schema<A: JsonSchema + ?Sized>() -> Schema {
    let mut generator = generator(SchemaSettings::draft2020_12().for_deserialize());
    let schema = generator.subschema_for::<A>();
    let mut schema = with_definitions(generator, schema);
    if let Some(root) = schema.as_object_mut()
        && !root.contains_key("type")
        && !root.contains_key("$ref")
    {
        root.insert("type".to_owned(), Value::String("object".to_owned()));
    }
    schema
}

/// The schema of a success value `T`, as serde serialises it: what MCP
/// calls a tool's `outputSchema` (see [`is_object_schema`] for when MCP can
/// take it).
#[must_use]
pub(crate) fn output_schema<T: JsonSchema + ?Sized>() -> Schema {
    let mut generator = generator(SchemaSettings::draft2020_12().for_serialize());
    let schema = generator.subschema_for::<T>();
    with_definitions(generator, schema)
}

/// The schema of everything the model reads back from a call, success or
/// failure: `{"anyOf": [T, {"error": ..}]}`, where the failure branch is an
/// object with exactly the one required key `error`.
///
/// The error is `E`, or the default [`ToolError`] shape: bad arguments and
/// panics are reported as a `ToolError` whatever `E` is, so for any other
/// `E` the `error` is `{"anyOf": [E, ToolError]}`. The branches are `anyOf`,
/// not `oneOf`: a success type loose enough to look like an error (a
/// `serde_json::Value`, a struct with no required field) still validates.
///
/// It describes the JSON in the canonical `output`; a `T` that serialises to
/// a string is the one exception, as `output` holds that string unquoted.
///
/// ```
/// use toolresult::tool::{self, Tool};
/// use toolresult::ToolError;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
/// let count = tool::function("count", "Count", |_: NoArgs| Ok::<u32, ToolError>(3))?;
/// let branches = count.model_facing_schema().get("anyOf").and_then(|b| b.as_array()).unwrap();
/// assert_eq!(branches[0], serde_json::json!({"type": "integer", "format": "uint32", "minimum": 0}));
/// assert_eq!(branches[1]["required"], serde_json::json!(["error"]));
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
#[must_use]
pub(crate) fn model_facing_schema<T: JsonSchema + ?Sized, E: JsonSchema + ?Sized>() -> Schema {
    let mut generator = generator(SchemaSettings::draft2020_12().for_serialize());
    let success = generator.subschema_for::<T>();
    let error = generator.subschema_for::<E>();
    let tool_error = generator.subschema_for::<ToolError>();
    let error = if error == tool_error {
        error.to_value()
    } else {
        json!({"anyOf": [error.to_value(), tool_error.to_value()]})
    };
    let failure = json!({
        "type": "object",
        "properties": {"error": error},
        "required": ["error"],
        "additionalProperties": false,
    });
    let mut union = Map::new();
    union.insert("anyOf".to_owned(), json!([success.to_value(), failure]));
    with_definitions(generator, Schema::from(union))
}

/// Whether a schema describes a JSON object at its root (`"type": "object"`),
/// as MCP requires of an `outputSchema`.
#[must_use]
pub(crate) fn is_object_schema(schema: &Schema) -> bool {
    schema.get("type") == Some(&Value::String("object".to_owned()))
}
