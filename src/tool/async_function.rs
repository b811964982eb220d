//! `async_function`: an asynchronous typed function as a [`Tool`].

use std::future::Future;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::arguments::{Arguments, InvalidArguments};
use super::body::{AsyncBody, AsyncFn};
use super::definition::{Definition, definition_accessors};
use super::name::InvalidToolName;
use super::panic::{CatchPanic, ToolPanicked};
use super::{CallContext, Calling, FunctionTool, Tool};
use crate::IntoToolResult;

/// Defines a tool from an asynchronous function of its typed arguments.
///
/// The same as [`function`](super::function), for a function returning a
/// future: `Fn(Args) -> Fut`, or `Fn(Args, CallContext<'static>) -> Fut`
/// for a tool that reads its call (the future owns its context, so it may
/// hold it across `.await`s). The library brings no runtime: the tool's
/// [`call`](Tool::call) future runs on whatever executor polls it.
///
/// ```
/// use serde::Deserialize;
/// use schemars::JsonSchema;
/// use toolresult::Failure;
/// use toolresult::tool::{self, Arguments, CallContext, Tool};
///
/// #[derive(Deserialize, JsonSchema)]
/// struct Lookup { key: String }
///
/// let lookup = tool::async_function("lookup", "Look a key up", |args: Lookup| async move {
///     Ok::<_, Failure>(args.key.len())
/// })?;
///
/// let args = Arguments::Json(serde_json::json!({"key": "region"}));
/// let lowered = pollster::block_on(lookup.call(&args, &CallContext::new("c1", "lookup")));
/// assert_eq!(lowered.result.output, "6");
///
/// // A tool that reads its call owns its context.
/// let progress = tool::async_function("scan", "Scan", |_: Lookup, cx: CallContext<'static>| async move {
///     cx.progress(1.0, Some(1.0), None);
///     cx.call_id().to_owned()
/// })?;
/// let lowered = pollster::block_on(progress.call(&args, &CallContext::new("c2", "scan")));
/// assert_eq!(lowered.result.output, "c2");
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
///
/// # Errors
/// The name is empty, too long, or holds a character some provider refuses.
pub fn async_function<Args, M, F>(
    name: impl Into<String>,
    description: impl Into<String>,
    body: F,
) -> Result<FunctionTool<Args, AsyncFn<M>, F>, InvalidToolName>
where
    Args: DeserializeOwned + JsonSchema + Send,
    F: AsyncBody<Args, M>,
{
    Ok(FunctionTool {
        definition: Definition::of::<Args, <F::Future as Future>::Output>(
            name.into(),
            description.into(),
        )?,
        body,
        signature: PhantomData,
    })
}

impl<Args, M, F> Tool for FunctionTool<Args, AsyncFn<M>, F>
where
    Args: DeserializeOwned + Send,
    F: AsyncBody<Args, M>,
{
    definition_accessors!();

    /// Decodes the arguments and starts the body, with panics caught
    /// while it starts and poll by poll; the answer is lowered and worded
    /// by the tool.
    fn call<'a>(&'a self, args: &Arguments, cx: &CallContext<'_>) -> Calling<'a> {
        let name = &self.definition.name;
        let started = catch_unwind(AssertUnwindSafe(|| {
            InvalidArguments::decode_arguments(args).map(|args| self.body.start(args, cx))
        }));
        let future = match started {
            Ok(Ok(future)) => future,
            Ok(Err(invalid)) => return Calling::ready(self.definition.finish(invalid.lower(name))),
            Err(payload) => {
                return Calling::ready(self.definition.finish(ToolPanicked::caught(name, payload)));
            }
        };
        let call = CatchPanic::new(name, Box::pin(async move { future.await.lower() }));
        Calling::new(async move { self.definition.finish(call.await) })
    }
}
