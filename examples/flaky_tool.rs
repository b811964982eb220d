//! A flaky tool recovered by the retry policy.
//!
//! The tool times out twice, then answers. The policy reads the failure's
//! Rust channel (an `io::ErrorKind::TimedOut` in its source chain, no
//! explicit hint) and calls again with exponential backoff; the model only
//! ever sees the final answer. A second tool that is not idempotent is not
//! retried, and a cancelled call stops at once.
//!
//! ```sh
//! cargo run --example flaky_tool
//! ```

use std::cell::Cell;
use std::time::Duration;

use serde::Serialize;
use toolresult::retry::{Backoff, Cancelled, RetryPolicy};
use toolresult::tool::ToolSafety;
use toolresult::{Failure, IntoToolResult, ToolError, ToolResult};

#[derive(Serialize)]
struct Forecast {
    city: &'static str,
    celsius: f32,
}

/// Times out on its first two calls.
fn forecast(calls: &Cell<u32>) -> ToolResult<Forecast> {
    calls.set(calls.get() + 1);
    if calls.get() < 3 {
        let timeout = std::io::Error::new(std::io::ErrorKind::TimedOut, "upstream 10.0.0.7 slow");
        return ToolResult::fail(
            Failure::new(ToolError::new("the weather service timed out")).with_source(timeout),
        );
    }
    ToolResult::ok(Forecast {
        city: "Oslo",
        celsius: -3.5,
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let policy = RetryPolicy::new()
        .max_attempts(4)
        .backoff(Backoff::exponential(
            Duration::from_millis(20),
            2.0,
            Duration::from_secs(1),
        )?)
        .on_retry(|event| {
            println!(
                "retry after attempt {} in {:?} ({}, source {})",
                event.attempt,
                event.delay,
                event.classification.as_str(),
                event.error_type.unwrap_or("none"),
            );
        });

    let calls = Cell::new(0);
    // The forecast tool only reads: a repeat call is harmless.
    let run = policy.run(ToolSafety::ReadOnly, || forecast(&calls));
    let lowered = run.outcome.lower();
    println!(
        "{} attempts, stopped because {}: {}",
        run.attempts, run.stop, lowered.result.output
    );
    assert_eq!(lowered.result.output, r#"{"city":"Oslo","celsius":-3.5}"#);

    // A tool that sends mail promises nothing: a transient failure is surfaced, not repeated.
    let sent = Cell::new(0);
    let run = policy.run(ToolSafety::default(), || -> ToolResult<()> {
        sent.set(sent.get() + 1);
        ToolResult::fail(Failure::new(ToolError::new("the mail server hung up")).transient())
    });
    println!("send_email: {} attempt, {}", run.attempts, run.stop);
    assert_eq!(sent.get(), 1);

    // A cancelled call is over, whatever its hint says.
    let run = policy.run(ToolSafety::ReadOnly, || -> ToolResult<()> {
        ToolResult::fail(
            Failure::new(ToolError::new("cancelled by the user"))
                .with_source(Cancelled)
                .transient(),
        )
    });
    println!("cancelled: {} attempt, {}", run.attempts, run.stop);
    Ok(())
}
