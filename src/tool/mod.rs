//! Typed functions as object-safe tools: a name, a description, schemas
//! from the Rust types, and a call that always lowers.
//!
//! [`function`] turns a function of typed arguments, synchronous or
//! asynchronous, into a [`Tool`]. A call decodes the model's JSON arguments with serde
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
//! use toolresult::tool::{self, Arguments, CallContext, Tool, ToolSafety};
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
//!     let cx = CallContext::new("call_1", name);
//!     pollster::block_on(tool.call(&Arguments::Json(args), &cx)).result.output
//! };
//! assert_eq!(call("add", serde_json::json!({"a": 2, "b": 3})), "5");
//! assert_eq!(call("get_weather", serde_json::json!({"city": "Oslo"})), r#"{"celsius":-3.5}"#);
//!
//! let declared = serde_json::to_value(Anthropic::declare(&tools[1]))?;
//! assert_eq!(declared["name"], "add");
//! assert_eq!(declared["input_schema"]["required"], serde_json::json!(["a", "b"]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod approval;
mod arguments;
mod artifact_reader;
mod async_function;
#[cfg(feature = "macros")]
pub(crate) mod attribute;
mod body;
mod calling;
mod context;
mod definition;
mod function;
mod name;
mod panic;
mod returns;
mod safety;
mod schema;
mod task_support;

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use schemars::Schema;

use crate::budget::Budget;

