//! A tool rendered as the function declaration each provider expects.
//!
//! Each function borrows a [`Tool`](super::Tool) and returns a typed value that
//! serialises to that provider's JSON, keys in the order the provider
//! documents them; the schemas inside keep schemars' order (`type` and
//! `properties` first).
//!
//! | function | provider | shape |
//! |---|---|---|
//! | [`openai_chat`] | OpenAI Chat Completions `tools[]` | `{"type":"function","function":{"name","description","parameters","strict"?}}` |
//! | [`openai_responses`] | OpenAI Responses `tools[]` | `{"type":"function","name","description","parameters","strict"}` |
//! | [`anthropic`] | Anthropic Messages `tools[]` | `{"name","description","input_schema"}` |
//! | [`gemini`], [`gemini_tools`] | Gemini `tools[].functionDeclarations[]` | `{"name","description","parameters"?}` |
//! | [`mcp`] | MCP `tools/list` `tools[]` | `{"name","description","inputSchema","outputSchema"?}` |
//!
//! OpenAI, Anthropic and MCP take the JSON Schema (draft 2020-12) input
//! schema as it is. Gemini takes a subset of OpenAPI 3.0 and refuses the
//! whole request over one unknown keyword, so its `parameters` are
//! converted (see [`gemini`]). OpenAI Responses reads a missing `strict` as
//! `true` and then rewrites the schema, so there `strict` is always written;
//! Chat Completions reads it as `false`, so there it is written only when
//! `true` (see [`openai_responses`], [`openai_chat`]). MCP wants an object `outputSchema`, so it is only
//! declared for a success type that serialises to an object (see [`mcp`]).
//!
//! ```
//! use toolresult::tool::{self, declaration};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Args { city: String }
//!
//! let weather = tool::function("get_weather", "Current weather for a city", |a: Args| a.city);
//! assert_eq!(
//!     serde_json::to_string(&declaration::anthropic(&weather))?,
//!     r#"{"name":"get_weather","description":"Current weather for a city","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}"#
//! );
//! # Ok::<(), serde_json::Error>(())
//! ```

mod anthropic;
mod gemini;
mod gemini_schema;
mod mcp;
mod openai;

pub use anthropic::{AnthropicDeclaration, anthropic};
pub use gemini::{GeminiDeclaration, GeminiTools, gemini, gemini_tools};
pub use mcp::{McpDeclaration, mcp, mcp_structured_content};
pub use openai::{
    OpenAiChatDeclaration, OpenAiResponsesDeclaration, is_strict_compatible, openai_chat,
    openai_responses,
};
