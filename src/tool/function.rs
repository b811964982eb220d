//! `function`: a synchronous typed function as a [`Tool`].

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

use schemars::{JsonSchema, Schema};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::arguments::InvalidArguments;
use super::panic::catch_blocking;
use super::{Tool, ToolReturn, ToolSchemas};
use crate::Lowered;

/// A synchronous typed function as a tool; build it with [`function`].
///
/// Calling it decodes the arguments (a bad argument is an error result the
/// model can act on), runs the body inside `catch_unwind` (a panic is a safe
/// error result) and lowers what it returns.
#[must_use = "a tool does nothing until it is called"]
pub struct FunctionTool<Args, R, F> {
    name: String,
    description: String,
    schemas: ToolSchemas,
    body: F,
    signature: PhantomData<fn(Args) -> R>,
}

/// Defines a tool from a synchronous function of its typed arguments.
///
/// The function returns a [`ToolResult<T, E>`](crate::ToolResult) or a
/// `Result<T, F>` ([`ToolReturn`]); its `Args` decode with serde from the
/// call's JSON, and `Args`, `T` and `E` give the tool's schemas.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use schemars::JsonSchema;
/// use toolresult::tool::{self, Tool};
/// use toolresult::{ToolError, ToolResult};
///
/// #[derive(Deserialize, JsonSchema)]
/// struct WeatherArgs { city: String }
///
/// #[derive(Serialize, JsonSchema)]
/// struct Weather { celsius: f32 }
///
/// let weather = tool::function("get_weather", "Current weather for a city", |args: WeatherArgs| {
///     match args.city.as_str() {
///         "Oslo" => ToolResult::ok(Weather { celsius: -3.5 }),
///         other => ToolResult::fail(ToolError::new(format!("unknown city {other}"))),
///     }
/// });
///
/// let lowered = weather.call_blocking(serde_json::json!({"city": "Oslo"})).unwrap();
/// assert_eq!(lowered.result.output, r#"{"celsius":-3.5}"#);
///
/// let lowered = weather.call_blocking(serde_json::json!({})).unwrap();
/// assert_eq!(
///     lowered.result.output,
///     r#"{"error":{"message":"invalid arguments: missing field `city`","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#
/// );
/// ```
pub fn function<Args, R, F>(
    name: impl Into<String>,
    description: impl Into<String>,
    body: F,
) -> FunctionTool<Args, R, F>
where
    Args: DeserializeOwned + JsonSchema,
    R: ToolReturn,
    F: Fn(Args) -> R + Send + Sync,
{
    FunctionTool {
        name: name.into(),
        description: description.into(),
        schemas: ToolSchemas::of::<Args, R>(),
        body,
        signature: PhantomData,
    }
}

impl<Args, R, F> FunctionTool<Args, R, F>
where
    Args: DeserializeOwned,
    R: ToolReturn,
    F: Fn(Args) -> R,
{
    fn run(&self, args: Value) -> Lowered {
        catch_blocking(&self.name, || {
            match InvalidArguments::decode::<Args>(args) {
                Ok(args) => (self.body)(args).lower(),
                Err(invalid) => invalid.lower(&self.name),
            }
        })
    }
}

impl<Args, R, F> Tool for FunctionTool<Args, R, F>
where
    Args: DeserializeOwned,
    R: ToolReturn,
    F: Fn(Args) -> R + Send + Sync,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> &Schema {
        &self.schemas.input
    }

    fn output_schema(&self) -> &Schema {
        &self.schemas.output
    }

    fn model_facing_schema(&self) -> &Schema {
        &self.schemas.model_facing
    }

    fn call(&self, args: Value) -> Pin<Box<dyn Future<Output = Lowered> + Send + '_>> {
        Box::pin(async move { self.run(args) })
    }

    fn call_blocking(&self, args: Value) -> Option<Lowered> {
        Some(self.run(args))
    }
}

impl<Args, R, F> fmt::Debug for FunctionTool<Args, R, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FunctionTool")
            .field("name", &self.name)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}
