//! The providers' dialects: reading the calls of a turn, declaring tools,
//! and rendering answers, for OpenAI Chat Completions ([`OpenAiChat`]),
//! OpenAI Responses ([`OpenAiResponses`]), Anthropic Messages
//! ([`Anthropic`]), Gemini ([`Gemini`]) and MCP ([`Mcp`]).
//!
//! Each provider fills in one trait, [`Provider`], with the same verbs:
//!
//! - `read_calls(&str)`: the calls of one assistant turn, from the
//!   provider's own JSON, as [`Call`]s (a malformed message is a
//!   [`ReadCallsError`] naming the path and the value);
//! - `declare(&tool)` and `declare_tools(&tools)`: the function
//!   declarations the provider expects;
//! - `render(&answer, policy)`: one answered call, from anything
//!   [`Answered`] (a [`CallRef`] with its result, or a toolbox's outcome);
//! - `reply(&answers, policy)`: the message(s) answering a whole turn, in
//!   call order.
//!
//! Rendering borrows: text is never copied and inline bytes are
//! base64-encoded straight into the output when the value is serialised. A
//! part a style cannot carry becomes the text
//! `[unsupported <type> part (<mime>, <n> bytes)]` under
//! [`PartPolicy::Placeholder`], or a [`RenderError`] under
//! [`PartPolicy::Strict`]; no part is ever dropped.
//!
//! Two cargo features add conversions to other crates' models: `rmcp`
//! (rmcp's `IntoCallToolResult` for the lowered, canonical and typed
//! results, written with the bytes [`Mcp::render`](Provider::render)
//! writes, and `TryFrom` of MCP's declaration for `rmcp::model::Tool`; an
//! rmcp result reads back through [`Mcp::read_result`], from its JSON) and `toolnexus`
//! (`From<&ToolResult>` for `toolnexus::ToolResult`, `TryFrom` back).
//! Reading a foreign result fails with a [`ConvertError`].
//!
//! ```
//! use toolresult::canonical::{ContentPart, PartLimit, ToolResult};
//! use toolresult::provider::{Anthropic, CallRef, PartPolicy, Provider};
//!
//! let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())?;
//! let shot = ToolResult::ok(png.describe()).with_parts([png]);
//! let call = CallRef::new("toolu_1", "screenshot");
//! let answer = (call, &shot);
//! let block = Anthropic::render(&answer, PartPolicy::Placeholder)?;
//! let json = serde_json::to_value(&block)?;
//! assert_eq!(json["content"][1]["type"], "image");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answered;
mod anthropic;
mod calls;
mod convert_error;
mod encode;
mod error;
mod gemini;
pub(crate) mod mcp;
mod openai_chat;
mod openai_responses;
mod policy;
mod shape;
pub(crate) mod stream;
mod strict;
#[cfg(feature = "toolnexus")]
mod toolnexus;

pub use answered::Answered;
pub use anthropic::Anthropic;
pub use calls::{Call, ReadCallsError};
pub use convert_error::ConvertError;
pub use error::RenderError;
pub use gemini::Gemini;
pub use mcp::Mcp;
pub use openai_chat::OpenAiChat;
pub use openai_responses::OpenAiResponses;
pub use policy::PartPolicy;
pub use shape::Provider;
pub use stream::{CallStream, StreamEnd, Streamed};

/// A reference to the call a result answers: the provider's call id and
/// the tool's name, borrowed (where [`Call`] owns them and the arguments).
///
/// Styles use what they need: OpenAI and Anthropic the id, Gemini the name
/// (and the id, when there is one), the OpenAI relocation label both.
///
/// ```
/// use toolresult::provider::CallRef;
/// let call = CallRef::new("call_1", "lookup");
/// assert_eq!((call.id, call.name), ("call_1", "lookup"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct CallRef<'a> {
    /// The provider's id for the call (`tool_call_id`, `call_id`, `tool_use_id`).
    pub id: &'a str,
    /// The name of the tool that was called.
    pub name: &'a str,
}

impl<'a> CallRef<'a> {
    /// A call with this id and tool name.
    #[must_use]
    pub const fn new(id: &'a str, name: &'a str) -> Self {
        Self { id, name }
    }
}
