//! Typed functions as object-safe tools: a name, a description, schemas
//! from the Rust types, and a call that always lowers.
//!
//! [`function`] and [`async_function`] turn a function of typed arguments
//! into a [`Tool`]. A call decodes the model's JSON arguments with serde
//! (bad ones become an error result the model can act on), runs the body
//! (a panic becomes a safe error result) and lowers what it returns into the
//! canonical result plus [`Diagnostics`](crate::Diagnostics). Tools of
//! different `Args`, `T` and `E` live side by side as `Box<dyn Tool>`, and
//! [`provider`](crate::provider) renders each as the function declaration a
//! provider expects. A tool says what it does to the world
//! ([`ToolSafety`]): the retry policy and MCP's annotations read it.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use schemars::JsonSchema;
//! use toolresult::provider::{Anthropic, Provider};
//! use toolresult::tool::{self, Tool, ToolSafety};
//! use toolresult::{ToolError, ToolResult};
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct WeatherArgs { city: String }
//! #[derive(Serialize, JsonSchema)]
//! struct Weather { celsius: f32 }
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct AddArgs { a: i64, b: i64 }
//!
//! let tools: Vec<Box<dyn Tool>> = vec![
//!     Box::new(tool::function("get_weather", "Current weather for a city", |args: WeatherArgs| {
//!         if args.city == "Oslo" {
//!             ToolResult::ok(Weather { celsius: -3.5 })
//!         } else {
//!             ToolResult::fail(ToolError::new(format!("unknown city {}", args.city)))
//!         }
//!     })?
//!     .with_safety(ToolSafety::ReadOnly)),
//!     Box::new(tool::function("add", "Add two integers", |args: AddArgs| {
//!         args.a.checked_add(args.b).ok_or(ToolError::new("the sum overflows"))
//!     })?
//!     .with_safety(ToolSafety::ReadOnly)),
//! ];
//!
//! let call = |name: &str, args| {
//!     let tool = tools.iter().find(|t| t.name() == name).unwrap();
//!     pollster::block_on(tool.call(args)).result.output
//! };
//! assert_eq!(call("add", serde_json::json!({"a": 2, "b": 3})), "5");
//! assert_eq!(call("get_weather", serde_json::json!({"city": "Oslo"})), r#"{"celsius":-3.5}"#);
//!
//! let declared = serde_json::to_value(Anthropic::declare(&tools[1]))?;
//! assert_eq!(declared["name"], "add");
//! assert_eq!(declared["input_schema"]["required"], serde_json::json!(["a", "b"]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod arguments;
mod async_function;
mod definition;
mod function;
mod name;
mod panic;
mod returns;
mod safety;
mod schema;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use schemars::Schema;
use serde_json::Value;

use crate::Lowered;

pub use arguments::InvalidArguments;
pub use async_function::{AsyncFunctionTool, async_function};
pub use function::{FunctionTool, function};
pub use name::InvalidToolName;
#[cfg(feature = "toolbox")]
pub(crate) use name::{check as check_name, shown as shown_name};
pub use panic::ToolPanicked;
#[cfg(feature = "toolbox")]
pub(crate) use panic::{catch_future, drop_quietly};
pub use returns::ToolReturn;
pub use safety::ToolSafety;
pub(crate) use schema::is_object_schema;
#[cfg(feature = "toolbox")]
pub(crate) use sealed::{Args as ArgsRef, Now};

/// A tool the model can call, whatever its argument, success and error
/// types: object-safe, so tools of many types share a `Vec<Box<dyn Tool>>`.
///
/// A call never panics and never fails outright: bad arguments, a failing
/// body and a panicking body all lower into an error result for the model
/// with [`Diagnostics`](crate::Diagnostics) for Rust.
pub trait Tool: Send + Sync {
    /// The name the model calls the tool by.
    fn name(&self) -> &str;

    /// What the tool does, for the model.
    fn description(&self) -> &str;

    /// The schema of the arguments (a JSON object).
    fn input_schema(&self) -> &Schema;

    /// The schema of the JSON of a success (see
    /// [`Mcp::declare`](crate::provider::Provider::declare) for when MCP
    /// can take it as `outputSchema`).
    fn output_schema(&self) -> &Schema;

    /// The schema of all the model reads back: `anyOf` the success or
    /// `{"error": E}`, where `E` also takes the `ToolError` of bad arguments
    /// and panics.
    fn model_facing_schema(&self) -> &Schema;

    /// What calling the tool does to the world; the default promises
    /// nothing ([`ToolSafety::Destructive`]).
    fn safety(&self) -> ToolSafety {
        ToolSafety::default()
    }

