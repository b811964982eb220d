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

/// Expands to its input when the `toolbox` feature is on, to nothing when
/// it is off: the generated `register` functions need a `Toolbox`.
#[cfg(feature = "toolbox")]
#[doc(hidden)]
#[macro_export]
macro_rules! __toolresult_if_toolbox {
    ($($item:tt)*) => { $($item)* };
}

/// Expands to its input when the `toolbox` feature is on, to nothing when
/// it is off: the generated `register` functions need a `Toolbox`.
#[cfg(not(feature = "toolbox"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __toolresult_if_toolbox {
    ($($item:tt)*) => {};
}

pub use __toolresult_if_toolbox as if_toolbox;

#[cfg(feature = "toolbox")]
pub use register::register;

#[cfg(feature = "toolbox")]
mod register {
    use std::time::Duration;

    use crate::Tool;
    use crate::budget::Budget;
    use crate::toolbox::{RegisterError, ToolOptions, Toolbox};

    /// Registers `tool` in `toolbox` with the timeout and budget its
    /// attribute gives: the one place the generated code calls the
    /// toolbox.
    ///
    /// # Errors
    /// A tool of the same name is registered already.
    pub fn register(
        toolbox: &mut Toolbox,
        tool: impl Tool + 'static,
        timeout: Option<Option<Duration>>,
        budget: Option<Budget>,
    ) -> Result<&mut ToolOptions, RegisterError> {
        let options = toolbox.register(tool)?;
        if let Some(timeout) = timeout {
            options.timeout(timeout);
        }
        if let Some(budget) = budget {
            options.budget(budget);
        }
        Ok(options)
    }
}
