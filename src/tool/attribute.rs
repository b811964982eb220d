//! The tools `#[tool]` builds: the typed tools of [`function`](super::function)
//! and [`async_function`](super::async_function), whose names the attribute
//! checked at compile time, carrying the timeout and budget the attribute
//! gives.

use std::future::Future;
use std::marker::PhantomData;
use std::time::Duration;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::FunctionTool;
use super::body::{AsyncBody, AsyncFn, SyncBody, SyncFn};
use super::definition::Definition;
use crate::budget::Budget;

/// `tool::function` for a name checked already, asking for `timeout` and
/// `budget`.
pub fn function<Args, M, F>(
    name: &'static str,
    description: &'static str,
    timeout: Option<Option<Duration>>,
    budget: Option<Budget>,
    body: F,
) -> FunctionTool<Args, SyncFn<M>, F>
where
    Args: DeserializeOwned + JsonSchema,
    F: SyncBody<Args, M>,
{
    let mut definition =
        Definition::checked::<Args, F::Output>(name.to_owned(), description.to_owned());
    definition.timeout = timeout;
    definition.budget = budget;
    FunctionTool {
        definition,
        body,
        signature: PhantomData,
    }
}

/// `tool::async_function` for a name checked already, asking for
/// `timeout` and `budget`.
pub fn async_function<Args, M, F>(
    name: &'static str,
    description: &'static str,
    timeout: Option<Option<Duration>>,
    budget: Option<Budget>,
    body: F,
) -> FunctionTool<Args, AsyncFn<M>, F>
where
    Args: DeserializeOwned + JsonSchema + Send,
    F: AsyncBody<Args, M>,
{
    let mut definition = Definition::checked::<Args, <F::Future as Future>::Output>(
        name.to_owned(),
        description.to_owned(),
    );
    definition.timeout = timeout;
    definition.budget = budget;
    FunctionTool {
        definition,
        body,
        signature: PhantomData,
    }
}