    /// Calls the tool with the model's JSON arguments (`null` reads as `{}`).
    fn call(&self, args: Value) -> Pin<Box<dyn Future<Output = Lowered> + Send + '_>>;

    /// Calls the tool with its arguments as the JSON text a provider sent
    /// (OpenAI's `arguments` string). Empty or blank text reads as `{}`;
    /// text that is not JSON is an error result the model can act on,
    /// like any other bad argument, and the body is not run.
    ///
    /// A typed tool decodes an object's text straight into its arguments,
    /// so a field it does not know is skipped unread: text whose only
    /// oddity is there (a lone surrogate escape, a number beyond `f64`) is
    /// accepted, where reading it into a `serde_json::Value` first, as
    /// [`call`](Self::call) needs, would refuse it.
    ///
    /// ```
    /// use toolresult::tool::{self, Tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Args { limit: Option<u8> }
    ///
    /// let list = tool::function("list", "List things", |a: Args| a.limit.unwrap_or(10).to_string())?;
    /// assert_eq!(pollster::block_on(list.call_json(r#"{"limit": 3}"#)).result.output, "3");
    /// assert_eq!(pollster::block_on(list.call_json("")).result.output, "10");
    /// let bad = pollster::block_on(list.call_json(r#"{"limit": 3"#));
    /// assert_eq!(
    ///     bad.result.output,
    ///     r#"{"error":{"message":"invalid arguments: the arguments are not JSON: EOF while parsing an object at line 1 column 11","suggestion":"call `list` again with arguments that match its input schema"}}"#
    /// );
    /// # Ok::<(), toolresult::tool::InvalidToolName>(())
    /// ```
    fn call_json(&self, arguments: &str) -> Pin<Box<dyn Future<Output = Lowered> + Send + '_>> {
        match InvalidArguments::parse(arguments) {
            Ok(args) => self.call(args),
            Err(invalid) => {
                let lowered = invalid.lower(self.name());
                Box::pin(std::future::ready(lowered))
            }
        }
    }

    /// Calls a synchronous tool on this thread; `None` for a tool that can
    /// only be awaited (the arguments are then dropped).
    fn call_blocking(&self, args: Value) -> Option<Lowered> {
        drop(args);
        None
    }

    /// Not part of the API (its argument cannot be named outside the
    /// crate): the toolbox's fast path, the answer of a synchronous tool
    /// called in place with a call's arguments as the provider sent them;
    /// `None` for a tool that must be awaited.
    #[doc(hidden)]
    fn call_now(&self, arguments: sealed::Args<'_>, _: sealed::Now) -> Option<Lowered> {
        let _ = arguments;
        None
    }
}

/// What keeps [`Tool::call_now`] inside the crate: its argument type
/// cannot be named outside it, so it can be neither called nor overridden
/// there.
pub(crate) mod sealed {
    /// The token [`Tool::call_now`](super::Tool::call_now) takes.
    #[derive(Debug, Clone, Copy)]
    pub struct Now;

    /// A call's arguments as the provider sent them, borrowed.
    #[derive(Debug, Clone, Copy)]
    pub enum Args<'a> {
        /// JSON text (OpenAI's `arguments`).
        Text(&'a str),
        /// A JSON value.
        Json(&'a serde_json::Value),
    }
}

macro_rules! forward_tool {
    ($($pointer:ty),*) => {$(
        /// A boxed, shared or borrowed tool is a tool.
        impl<T: Tool + ?Sized> Tool for $pointer {
            fn name(&self) -> &str {
                (**self).name()
            }
            fn description(&self) -> &str {
                (**self).description()
            }
            fn input_schema(&self) -> &Schema {
                (**self).input_schema()
            }
            fn output_schema(&self) -> &Schema {
                (**self).output_schema()
            }
            fn model_facing_schema(&self) -> &Schema {
                (**self).model_facing_schema()
            }
            fn safety(&self) -> ToolSafety {
                (**self).safety()
            }
            fn call(&self, args: Value) -> Pin<Box<dyn Future<Output = Lowered> + Send + '_>> {
                (**self).call(args)
            }
            fn call_json(&self, arguments: &str) -> Pin<Box<dyn Future<Output = Lowered> + Send + '_>> {
                (**self).call_json(arguments)
            }
            fn call_blocking(&self, args: Value) -> Option<Lowered> {
                (**self).call_blocking(args)
            }
            fn call_now(&self, arguments: sealed::Args<'_>, now: sealed::Now) -> Option<Lowered> {
                (**self).call_now(arguments, now)
            }
        }
    )*};
}

forward_tool!(Box<T>, Arc<T>, &T);
