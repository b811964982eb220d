//! The toolbox: a model's turn of tool calls in, every call answered exactly
//! once, the provider's reply out.
//!
//! ```text
//! provider JSON ──read_calls──► [Call] ──Toolbox::run──► [CallOutcome] ──reply──► provider JSON
//! ```
//!
//! A [`Toolbox`] holds tools by name. [`Toolbox::run`] runs the calls of one
//! assistant turn on tokio:
//!
//! - concurrently, up to a limit ([`Toolbox::concurrency`]; 1 runs them one
//!   after another);
//! - each attempt under its timeout: a call that does not finish is dropped
//!   and answered with a transient failure whose source is [`TimedOut`];
//! - retried when the [`RetryPolicy`](crate::retry::RetryPolicy) says so,
//!   reading the Rust channel and the tool's
//!   [`ToolSafety`](crate::tool::ToolSafety): never a cancellation, never a
//!   tool whose repeat call is not harmless unless the policy opts in;
//! - a panic, in a sync or an async tool, is a safe error result; bad
//!   arguments are an error result naming the field; an unknown tool name
//!   is an error result listing the tools there are ([`UnknownTool`]);
//! - a turn cancelled ([`Turn::with_cancellation`]) drops the calls still
//!   running and answers them, and those not started, as cancelled;
//! - a turn read from a provider's stream ([`Toolbox::run_stream`]) may
//!   start a call whose repeat is harmless the moment it is whole
//!   ([`Toolbox::start_early`]), the rest when the message ends.
//!
//! Each attempt hands its tool a [`CallContext`](crate::tool::CallContext):
//! the call's id, the attempt, the deadline, a cancellation signal (fired
//! by the turn's cancellation and by the timeout), progress and log events
//! for the turn's observer, the answer of a resumed call, and the values
//! the turn and the toolbox attach.
//!
//! **Every call gets exactly one answer, in call order, under its own id**,
//! whatever the tools did. A call that suspends (a pending
//! [`Request`](crate::canonical::Request)) is answered with the suspension;
//! once an [`Answer`](crate::canonical::Answer) comes, a turn with the call
//! resumed ([`Turn::resume`]) runs it again and the tool reads the answer
//! from its context.
//!
//! A call that needs a person's approval (declared on the tool or its
//! registration: [`Approval`](crate::tool::Approval)) is parked before its
//! body runs, on a request of kind
//! [`APPROVAL`](crate::canonical::Request::APPROVAL) showing the tool, the
//! arguments and why; its arguments are checked first. The decision is an
//! answer: [`Answer::approve`](crate::canonical::Answer::approve), with
//! edited arguments, always for the rest of the turn, or
//! [`reject`](crate::canonical::Answer::reject) with a message the model
//! reads. [`Toolbox::seal_requests`] seals every request a call parks on,
//! an approval or its body's own, and refuses answers made up, changed or
//! for another call (an approval's, replayed) before the body runs.
//!
//! A synchronous tool runs inside the turn's task unless it
//! [blocks](crate::tool::Tool::blocks) its thread, which runs it on tokio's
//! blocking pool, where its timeout can answer the call; no thread is
//! spawned per call otherwise. The same loop runs a turn on a durable
//! engine through a [`Driver`] ([`Toolbox::run_on`]).
//!
//! With the `tracing` feature each call runs in a span named
//! `execute_tool {gen_ai.tool.name}` (OpenTelemetry's GenAI conventions:
//! `gen_ai.operation.name = execute_tool`, `gen_ai.tool.name`,
//! `gen_ai.tool.call.id`, `gen_ai.tool.type = function`, and on failure
//! `error.type`, the source's type name, never its text), with an event per
//! retry and per approval asked and decided (`approval.decision`: which
//! decision, never the arguments or a message).
//!
//! ```
//! use toolresult::provider::{Anthropic, PartPolicy, Provider};
//! use toolresult::tool::{self, ToolSafety};
//! use toolresult::toolbox::Toolbox;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct City { city: String }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
//! let mut toolbox = Toolbox::new();
//! toolbox.register(
//!     tool::function("weather", "Weather in a city", |c: City| format!("sunny in {}", c.city))?
//!         .with_safety(ToolSafety::ReadOnly),
//! )?;
//!
//! let assistant = r#"{"role":"assistant","content":[
//!     {"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Oslo"}},
//!     {"type":"tool_use","id":"toolu_2","name":"forecast","input":{}}]}"#;
//! let calls = Anthropic::read_calls(assistant)?;
//! let outcomes = toolbox.run(calls).await;
//! let reply = Anthropic::reply(&outcomes, PartPolicy::Placeholder)?;
//! assert_eq!(
//!     serde_json::to_string(&reply)?,
//!     r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny in Oslo"},{"type":"tool_result","tool_use_id":"toolu_2","content":"{\"error\":{\"message\":\"there is no tool named `forecast`\",\"suggestion\":\"call one of: `weather`\"}}","is_error":true}]}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod answers;
mod approval;
mod attempt;
mod driver;
mod errors;
mod outcome;
mod registry;
mod run;
mod sealing;
#[cfg(feature = "tracing")]
mod span;
mod streamed_turn;
mod turn;

pub use driver::Driver;
pub use errors::{RegisterError, TimedOut, UnknownTool};
pub use outcome::{Attempt, CallOutcome};
pub use registry::{ToolOptions, Toolbox};
pub use turn::{ResumeError, Turn};
