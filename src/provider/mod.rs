//! Provider renderings of a canonical result: what each model API expects
//! in place of a tool's answer.
//!
//! One module per style, each a function from a borrowed
//! [`canonical::ToolResult`](crate::canonical::ToolResult) to a typed value
//! that serialises to that provider's JSON. Rendering borrows: text is never
//! copied and inline bytes are base64-encoded straight into the output when
//! the value is serialised, never held as a second copy.
//!
//! - [`openai_chat`]: Chat Completions `tool` messages, with non-text parts
//!   moved into one `user` message after the turn's tool messages.
//! - [`openai_responses`]: a Responses `function_call_output` item.
//! - [`anthropic`]: a Messages `tool_result` block.
//! - [`gemini`]: a `functionResponse` part and the media parts after it.
//! - [`mcp`]: an MCP `CallToolResult`, and reading one back.
//!
//! A part a style cannot carry becomes the text
//! `[unsupported <type> part (<mime>, <n> bytes)]` under
//! [`PartPolicy::Placeholder`], or a [`RenderError`] under
//! [`PartPolicy::Strict`]; no part is ever dropped.
//!
//! Two cargo features add conversions to other crates' models: `rmcp`
//! (`From<&ToolResult>` for `rmcp::model::CallToolResult`, `TryFrom` back,
//! `mcp::to_rmcp`, and rmcp's `IntoCallToolResult` for the typed result, so
//! an rmcp server tool can return it) and `toolnexus` (`From<&ToolResult>` for
//! `toolnexus::ToolResult`, `TryFrom` back). Reading a foreign result fails
//! with a [`ConvertError`].
//!
//! ```
//! use toolresult::canonical::{ContentPart, ToolResult};
//! use toolresult::provider::{anthropic, PartPolicy, ToolCall};
//!
//! let png = ContentPart::from_path("tests/fixtures/fixture.png")?;
//! let shot = ToolResult::ok(png.describe()).with_parts([png]);
//! let call = ToolCall::new("toolu_1", "screenshot");
//! let block = anthropic::render(call, &shot, PartPolicy::Placeholder)?;
//! let json = serde_json::to_value(&block)?;
//! assert_eq!(json["content"][1]["type"], "image");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answered;
pub mod anthropic;
mod calls;
mod convert_error;
mod encode;
mod error;
pub mod gemini;
pub mod mcp;
pub mod openai_chat;
pub mod openai_responses;
mod policy;
mod strict;
#[cfg(feature = "toolnexus")]
mod toolnexus;

pub use answered::Answered;
pub use calls::{Arguments, Call, ReadCallsError};
pub use convert_error::ConvertError;
pub use error::RenderError;
pub use policy::PartPolicy;

/// The call a result answers: the provider's call id and the tool's name.
///
/// Styles use what they need: OpenAI and Anthropic the id, Gemini the name
/// (and the id, when there is one), the OpenAI relocation label both.
///
/// ```
/// use toolresult::provider::ToolCall;
/// let call = ToolCall::new("call_1", "lookup");
/// assert_eq!((call.id, call.name), ("call_1", "lookup"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ToolCall<'a> {
    /// The provider's id for the call (`tool_call_id`, `call_id`, `tool_use_id`).
    pub id: &'a str,
    /// The name of the tool that was called.
    pub name: &'a str,
}

impl<'a> ToolCall<'a> {
    /// A call with this id and tool name.
    #[must_use]
    pub const fn new(id: &'a str, name: &'a str) -> Self {
        Self { id, name }
    }
}
