//! An asynchronous typed function as a [`Tool`]: a [`FunctionTool`] whose
//! body returns a future.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::de::DeserializeOwned;

use super::arguments::{Arguments, InvalidArguments};
use super::body::{AsyncBody, AsyncFn};
use super::definition::definition_accessors;
use super::panic::{CatchPanic, ToolPanicked};
use super::{CallContext, Calling, FunctionTool, Tool};
use crate::IntoToolResult;

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
