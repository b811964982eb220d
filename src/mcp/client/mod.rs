//! The client: an MCP server's tools, called as this crate's tools
//! ([`McpClient`], [`RemoteTool`]). The client and its tools share one
//! [`Connection`](connection::Connection), below both.

mod connection;
mod mcp_client;
mod progress;
mod remote;

pub use mcp_client::McpClient;
pub use remote::RemoteTool;
