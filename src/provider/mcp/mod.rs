//! MCP: declaring tools, rendering a `CallToolResult` and reading one back.

mod calls;
mod declare;
mod read;
mod render;
#[cfg(feature = "rmcp")]
mod rmcp;

pub use calls::read_calls;
pub use declare::{McpDeclaration, declare, declare_tools};
pub use read::{from_slice, from_str, from_value};
pub use render::{CallToolResult, render, reply};
