//! `async_function`: an asynchronous typed function as a [`Tool`].

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

use schemars::{JsonSchema, Schema};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::arguments::InvalidArguments;
use super::panic::CatchPanic;
use super::{Tool, ToolReturn, ToolSchemas};
use crate::{IntoToolResult, Lowered};

/// An asynchronous typed function as a tool; build it with [`async_function`].
///
/// A panic while the body's future is polled (or while the function builds
/// it) is caught, poll by poll, and becomes the same safe error result as a
/// panic in a synchronous tool; the executor never sees it. Work the body
/// hands to other tasks (`tokio::spawn`, say) is outside that net: its
/// panics are reported the executor's way.
#[must_use = "a tool does nothing until it is called"]
pub struct AsyncFunctionTool<Args, Fut, F> {
    name: String,
    description: String,
    schemas: ToolSchemas,
    body: F,
    signature: PhantomData<fn(Args) -> Fut>,
}

/// Defines a tool from an asynchronous function of its typed arguments.
///
/// The same as [`function`](super::function), for a function returning a
/// future. The library brings no runtime: the tool's
/// [`call`](Tool::call) future runs on whatever executor polls it.
///
/// ```
/// use serde::Deserialize;
/// use schemars::JsonSchema;
/// use toolresult::Failure;
/// use toolresult::tool::{self, Tool};
///
/// #[derive(Deserialize, JsonSchema)]
/// struct Lookup { key: String }
///
/// let lookup = tool::async_function("lookup", "Look a key up", |args: Lookup| async move {
///     Ok::<_, Failure>(args.key.len())
/// });
///
/// let lowered = pollster::block_on(lookup.call(serde_json::json!({"key": "region"})));
/// assert_eq!(lowered.result.output, "6");
/// assert!(lookup.call_blocking(serde_json::json!({})).is_none());
/// ```
pub fn async_function<Args, Fut, F>(
    name: impl Into<String>,
    description: impl Into<String>,
    body: F,
) -> AsyncFunctionTool<Args, Fut, F>
where
    Args: DeserializeOwned + JsonSchema,
    Fut: Future<Output: ToolReturn> + Send,
    F: Fn(Args) -> Fut + Send + Sync,
{
    AsyncFunctionTool {
        name: name.into(),
        description: description.into(),
        schemas: ToolSchemas::of::<Args, Fut::Output>(),
        body,
        signature: PhantomData,
    }
}

impl<Args, Fut, F> Tool for AsyncFunctionTool<Args, Fut, F>
where
    Args: DeserializeOwned,
    Fut: Future<Output: ToolReturn> + Send,
    F: Fn(Args) -> Fut + Send + Sync,
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
        Box::pin(CatchPanic::new(&self.name, async move {
            let args = match InvalidArguments::decode::<Args>(args) {
                Ok(args) => args,
                Err(invalid) => return invalid.lower(&self.name),
            };
            (self.body)(args).await.lower()
        }))
    }
}

impl<Args, Fut, F> fmt::Debug for AsyncFunctionTool<Args, Fut, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncFunctionTool")
            .field("name", &self.name)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}
