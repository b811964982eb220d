//! `toolresult`: the result type for LLM tools, from a typed Rust function
//! to the provider's next message.
//!
//! A tool author writes a function of typed arguments returning
//! [`ToolResult<T, E>`]. It has two channels: the model sees the JSON of `T`
//! or `{"error": E}` (and any images or files); Rust sees the source error
//! with its whole chain, a transient hint and a retry-after
//! ([`Diagnostics`]). Lowering turns it into the [`canonical::ToolResult`]
//! of the Toolnexus shared contract, which transcripts, provider requests
//! and MCP carry; the source error never reaches the model.
//!
//! The tour below follows one call through each stage.
//!
//! # 1. A typed tool
//!
//! `#[tool]` makes a [`Tool`] of a plain function: the name, the
//! description and each argument's from the doc comment, the schemas from
//! the Rust types. It says what the tool does to the world
//! ([`tool::ToolSafety`]), which retries and MCP read. A tool that needs its
//! call (id, attempt, deadline, cancellation, progress, the answer of a
//! resumed call, its caller's values) takes a [`tool::CallContext`].
//! [`tool::function`] makes the same from a closure.
//!
//! ```
//! use toolresult::tool;
//! use toolresult::tool::{CallContext, Tool, ToolSafety};
//! use toolresult::{Failure, ToolError};
//!
//! /// Look a config key up.
//! ///
//! /// # Arguments
//! /// * `key` - the key, e.g. `region`
//! #[tool(safety = ReadOnly)]
//! fn lookup(key: String, cx: &CallContext) -> Result<String, Failure> {
//!     match key.as_str() {
//!         "region" => Ok(format!("eu-west-1 (attempt {})", cx.attempt())),
//!         other => Err(Failure::new(ToolError::new(format!("no such key: {other}")))),
//!     }
//! }
//!
//! let made = lookup::tool();
//! assert_eq!(made.name(), "lookup");
//! assert_eq!(made.safety(), ToolSafety::ReadOnly);
//! assert_eq!(made.input_schema().as_value()["required"], serde_json::json!(["key"]));
//! ```
//!
//! # 2. A call, lowered: two channels
//!
//! A call decodes the model's arguments (a bad one is an error result the
//! model can act on), runs the body (a panic is a safe error result) and
//! lowers what it returns ([`IntoToolResult`]): the canonical result for the
//! model, [`Diagnostics`] for Rust.
//!
//! ```
//! use toolresult::{Failure, IntoToolResult, ToolError, ToolResult};
//!
//! fn read_config(path: &str) -> Result<String, Failure> {
//!     Ok(std::fs::read_to_string(path)?) // `?` on any error: an unexpected failure
//! }
//!
//! let lowered = read_config("/no/such/config").lower();
//! assert_eq!(
//!     lowered.result.output,
//!     r#"{"error":{"message":"the tool failed with an unexpected error (std::io::Error, kind NotFound)"}}"#
//! );
//! assert!(lowered.result.is_error);
//! // Rust keeps the io::Error, for retries and logs; the model never sees its text.
//! assert!(lowered.diagnostics.source().unwrap().is::<std::io::Error>());
//!
//! let typed = ToolResult::<u32>::fail(Failure::new(ToolError::new("busy")).transient());
//! assert_eq!(typed.lower().diagnostics.is_transient(), Some(true));
//! ```
//!
//! # 3. Retrying from the Rust channel
//!
//! [`retry::RetryPolicy::decide`] reads the hint, the source chain and the
//! tool's safety; never text.
//!
//! ```
//! use std::time::Duration;
//! use toolresult::retry::{Backoff, Decision, RetryPolicy};
//! use toolresult::tool::ToolSafety;
//! use toolresult::{Failure, IntoToolResult, ToolError, ToolResult};
//!
//! let policy = RetryPolicy::new().backoff(Backoff::constant(Duration::from_millis(100)));
//! let lowered = ToolResult::<u8>::fail(Failure::new(ToolError::new("busy")).transient()).lower();
//! assert_eq!(policy.decide(ToolSafety::ReadOnly, &lowered, 1), Decision::Retry(Duration::from_millis(100)));
//! // A tool that may repeat its side effects is not retried.
//! assert!(!policy.decide(ToolSafety::Additive, &lowered, 1).is_retry());
//! ```
//!
//! # 4. A turn: the toolbox
//!
//! [`toolbox::Toolbox`] is the one path from a provider's turn of calls to
//! its next message: tools by name, calls run concurrently on tokio under
//! their timeouts, retried by the policy and the tool's safety, panics
//! caught, every call answered exactly once, in call order, under its id.
//! A [`toolbox::Turn`] carries what the caller gives the calls (values, an
//! observer of their progress, a cancellation token, answers of parked
//! calls); a [`toolbox::Driver`] runs the same loop on a durable engine.
//! A streamed message is read as it comes ([`provider::CallStream`]), and
//! [`Toolbox::run_stream`](toolbox::Toolbox::run_stream) starts a call
//! whose tool allows it the moment the call is whole. What leaves the
//! process and comes back (an MCP request state) is sealed with a
//! `seal::Keyring` (feature `seal`, on with `mcp-server`).
//!
//! ```
//! use toolresult::provider::{OpenAiChat, PartPolicy, Provider};
//! use toolresult::tool;
//! use toolresult::toolbox::Toolbox;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Add { a: i64, b: i64 }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
//! let mut toolbox = Toolbox::new();
//! toolbox.register(tool::function("add", "Add two integers", |x: Add| (x.a + x.b).to_string())?)?;
//!
//! let message = r#"{"role":"assistant","content":null,"tool_calls":[
//!     {"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":2,\"b\":40}"}}]}"#;
//! let outcomes = toolbox.run(OpenAiChat::read_calls(message)?).await;
//! assert_eq!(
//!     serde_json::to_string(&OpenAiChat::reply(&outcomes, PartPolicy::Strict)?)?,
//!     r#"[{"role":"tool","tool_call_id":"call_1","content":"42"}]"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # 5. The provider's message
//!
//! [`provider`] reads each provider's calls, declares tools and renders
//! results for OpenAI (Chat Completions and Responses), Anthropic, Gemini and
//! MCP, a block at a time or a whole turn (`reply`). MCP's
//! `structuredContent` is proposed at lowering
//! ([`Lowered::structured_content`]: the JSON object of a typed success)
//! and can be taken away after it: a budget withholds it when the value
//! it cut no longer matches the tool's output schema
//! ([`Lowered::structured_content_withheld`]). MCP's own rule then holds
//! on every MCP path alike (`Mcp::render`, `Mcp::reply`, the `rmcp`
//! conversions, the server): a success that promised a `structuredContent`
//! it cannot send goes as an error result, its text saying what was cut.
//!
//! ```
//! use toolresult::provider::{Anthropic, CallRef, Mcp, PartPolicy, Provider};
//! use toolresult::{IntoToolResult, ToolResult};
//!
//! #[derive(serde::Serialize)]
//! struct Weather { city: &'static str, celsius: f32 }
//!
//! let lowered = ToolResult::<_>::ok(Weather { city: "Oslo", celsius: -3.5 }).lower();
//! let answer = (CallRef::new("toolu_1", "weather"), &lowered.result);
//! let block = Anthropic::render(&answer, PartPolicy::Strict)?;
//! assert_eq!(
//!     serde_json::to_string(&block)?,
//!     r#"{"type":"tool_result","tool_use_id":"toolu_1","content":"{\"city\":\"Oslo\",\"celsius\":-3.5}"}"#
//! );
//! let answer = serde_json::to_value(Mcp::render(&(CallRef::new("7", "weather"), &lowered), PartPolicy::Strict)?)?;
//! assert_eq!(answer["structuredContent"]["celsius"], -3.5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # 6. The canonical result: text, parts, suspension
//!
//! [`canonical::ToolResult`] is `{output, isError, parts?, metadata?}`,
//! byte for byte the shared contract. [`canonical::ContentPart`] carries an
//! image, a file or audio, read under a [`canonical::PartLimit`]; a
//! [`canonical::Request`] parks a call until an [`canonical::Answer`] comes.
//!
//! ```
//! use toolresult::canonical::{ContentPart, PartLimit, Request, ToolResult};
//!
//! let found = ToolResult::ok("eu-west-1");
//! assert_eq!(serde_json::to_string(&found)?, r#"{"output":"eu-west-1","isError":false}"#);
//!
//! let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())?;
//! let shot = ToolResult::ok(png.describe()).with_parts([png]);
//! assert_eq!(shot.output, "image (image/png, 82 bytes)");
//!
//! let parked = ToolResult::pending(Request::input("Deploy to production?"));
//! let back: ToolResult = serde_json::from_str(&serde_json::to_string(&parked)?)?;
//! assert_eq!(back.pending_request().unwrap().prompt, "Deploy to production?");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # 7. Output budgets
//!
//! A [`budget::Budget`] caps what the model is handed, per toolbox or per
//! tool: text keeps its head and tail around a marker line, the JSON of a
//! typed value is elided inside the JSON so it still parses (and keeps the
//! tool's output schema, or MCP's `structuredContent` is withheld), parts
//! over budget are named by a line each. The whole is kept as an artifact
//! that the [`tool::ArtifactReader`] tool reads back in slices.
//!
//! ```
//! use toolresult::budget::{Budget, MemoryStore};
//! use toolresult::{IntoToolResult, ToolResult};
//!
//! let rows: Vec<u32> = (0..40_000).collect();
//! let cut = Budget::new().output_bytes(1024).apply(ToolResult::<_>::ok(rows).lower(), None, &MemoryStore::new());
//! assert!(cut.result.output.len() <= 1024);
//! let kept: Vec<u32> = serde_json::from_str(&cut.result.output)?; // still JSON
//! assert_eq!(kept[..2], [0, 1]);
//! assert_eq!(cut.result.parts[0].url().map(|url| &url[..15]), Some("artifact://art_"));
//! # Ok::<(), serde_json::Error>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod budget;
pub mod canonical;
mod chain;
#[cfg(any(feature = "mcp-server", feature = "mcp-client"))]
pub mod mcp;
pub mod provider;
pub mod retry;
#[cfg(feature = "seal")]
pub mod seal;
pub mod tool;
#[cfg(feature = "toolbox")]
pub mod toolbox;
mod typed;

pub use tool::Tool;
#[cfg(feature = "macros")]
pub use toolresult_macros::tool;

#[cfg(feature = "macros")]
#[doc(hidden)]
pub mod __private;
pub use typed::{
    Diagnostics, Failure, IntoToolResult, Lowered, ResultExt, ToolError, ToolResult,
    UnexpectedError,
};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
