//! The tools `#[tool]` builds: the typed tools of [`function`](super::function)
//! and [`async_function`](super::async_function), whose names the attribute
//! checked at compile time.

use std::future::Future;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::body::{AsyncBody, SyncBody};
use super::definition::Definition;
use super::{AsyncFunctionTool, FunctionTool};

/// `tool::function` for a name checked already.
pub fn function<Args, M, F>(
    name: &'static str,
    description: &'static str,
    body: F,
) -> FunctionTool<Args, M, F>
where
    Args: DeserializeOwned + JsonSchema,
    F: SyncBody<Args, M>,
{
    FunctionTool {
        definition: Definition::checked::<Args, F::Output>(name.to_owned(), description.to_owned()),
        body,
        signature: PhantomData,
    }
}

/// `tool::async_function` for a name checked already.
pub fn async_function<Args, M, F>(
    name: &'static str,
    description: &'static str,
    body: F,
) -> AsyncFunctionTool<Args, M, F>
where
    Args: DeserializeOwned + JsonSchema + Send,
    F: AsyncBody<Args, M>,
{
    AsyncFunctionTool {
        definition: Definition::checked::<Args, <F::Future as Future>::Output>(
            name.to_owned(),
            description.to_owned(),
        ),
        body,
        signature: PhantomData,
    }
}
