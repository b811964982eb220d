//! The server: a toolbox served over MCP ([`McpServer`]), one session per
//! client, each `tools/call` run by the toolbox as a turn of one call.

mod call;
mod elicit;
mod error;
mod events;
mod http;
mod level;
mod list;
mod mcp_server;
mod params;
mod progress_tokens;
mod session;

pub use error::{DeclarationError, ServeError};
pub use mcp_server::McpServer;
