//! `async_function`: an asynchronous typed function as a [`Tool`].

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::arguments::InvalidArguments;
use super::definition::{Definition, defined_tool, definition_accessors};
use super::name::InvalidToolName;
use super::panic::CatchPanic;
use super::{Tool, ToolReturn};
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
    definition: Definition,
    body: F,
    signature: PhantomData<fn(Args) -> Fut>,
}

defined_tool!(AsyncFunctionTool);

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
/// })?;
///
/// let lowered = pollster::block_on(lookup.call(serde_json::json!({"key": "region"})));
/// assert_eq!(lowered.result.output, "6");
/// assert!(lookup.call_blocking(serde_json::json!({})).is_none());
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
///
/// # Errors
/// The name is empty, too long, or holds a character some provider refuses.
pub fn async_function<Args, Fut, F>(
    name: impl Into<String>,
    description: impl Into<String>,
    body: F,
) -> Result<AsyncFunctionTool<Args, Fut, F>, InvalidToolName>
where
    Args: DeserializeOwned + JsonSchema + Send,
    Fut: Future<Output: ToolReturn> + Send,
    F: Fn(Args) -> Fut + Send + Sync,
{
    Ok(AsyncFunctionTool {
        definition: Definition::of::<Args, Fut::Output>(name.into(), description.into())?,
        body,
        signature: PhantomData,
    })
}

impl<Args, Fut, F> Tool for AsyncFunctionTool<Args, Fut, F>
where
    Args: DeserializeOwned + Send,
    Fut: Future<Output: ToolReturn> + Send,
    F: Fn(Args) -> Fut + Send + Sync,
{
    definition_accessors!();

    fn call(&self, args: Value) -> Pin<Box<dyn Future<Output = Lowered> + Send + '_>> {
        self.run(InvalidArguments::decode(args))
    }

    fn call_json(&self, arguments: &str) -> Pin<Box<dyn Future<Output = Lowered> + Send + '_>> {
        self.run(InvalidArguments::decode_text(arguments))
    }
}

impl<Args, Fut, F> AsyncFunctionTool<Args, Fut, F>
where
    Args: DeserializeOwned + Send,
    Fut: Future<Output: ToolReturn> + Send,
    F: Fn(Args) -> Fut + Send + Sync,
{
    /// The call of the decoded arguments: the body's future, with panics
    /// caught poll by poll, lowered, worded by the tool.
    fn run(
        &self,
        args: Result<Args, InvalidArguments>,
    ) -> Pin<Box<dyn Future<Output = Lowered> + Send + '_>> {
        let name = &self.definition.name;
        let call = CatchPanic::new(
            name,
            Box::pin(async move {
                match args {
                    Ok(args) => (self.body)(args).await.lower(),
                    Err(invalid) => invalid.lower(name),
                }
            }),
        );
        Box::pin(async move { self.definition.finish(call.await) })
    }
}
