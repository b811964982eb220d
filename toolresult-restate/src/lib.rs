//! Durable tool calls for [`toolresult`] on [Restate](https://restate.dev):
//! a turn of tool calls run inside a Restate handler, so a crash does not
//! run a completed tool again, a retry-after of an hour survives a restart,
//! and a call parked for a person's approval waits for days, answered from
//! any process.
//!
//! The toolbox's Rust channel maps onto Restate as it is:
//!
//! | toolbox | on Restate |
//! |---|---|
//! | an attempt of a call | a journaled step (`ctx.run`): the toolbox's [`Attempt`](toolresult::toolbox::Attempt): the canonical result, a summary of the Rust channel (never the source's text), the policy's decision |
//! | a transient failure the policy retries | a durable timer (`ctx.sleep`) for the policy's delay, then the next attempt |
//! | a permanent failure, retries run out | the model-facing error result answers the call; the handler does not fail |
//! | a pending [`Request`](toolresult::canonical::Request) | an awakeable; its id in the request's `data` under [`AWAKEABLE_KEY`], the request sent once to a `notify` hook ([`Parked`]) |
//! | an [`Answer`](toolresult::canonical::Answer) | the awakeable resolved with the answer's JSON, through Restate's ingress, from anywhere; the toolbox resumes the call with it as on any driver |
//! | a [`Turn`](toolresult::toolbox::Turn)'s values, observer and cancellation | the handler's, as in process: attached again each time Restate runs the handler; not journaled |
//!
//! One function does it, [`run_turn`], which takes the calls, or a
//! [`Turn`](toolresult::toolbox::Turn) of them, as
//! [`Toolbox::run`](toolresult::toolbox::Toolbox::run) does; each call's
//! answer is the toolbox's [`CallOutcome`](toolresult::toolbox::CallOutcome),
//! which a provider's `reply` renders:
//!
//! ```no_run
//! use restate_sdk::prelude::*;
//! use toolresult::provider::{Anthropic, PartPolicy, Provider};
//! use toolresult::tool::{self, Approval, ToolSafety};
//! use toolresult::toolbox::Toolbox;
//! use toolresult_restate::{run_turn, Parked};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Deploy {
//!     version: String,
//! }
//!
//! /// Runs once a person approved the call (declared below): the
//! /// approval waits in an awakeable, for days if need be.
//! fn deploy(args: Deploy) -> String {
//!     format!("deployed {}", args.version)
//! }
//!
//! struct Agent {
//!     toolbox: Toolbox,
//! }
//!
//! #[restate_sdk::service]
//! impl Agent {
//!     /// Takes an Anthropic assistant message, returns the user message
//!     /// with a result for every `tool_use`.
//!     #[handler]
//!     async fn turn(
//!         &self,
//!         ctx: Context<'_>,
//!         Json(message): Json<serde_json::Value>,
//!     ) -> HandlerResult<Json<serde_json::Value>> {
//!         let calls = Anthropic::read_calls(&message.to_string()).map_err(TerminalError::from_error)?;
//!         let outcomes = run_turn(&ctx, &self.toolbox, calls, |parked: Parked| async move {
//!             // Tell a person: a chat message, an email, a page. They
//!             // resolve the awakeable with `Answer::approve(&request)` or
//!             // `Answer::reject(&request, "why")` as JSON.
//!             println!("{} -> resolve awakeable {}", parked.request.prompt, parked.awakeable_id());
//!             Ok::<_, HandlerError>(())
//!         })
//!         .await?;
//!         let reply = Anthropic::reply(&outcomes, PartPolicy::Placeholder).map_err(TerminalError::from_error)?;
//!         Ok(Json(serde_json::to_value(reply)?))
//!     }
//! }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let mut toolbox = Toolbox::new();
//!     toolbox.register(
//!         tool::function("deploy", "Deploy a version", deploy)?
//!             .with_safety(ToolSafety::IdempotentDestructive)
//!             .with_approval(Approval::always()),
//!     )?;
//!     HttpServer::new(Endpoint::builder().bind(Agent { toolbox }).build())
//!         .listen_and_serve("127.0.0.1:9080".parse()?)
//!         .await;
//!     Ok(())
//! }
//! ```
//!
//! Register the service with `restate-server` and invoke a turn through its
//! ingress; the crate's `examples/durable_agent.rs` and the "Running on
//! Restate" section of the `toolresult` README show the commands.
//!
//! **MCP tasks on Restate** (feature `mcp-tasks`, which brings the
//! `toolresult` MCP server and rmcp). [`RestateTasks`] is the
//! [`TaskStore`](toolresult::mcp::TaskStore) of an MCP server whose long
//! calls run as tasks: each task's call is an invocation of [`TaskRunner`]
//! (a turn of one call, run by [`run_turn`]) and its record a
//! [`TaskRecords`] virtual object, so any replica of the server answers
//! `tasks/get`, `tasks/update` and `tasks/cancel` for a task another
//! started, and the task outlives the replica that started it
//! (`examples/mcp_tasks.rs`). A call that parks on a request (a person's
//! approval, an input) waits on its awakeable while its task waits for
//! input: the client's response through `tasks/update`, on any replica,
//! resolves the awakeable with its [`Answer`](toolresult::canonical::Answer).
//!
//! **Side effects belong in tools.** Restate runs the handler again from
//! the top after a crash or a suspension and reads journaled steps back:
//! code of the handler outside a step (here: outside the tools and the
//! `notify` hook) runs again each time, so it must be deterministic and
//! free of side effects.
//!
//! **An attempt is at least once.** A journaled attempt never runs again;
//! an attempt the process died in (its result not yet journaled) does,
//! like any retry: the tool's
//! [`ToolSafety`](toolresult::tool::ToolSafety) says whether that is
//! harmless.
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

mod parked;
#[cfg(feature = "mcp-tasks")]
mod tasks;
mod turn;

pub use parked::{AWAKEABLE_KEY, Parked};
#[cfg(feature = "mcp-tasks")]
pub use tasks::{RestateTasks, TaskRecords, TaskRunner};
pub use turn::run_turn;
