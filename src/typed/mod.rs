//! The typed, two-channel result a tool function returns, and its lowering
//! into the canonical result.

mod diagnostics;
mod failure;
mod json;
mod lower;
mod result;
mod result_ext;
mod tool_error;
mod unexpected;

pub use diagnostics::Diagnostics;
pub use failure::Failure;
pub use lower::{IntoToolResult, Lowered};
pub use result::ToolResult;
pub use result_ext::ResultExt;
pub use tool_error::ToolError;
pub use unexpected::UnexpectedError;
