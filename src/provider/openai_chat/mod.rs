//! OpenAI Chat Completions: declaring tools and rendering their answers.

mod declare;
mod render;

pub use crate::provider::strict::is_strict_compatible;
pub use declare::{OpenAiChatDeclaration, declare};
pub use render::{ChatMessage, render};
