//! OpenAI Responses: declaring tools and rendering their answers.

mod declare;
mod render;

pub use declare::{OpenAiResponsesDeclaration, declare};
pub use render::{FunctionCallOutput, render};
