//! OpenAI Responses: declaring tools and rendering their answers.

mod calls;
mod declare;
mod render;

pub use calls::read_calls;
pub use declare::{OpenAiResponsesDeclaration, declare, declare_tools};
pub use render::{FunctionCallOutput, render, reply};
