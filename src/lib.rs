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
pub mod lower;
pub mod render;
pub mod retry;
mod typed;

pub use lower::{Diagnostics, IntoFailure, IntoToolResult, Lowered};
pub use typed::{DynToolResult, Failure, ResultExt, ToolError, ToolResult};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
