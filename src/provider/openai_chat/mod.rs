//! OpenAI Chat Completions: declaring tools and rendering their answers.

mod calls;
mod declare;
mod render;

pub use crate::provider::strict::is_strict_compatible;
pub use calls::read_calls;
pub use declare::{OpenAiChatDeclaration, declare, declare_tools};
pub use render::{ChatMessage, reply};
