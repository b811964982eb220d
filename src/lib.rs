//! `toolresult`: the result type for LLM tools.
//!
//! A tool returns text the model reads, maybe an image or a file, and
//! whether it failed. This crate gives that a wire model that matches the
//! Toolnexus shared contract to the byte.
//!
//! # The canonical result
//!
//! [`canonical::ToolResult`] is what transcripts, provider requests and MCP
//! carry: `{output, isError, parts?, metadata?}`.
//!
//! ```
//! use toolresult::canonical::{ContentPart, ToolResult};
//!
//! let found = ToolResult::ok("eu-west-1");
//! assert_eq!(serde_json::to_string(&found)?, r#"{"output":"eu-west-1","isError":false}"#);
//!
//! let png = ContentPart::from_path("tests/fixtures/fixture.png")?;
//! let shot = ToolResult::ok_with_parts(png.describe(), vec![png]);
//! assert_eq!(shot.output, "image (image/png, 82 bytes)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Typed tools
//!
//! [`tool::function`] (and [`tool::async_function`]) turns a function of
//! typed, serde-decoded arguments into an object-safe [`Tool`]: its schemas
//! come from the Rust types (schemars, draft 2020-12), a bad argument or a
//! panic becomes an error result the model can act on, and
//! [`tool::declaration`] renders it for OpenAI, Anthropic, Gemini and MCP.
//!
//! ```
//! use toolresult::tool::{self, Tool, declaration};
//! use toolresult::ToolError;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct AddArgs { a: i64, b: i64 }
//!
//! let add = tool::function("add", "Add two integers", |args: AddArgs| {
//!     args.a.checked_add(args.b).ok_or(ToolError::new("the sum overflows"))
//! });
//! let lowered = add.call_blocking(serde_json::json!({"a": 2, "b": 40})).unwrap();
//! assert_eq!(lowered.result.output, "42");
//!
//! let lowered = add.call_blocking(serde_json::json!({"a": 2})).unwrap();
//! assert_eq!(
//!     lowered.result.output,
//!     r#"{"error":{"message":"invalid arguments: missing field `b`","suggestion":"call `add` again with arguments that match its input schema"}}"#
//! );
//!
//! let declared = serde_json::to_string(&declaration::anthropic(&add))?;
//! assert!(declared.starts_with(r#"{"name":"add","description":"Add two integers","input_schema":{"type":"object""#));
//! # Ok::<(), serde_json::Error>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod canonical;
mod chain;
pub mod lower;
pub mod render;
pub mod retry;
pub mod tool;
mod typed;

pub use lower::{Diagnostics, IntoFailure, IntoToolResult, Lowered};
pub use tool::{Tool, async_function, function};
pub use typed::{DynToolResult, Failure, ResultExt, ToolError, ToolResult};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
