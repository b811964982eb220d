//! Gemini: declaring tools and rendering their answers.

mod calls;
mod declare;
mod render;
mod schema;

pub use calls::read_calls;
pub use declare::{GeminiDeclaration, GeminiTools, declare, declare_tools};
pub use render::{GeminiPart, GeminiReply, render, reply};
