//! What the code `#[tool]` generates names, so that a crate using the
//! attribute needs no `serde` or `schemars` of its own. Not a public API:
//! it changes with the attribute.

pub use schemars;
pub use serde;

pub use crate::tool::attribute::{async_function, function};

/// A type a tool parameter may have: one the call's JSON decodes into, with
/// a schema.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument: it must deserialise with serde and have a JSON schema",
    label = "this parameter's type",
    note = "derive both on it: `#[derive(serde::Deserialize, schemars::JsonSchema)]`, or take a type that has them (`String`, numbers, `Vec<T>`, `Option<T>`, ...)"
)]
pub trait ToolArgument {}

impl<T: serde::de::DeserializeOwned + schemars::JsonSchema> ToolArgument for T {}

/// Holds a parameter's type to [`ToolArgument`].
pub const fn argument<T: ToolArgument>() {}

/// A type a tool function may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be what a tool returns",
    label = "this return type",
    note = "return a `ToolResult<T, E>`, a `Result<T, E>` (or `Result<T, Failure<E>>`) whose `T` and `E` derive `serde::Serialize` and `schemars::JsonSchema`, a `String`, a `serde_json::Value` or `()`"
)]
pub trait ToolReturns {}

impl<R: crate::tool::ToolReturn> ToolReturns for R {}

/// Holds a return type to [`ToolReturns`].
pub const fn returns<R: ToolReturns>() {}
