//! Anthropic Messages: declaring tools and rendering their answers.

mod calls;
mod declare;
mod render;

pub use calls::read_calls;
pub use declare::{AnthropicDeclaration, declare, declare_tools};
pub use render::{AnthropicReply, ToolResultBlock, render, reply};
