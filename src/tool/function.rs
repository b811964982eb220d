//! `function`: a synchronous typed function as a [`Tool`].

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::arguments::InvalidArguments;
use super::definition::{Definition, defined_tool, definition_accessors};
use super::name::InvalidToolName;
use super::panic::catch_blocking;
use super::{Tool, ToolReturn, sealed};
use crate::Lowered;

/// A synchronous typed function as a tool; build it with [`function`].
///
/// Calling it decodes the arguments (a bad argument is an error result the
/// model can act on), runs the body inside `catch_unwind` (a panic is a safe
/// error result) and lowers what it returns.
#[must_use = "a tool does nothing until it is called"]
pub struct FunctionTool<Args, R, F> {
    definition: Definition,
    body: F,
    signature: PhantomData<fn(Args) -> R>,
}

defined_tool!(FunctionTool);

/// Defines a tool from a synchronous function of its typed arguments.
///
/// The function returns a [`ToolResult<T, E>`](crate::ToolResult), a
/// `Result<T, Failure<E>>`, a `Result<T, E>`, or plain text or JSON
/// ([`ToolReturn`]); its `Args` decode with serde from the call's JSON,
/// and `Args`, `T` and `E` give the tool's schemas. The name must be one
/// every provider accepts ([`InvalidToolName`]). Say what the tool does to
/// the world with [`with_safety`](FunctionTool::with_safety).
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use schemars::JsonSchema;
/// use toolresult::tool::{self, Tool, ToolSafety};
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
/// })?
/// .with_safety(ToolSafety::ReadOnly);
///
/// let lowered = weather.call_blocking(serde_json::json!({"city": "Oslo"})).unwrap();
/// assert_eq!(lowered.result.output, r#"{"celsius":-3.5}"#);
///
/// let lowered = weather.call_blocking(serde_json::json!({})).unwrap();
/// assert_eq!(
///     lowered.result.output,
///     r#"{"error":{"message":"invalid arguments: missing field `city`","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#
/// );
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
///
/// # Errors
/// The name is empty, too long, or holds a character some provider refuses.
pub fn function<Args, R, F>(
    name: impl Into<String>,
    description: impl Into<String>,
    body: F,
) -> Result<FunctionTool<Args, R, F>, InvalidToolName>
where
    Args: DeserializeOwned + JsonSchema,
    R: ToolReturn,
    F: Fn(Args) -> R + Send + Sync,
{
    Ok(FunctionTool {
        definition: Definition::of::<Args, R>(name.into(), description.into())?,
        body,
        signature: PhantomData,
    })
}

impl<Args, R, F> FunctionTool<Args, R, F>
where
    Args: DeserializeOwned,
    R: ToolReturn,
    F: Fn(Args) -> R,
{
    #[inline]
    fn run(&self, args: impl FnOnce() -> Result<Args, InvalidArguments>) -> Lowered {
        let name = &self.definition.name;
        let lowered = catch_blocking(name, || match args() {
            Ok(args) => (self.body)(args).lower(),
            Err(invalid) => invalid.lower(name),
        });
        self.definition.finish(lowered)
    }
}

impl<Args, R, F> Tool for FunctionTool<Args, R, F>
where
    Args: DeserializeOwned,
    R: ToolReturn,
    F: Fn(Args) -> R + Send + Sync,
{
    definition_accessors!();

    fn call(&self, args: Value) -> Pin<Box<dyn Future<Output = Lowered> + Send + '_>> {
        Box::pin(async move { self.run(|| InvalidArguments::decode(args)) })
    }

    fn call_json(&self, arguments: &str) -> Pin<Box<dyn Future<Output = Lowered> + Send + '_>> {
        let lowered = self.run(|| InvalidArguments::decode_text(arguments));
        Box::pin(std::future::ready(lowered))
    }

    fn call_blocking(&self, args: Value) -> Option<Lowered> {
        Some(self.run(|| InvalidArguments::decode(args)))
    }

    fn call_now(&self, arguments: sealed::Args<'_>, _: sealed::Now) -> Option<Lowered> {
        Some(match arguments {
            sealed::Args::Text(text) => self.run(|| InvalidArguments::decode_text(text)),
            sealed::Args::Json(value) => self.run(|| InvalidArguments::decode(value.clone())),
        })
    }
}
