//! MCP: declaring tools, rendering a `CallToolResult` and reading one back.

mod declare;
mod read;
mod render;
#[cfg(feature = "rmcp")]
mod rmcp;

pub use declare::{McpDeclaration, declare};
pub use read::from_value;
pub use render::{CallToolResult, render};