pub use approval::Approval;
pub use arguments::{Arguments, InvalidArguments};
pub use artifact_reader::ArtifactReader;
#[cfg(feature = "mcp-server")]
pub(crate) use artifact_reader::slice_bounds;
pub(crate) use body::{ArgsOnly, SyncFn};
pub use calling::Calling;
pub use context::{CallContext, CallEvent, LogLevel};
#[cfg(feature = "toolbox")]
pub(crate) use context::{LazyDeadline, Observer, Scope, Values};
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
pub use task_support::TaskSupport;

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

    /// A name for people (MCP's `Tool.title`, shown by clients in place of
    /// the name); by default none.
    fn title(&self) -> Option<&str> {
        None
    }

    /// The schema of the arguments (a JSON object).
    fn input_schema(&self) -> &Schema;

    /// The schema of the JSON of a success (see
    /// [`Mcp::declare`](crate::provider::Provider::declare) for when MCP
    /// can take it as `outputSchema`).
    fn output_schema(&self) -> &Schema;

    /// The schema of all the model reads back: for a typed tool, `anyOf`
    /// the success or `{"error": E}`, where `E` also takes the `ToolError`
    /// of bad arguments and panics. By default the schema that allows any
    /// JSON (`true`), for a tool that does not say.
    fn model_facing_schema(&self) -> &Schema {
        static ANYTHING: LazyLock<Schema> = LazyLock::new(|| Schema::from(true));
        &ANYTHING
    }

    /// What calling the tool does to the world; the default promises
    /// nothing ([`ToolSafety::Destructive`]).
    fn safety(&self) -> ToolSafety {
        ToolSafety::default()
    }

    /// Whether the tool blocks its thread (synchronous I/O, a long
    /// computation): a toolbox then runs it on tokio's blocking pool, where
    /// its timeout can answer the call while the body runs on. By default,
    /// no.
    fn blocks(&self) -> bool {
        false
    }

    /// The timeout of each attempt of a call that the tool asks for:
    /// `Some(Some(limit))`, `Some(None)` for no timeout, or `None` (the
    /// default) for whatever runs it to choose. A toolbox takes it as the
    /// tool's own timeout when it registers the tool, however the tool
    /// comes (`#[tool(timeout = "30s")]` sets it).
    fn timeout(&self) -> Option<Option<Duration>> {
        None
    }

    /// The output budget the tool asks for; by default `None`, whatever
    /// runs it to choose. A toolbox takes it as the tool's own budget when
    /// it registers the tool (`#[tool(budget = ..)]` sets it).
    fn budget(&self) -> Option<Budget> {
        None
    }

    /// Whether a call needs a person's approval before its body runs
    /// ([`Approval`]); by default never. A toolbox takes it as the tool's
    /// own when it registers the tool (`#[tool(approval = ..)]` sets it).
    fn approval(&self) -> Approval {
        Approval::never()
    }

    /// Whether `args` decode into the tool's arguments: the error result
    /// a call with them is answered with when they do not. A toolbox asks
    /// it before a person is asked to approve a call, and of arguments a
    /// person edited. By default every argument is taken (the body judges
    /// them); a typed tool decodes them as its call would.
    ///
    /// ```
    /// use toolresult::tool::{self, Arguments, Tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Args { days: u8 }
    ///
    /// let forecast = tool::function("forecast", "Forecast", |a: Args| a.days.to_string())?;
    /// assert!(forecast.check_arguments(&Arguments::Text(r#"{"days": 3}"#.into())).is_ok());
    /// let refused = forecast.check_arguments(&Arguments::Text(r#"{"days": "x"}"#.into())).unwrap_err();
    /// assert!(refused.result.output.contains("invalid arguments at `days`"));
    /// # Ok::<(), toolresult::tool::InvalidToolName>(())
    /// ```
    ///
    /// # Errors
    /// The arguments do not decode: the bad-arguments result.
    fn check_arguments(&self, args: &Arguments) -> Result<(), crate::Lowered> {
        let _ = args;
        Ok(())
    }

    /// Whether the tool's calls run as tasks, answered at once and read
    /// later (MCP's tasks extension); by default
    /// [`TaskSupport::Forbidden`]. A toolbox takes it as the tool's own
    /// when it registers the tool (`#[tool(task = Optional)]` sets it).
    fn task_support(&self) -> TaskSupport {
        TaskSupport::Forbidden
    }

    /// Calls the tool: the one way to call it. `args` are the model's
    /// arguments as the provider sent them (JSON text, as OpenAI sends it,
    /// or a JSON value; empty text and `null` read as `{}`); `cx` is the
    /// call's [`CallContext`].
    ///
    /// The [`Calling`] future is done at once for a synchronous tool (a
    /// runner can take its answer without polling a future), and never
    /// panics, however it is polled.
    ///
    /// ```
    /// use toolresult::tool::{self, Arguments, CallContext, Tool};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Args { limit: Option<u8> }
    ///
    /// let list = tool::function("list", "List things", |a: Args| a.limit.unwrap_or(10).to_string())?;
    /// let cx = CallContext::new("c1", "list");
    /// let call = |text: &str| pollster::block_on(list.call(&Arguments::Text(text.into()), &cx)).result.output;
    /// assert_eq!(call(r#"{"limit": 3}"#), "3");
    /// assert_eq!(call(""), "10");
    /// assert_eq!(
    ///     call(r#"{"limit": 3"#),
    ///     r#"{"error":{"message":"invalid arguments: the arguments are not JSON: EOF while parsing an object at line 1 column 11","suggestion":"call `list` again with arguments that match its input schema"}}"#
    /// );
    /// # Ok::<(), toolresult::tool::InvalidToolName>(())
    /// ```
    fn call<'a>(&'a self, args: &Arguments, cx: &CallContext<'_>) -> Calling<'a>;
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
            fn title(&self) -> Option<&str> {
                (**self).title()
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
            fn blocks(&self) -> bool {
                (**self).blocks()
            }
            fn timeout(&self) -> Option<Option<Duration>> {
                (**self).timeout()
            }
            fn budget(&self) -> Option<Budget> {
                (**self).budget()
            }
            fn approval(&self) -> Approval {
                (**self).approval()
            }
            fn check_arguments(&self, args: &Arguments) -> Result<(), crate::Lowered> {
                (**self).check_arguments(args)
            }
            fn task_support(&self) -> TaskSupport {
                (**self).task_support()
            }
            fn call<'a>(&'a self, args: &Arguments, cx: &CallContext<'_>) -> Calling<'a> {
                (**self).call(args, cx)
            }
        }
    )*};
}

forward_tool!(Box<T>, Arc<T>, &T);
