//! Gemini: declaring tools and rendering their answers.

mod declare;
mod render;
mod schema;

pub use declare::{GeminiDeclaration, GeminiTools, declare, declare_tools};
pub use render::{GeminiPart, render};
