//! A durable agent's tool turn on Restate: a service whose handler takes an
//! Anthropic assistant message, runs its tool calls durably and returns the
//! user message that answers them.
//!
//! Two tools: `get_weather`, whose service drops the first connection (a
//! transient failure, retried after a durable timer), and `deploy`, which
//! needs a person's approval before its body runs (a Restate awakeable).
//! The approval request is printed with the `curl` command that answers
//! it.
//!
//! Run with `cargo run -p toolresult-restate --example durable_agent`
//! (listens on 127.0.0.1:9080, or the address given as the first
//! argument), register it with a `restate-server` and invoke `Agent/turn`:
//! the "Running on Restate" section of the README has the commands.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use restate_sdk::prelude::*;
use serde_json::Value;
use toolresult::provider::{Anthropic, PartPolicy, Provider};
use toolresult::retry::{Backoff, RetryPolicy};
use toolresult::tool::{self, Approval, ToolSafety};
use toolresult::toolbox::Toolbox;
use toolresult::{Failure, ToolError, ToolResult};
use toolresult_restate::{Parked, run_turn};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    /// The city, in English.
    city: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Deploy {
    /// The version to deploy.
    version: String,
}

/// The weather service drops every first connection of this process.
fn get_weather(args: City) -> ToolResult<String> {
    static CALLS: AtomicU32 = AtomicU32::new(0);
    if CALLS.fetch_add(1, Ordering::SeqCst) == 0 {
        let reset = std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "weather.internal:8443 reset the connection",
        );
        return ToolResult::fail(
            Failure::new(ToolError::new("the weather service dropped the connection"))
                .with_source(reset),
        );
    }
    ToolResult::ok(format!("-3.5 °C and snowing in {}", args.city))
}

/// Runs once a person approved the call (declared where it is
/// registered): the call waits in an awakeable until then.
fn deploy(args: Deploy) -> String {
    format!("deployed {}", args.version)
}

/// Where a person is told of an approval to give: here, this process's
/// output, with the arguments and the command that answers it.
async fn ask(parked: Parked) -> Result<(), HandlerError> {
    let arguments = parked
        .request
        .data
        .as_ref()
        .and_then(|data| data.get("arguments"))
        .map(Value::to_string)
        .unwrap_or_default();
    println!(
        "approval needed: {}\n  arguments: {arguments}\n  answer:  curl -X POST http://127.0.0.1:8080/restate/awakeables/{}/resolve \
         -H 'content-type: application/json' -d '{{\"id\":\"{}\",\"ok\":true}}'",
        parked.request.prompt,
        parked.awakeable_id(),
        parked.request.id,
    );
    Ok(())
}

struct Agent {
    toolbox: Toolbox,
}

#[restate_sdk::service]
impl Agent {
    /// Takes an Anthropic assistant message; returns the user message with
    /// a `tool_result` for each of its `tool_use` blocks.
    #[handler]
    async fn turn(
        &self,
        ctx: Context<'_>,
        Json(message): Json<Value>,
    ) -> HandlerResult<Json<Value>> {
        let calls =
            Anthropic::read_calls(&message.to_string()).map_err(TerminalError::from_error)?;
        let outcomes = run_turn(&ctx, &self.toolbox, calls, ask).await?;
        let reply = Anthropic::reply(&outcomes, PartPolicy::Placeholder)
            .map_err(TerminalError::from_error)?;
        Ok(Json(serde_json::to_value(reply)?))
    }
}

fn toolbox() -> Result<Toolbox, Box<dyn std::error::Error>> {
    let retry = RetryPolicy::new()
        .max_attempts(3)
        .backoff(Backoff::constant(Duration::from_secs(2)));
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(30)).retry(retry);
    toolbox.register(
        tool::function("get_weather", "Current weather for a city", get_weather)?
            .with_safety(ToolSafety::ReadOnly),
    )?;
    toolbox.register(
        tool::function("deploy", "Deploy a version to production", deploy)?
            .with_safety(ToolSafety::IdempotentDestructive)
            .with_approval(Approval::always()),
    )?;
    Ok(toolbox)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:9080".to_owned())
        .parse()?;
    println!("serving Agent on {addr}");
    HttpServer::new(
        Endpoint::builder()
            .bind(Agent {
                toolbox: toolbox()?,
            })
            .build(),
    )
    .listen_and_serve(addr)
    .await;
    Ok(())
}
