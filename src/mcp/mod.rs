//! MCP on rmcp: a [`Toolbox`](crate::toolbox::Toolbox) served over MCP
//! (feature `mcp-server`, `McpServer`), and the tools of an MCP server
//! called as this crate's tools (feature `mcp-client`, `McpClient`).
//!
//! The server's calls run by the toolbox's own rules, as an in-process turn
//! does; what MCP adds travels through each call's
//! [`CallContext`](crate::tool::CallContext):
//!
//! | MCP | the tool |
//! |---|---|
//! | `notifications/cancelled`, a client gone | [`CallContext::cancelled`](crate::tool::CallContext::cancelled) completes |
//! | `_meta.progressToken` | [`CallContext::progress`](crate::tool::CallContext::progress) becomes `notifications/progress` |
//! | `logging/setLevel` | [`CallContext::log`](crate::tool::CallContext::log) becomes `notifications/message` at or above the level |
//! | `elicitation/create` | a [`Request`](crate::canonical::Request) the call parks on; [`CallContext::answer`](crate::tool::CallContext::answer) when it runs again |
//!
//! **Elicitation.** A call whose result is pending on a request asks a
//! client that declared the `elicitation` capability, and runs again with
//! the [`Answer`](crate::canonical::Answer):
//!
//! - the question is a URL elicitation when the request has a `url` (an
//!   authorization, a payment: never a bare form, whose `accept` would
//!   grant what the user never saw); else a form whose `requestedSchema` is the
//!   request's `data.requestedSchema` ([`McpServer::REQUESTED_SCHEMA`]), or, without
//!   one, a single text field `input` for a request of kind `input` and no
//!   field (a confirmation) for any other kind; what the request holds
//!   besides (its kind and data, an approval's tool, arguments and
//!   reason, never its seal) goes in the elicitation's `_meta`
//!   ([`McpServer::REQUEST_META`]);
//! - `accept` is a granted answer whose `data` is what the user filled in;
//!   `decline` and `cancel` are declined answers whose `reason` is
//!   [`McpServer::DECLINED`] or [`McpServer::CANCELLED`];
//! - a client without the capability (or without URL mode, for a request
//!   with a `url`), a schema MCP does not allow, or a client that fails to
//!   answer: the call is answered with its pending result (which carries
//!   the `url`), as a turn in process answers it;
//! - a 2026-07-28 request, which has no request from server to client: an
//!   input-required result asking the same question, its state sealed,
//!   when the server holds a key ([`McpServer::input_required`]); without
//!   one, the pending result.
//!
//! ```
//! use serde_json::{Map, json};
//! use toolresult::canonical::Request;
//! use toolresult::mcp::McpServer;
//! use toolresult::tool::{self, CallContext};
//! use toolresult::toolbox::Toolbox;
//! use toolresult::ToolResult;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct NoArgs {}
//!
//! let mut toolbox = Toolbox::new();
//! toolbox.register(tool::function("greet", "Greet the user by name", |_: NoArgs, cx: &CallContext| {
//!     match cx.answer() {
//!         Some(answer) if answer.ok => {
//!             let name = answer.data.as_ref().and_then(|data| data.get("name")).and_then(|n| n.as_str());
//!             ToolResult::<String>::ok(format!("hello, {}", name.unwrap_or("stranger")))
//!         }
//!         Some(answer) => ToolResult::ok(format!("no name ({})", answer.reason.as_deref().unwrap_or(""))),
//!         None => {
//!             let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
//!             ToolResult::pending(
//!                 Request::input("What is your name?")
//!                     .with_data(Map::from_iter([(McpServer::REQUESTED_SCHEMA.to_owned(), schema)])),
//!             )
//!         }
//!     }
//! })?)?;
//! let server = McpServer::new(toolbox)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "mcp-client")]
mod client;
mod increasing;
mod log_level;
#[cfg(feature = "mcp-server")]
mod server;

#[cfg(feature = "mcp-client")]
pub use client::{McpClient, RemoteTool};
#[cfg(feature = "mcp-server")]
pub use server::{McpServer, McpServerError, TaskStore};

/// The `_meta` key under which this crate's server shows what a request
/// holds beyond its prompt and form, and its client reads it
/// (`McpServer::REQUEST_META`).
const REQUEST_META: &str = "toolresult/request";
