//! The typed, two-channel result a tool function returns.

mod context;
mod failure;
mod result;
mod tool_error;
mod view;

pub use context::ResultExt;
pub use failure::Failure;
pub(crate) use failure::RustChannel;
pub use result::ToolResult;
pub use tool_error::ToolError;
pub use view::DynToolResult;
