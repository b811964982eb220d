//! The typed, two-channel result a tool function returns, and its lowering
//! into the canonical result.

mod context;
mod diagnostics;
mod failure;
mod json;
mod lower;
mod result;
mod tool_error;
mod unexpected;

pub use context::ResultExt;
pub use diagnostics::Diagnostics;
pub use failure::Failure;
pub use lower::{IntoToolResult, Lowered};
pub use result::ToolResult;
pub use tool_error::ToolError;
pub use unexpected::UnexpectedError;
