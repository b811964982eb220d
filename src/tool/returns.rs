//! `ToolReturn`: what a tool function may return, with the types its
//! schemas are made from.

use schemars::JsonSchema;
use serde::Serialize;

use crate::{Failure, IntoToolResult, ToolResult};

/// A return type of a tool function: it lowers
/// ([`IntoToolResult`]), and names its success and model-facing error types
/// so the tool's output and model-facing schemas can be generated.
///
/// Implemented for [`ToolResult<T, E>`], for `Result<T, Failure<E>>`, for
/// `Result<T, E>` (the error `E` is the model-facing error), for the
/// plain returns `String`, `&str`, `serde_json::Value` and `()`, and for
/// the canonical [`canonical::ToolResult`](crate::canonical::ToolResult)
/// itself (a suspension, say), whose text can be anything: its value and
/// error types are `serde_json::Value`, the schema `true`.
pub trait ToolReturn: IntoToolResult {
    /// The success type: the JSON the model reads on success.
    type Value: JsonSchema;
    /// The model-facing error type: the `E` in `{"error": E}`.
    type Error: JsonSchema;
}

impl<T, E> ToolReturn for ToolResult<T, E>
where
    T: Serialize + JsonSchema,
    E: Serialize + JsonSchema,
{
    type Value = T;
    type Error = E;
}

impl<T, E> ToolReturn for Result<T, Failure<E>>
where
    T: Serialize + JsonSchema,
    E: Serialize + JsonSchema,
{
    type Value = T;
    type Error = E;
}

impl<T, E> ToolReturn for Result<T, E>
where
    T: Serialize + JsonSchema,
    E: Serialize + JsonSchema,
{
    type Value = T;
    type Error = E;
}

/// Plain returns that cannot fail; their error type is the default
/// [`ToolError`](crate::ToolError), the shape bad arguments and panics use.
macro_rules! infallible_return {
    ($($ty:ty => $value:ty),* $(,)?) => {$(
        impl ToolReturn for $ty {
            type Value = $value;
            type Error = crate::ToolError;
        }
    )*};
}

infallible_return! {
    String => String,
    &str => String,
    serde_json::Value => serde_json::Value,
    () => (),
}

/// A canonical result is untyped: its `output` is whatever text the tool
/// wrote, so both schemas are `true` (anything), and MCP gets no
/// `outputSchema`.
impl ToolReturn for crate::canonical::ToolResult {
    type Value = serde_json::Value;
    type Error = serde_json::Value;
}
