//! The client: an MCP server's tools, called as this crate's tools
//! ([`McpClient`], [`RemoteTool`]). The client and its tools share one
//! [`Connection`](connection::Connection), below both.

mod call;
mod connection;
mod flight;
mod legacy;
mod mcp_client;
mod parked;
mod question;
mod read;
mod remote;
mod routes;
mod tap;
mod task;

pub use mcp_client::McpClient;
pub use remote::RemoteTool;
