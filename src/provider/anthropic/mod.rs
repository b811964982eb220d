//! Anthropic Messages: declaring tools and rendering their answers.

mod declare;
mod render;

pub use declare::{AnthropicDeclaration, declare};
pub use render::{ToolResultBlock, render};
