//! The server: a toolbox served over MCP ([`McpServer`]), one session per
//! 2025 client and none for a 2026-07-28 request, each `tools/call` run by
//! the toolbox as a turn of one call.

mod artifacts;
mod call;
mod compose;
mod elicit;
mod error;
mod events;
mod http;
mod input_required;
mod level;
mod list;
mod mcp_server;
mod params;
mod progress_tokens;
mod session;
mod stateless;
mod tasks;

pub use error::McpServerError;
pub use mcp_server::McpServer;
pub use tasks::TaskStore;
