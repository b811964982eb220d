//! `function`: a typed function, synchronous or asynchronous, as a [`Tool`].

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::arguments::{Arguments, InvalidArguments};
use super::body::{Body, SyncBody, SyncFn};
use super::definition::{Definition, defined_tool, definition_accessors};
use super::name::InvalidToolName;
use super::panic::catch_blocking;
use super::{CallContext, Calling, Tool};
use crate::IntoToolResult;

/// A typed function as a tool, synchronous or asynchronous, built with
/// [`function`].
///
/// Calling it decodes the arguments (a bad argument is an error result the
/// model can act on), runs the body inside `catch_unwind` (a panic is a safe
/// error result) and lowers what it returns. An asynchronous body's
/// panic is caught poll by poll (and while the function builds its future),
/// so the executor never sees it; work the body hands to other tasks
/// (`tokio::spawn`, say) is outside that net.
#[must_use = "a tool does nothing until it is called"]
pub struct FunctionTool<Args, M, F> {
    pub(super) definition: Definition,
    pub(super) body: F,
    pub(super) signature: PhantomData<fn(Args) -> M>,
}

defined_tool!(FunctionTool);

/// Defines a tool from a function of its typed arguments, synchronous or
/// asynchronous.
///
/// A synchronous body is `Fn(Args) -> R`, or `Fn(Args, &CallContext) -> R`
/// for a tool that reads its call ([`CallContext`]: id, attempt, deadline,
/// cancellation, progress, the answer of a resumed call, its caller's
/// values). It returns a [`ToolResult<T, E>`](crate::ToolResult), a
/// `Result<T, Failure<E>>`, a `Result<T, E>`, or plain text or JSON
/// ([`ToolReturn`](super::ToolReturn)); its `Args` decode with serde from the call's JSON,
/// and `Args`, `T` and `E` give the tool's schemas. The name must be one
/// every provider accepts ([`InvalidToolName`]). Say what the tool does to
/// the world with [`with_safety`](FunctionTool::with_safety).
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use schemars::JsonSchema;
/// use toolresult::tool::{self, Arguments, CallContext, Tool, ToolSafety};
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
/// let cx = CallContext::new("call_1", "get_weather");
/// let call = |args| pollster::block_on(weather.call(&Arguments::Json(args), &cx));
/// assert_eq!(call(serde_json::json!({"city": "Oslo"})).result.output, r#"{"celsius":-3.5}"#);
///
/// let lowered = call(serde_json::json!({}));
/// assert_eq!(
///     lowered.result.output,
///     r#"{"error":{"message":"invalid arguments: missing field `city`","suggestion":"call `get_weather` again with arguments that match its input schema"}}"#
/// );
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
///
/// An asynchronous body returns a future: `Fn(Args) -> Fut`, or
/// `Fn(Args, CallContext<'static>) -> Fut` for a tool that reads its call
/// (the future owns its context, so it may hold it across `.await`s). Its
/// panics are caught while it builds its future and poll by poll. The
/// library brings no runtime: the tool's [`call`](Tool::call) future runs
/// on whatever executor polls it.
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
/// let lookup = tool::function("lookup", "Look a key up", |args: Lookup| async move {
///     Ok::<_, Failure>(args.key.len())
/// })?;
///
/// let args = Arguments::Json(serde_json::json!({"key": "region"}));
/// let lowered = pollster::block_on(lookup.call(&args, &CallContext::new("c1", "lookup")));
/// assert_eq!(lowered.result.output, "6");
///
/// // A tool that reads its call owns its context.
/// let progress = tool::function("scan", "Scan", |_: Lookup, cx: CallContext<'static>| async move {
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
pub fn function<Args, Kind, F>(
    name: impl Into<String>,
    description: impl Into<String>,
    body: F,
) -> Result<FunctionTool<Args, Kind, F>, InvalidToolName>
where
    Args: DeserializeOwned + JsonSchema,
    F: Body<Args, Kind>,
{
    Ok(FunctionTool {
        definition: Definition::of::<Args, F::Output>(name.into(), description.into())?,
        body,
        signature: PhantomData,
    })
}

impl<Args, M, F> FunctionTool<Args, SyncFn<M>, F> {
    /// The same tool, declaring that its body blocks its thread
    /// (synchronous I/O, a long computation): a toolbox runs it on tokio's
    /// blocking pool, so its timeout answers the call while the body runs
    /// on ([`Tool::blocks`]).
    pub fn blocking(mut self) -> Self {
        self.definition.blocks = true;
        self
    }
}

impl<Args, M, F> Tool for FunctionTool<Args, SyncFn<M>, F>
where
    Args: DeserializeOwned,
    F: SyncBody<Args, M>,
{
    definition_accessors!();

    fn blocks(&self) -> bool {
        self.definition.blocks
    }

    #[inline]
    fn call<'a>(&'a self, args: &Arguments, cx: &CallContext<'_>) -> Calling<'a> {
        let name = &self.definition.name;
        let lowered = catch_blocking(name, || match InvalidArguments::decode_arguments(args) {
            Ok(args) => self.body.run(args, cx).lower(),
            Err(invalid) => invalid.lower(name),
        });
        Calling::ready(self.definition.finish(lowered))
    }
}
