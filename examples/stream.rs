//! A turn run from a provider's stream: each tool call starts the moment
//! it is whole, while the model still writes the next one, and the reply
//! answers every call in order.
//!
//! A recorded Anthropic Messages stream (each server-sent event's `data`,
//! as an HTTP client yields them; no network here): the model thinks, says
//! a sentence, then makes two calls whose arguments arrive in small
//! fragments. `weather` is read-only, so the toolbox (`start_early`) starts
//! each call as its block stops; the example prints each call as it
//! starts, then why the stream ended, the message to keep in the
//! conversation, and the reply. The same call runs `OpenAiChat`,
//! `OpenAiResponses` and `Gemini` streams.
//!
//! Run with `cargo run --example stream`.

use std::time::Duration;

use futures_util::StreamExt;
use toolresult::provider::{Anthropic, PartPolicy, Provider};
use toolresult::tool::{self, ToolSafety};
use toolresult::toolbox::{Toolbox, Turn};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    city: String,
}

const EVENTS: &[&str] = &[
    r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5"}}"#,
    r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Both cities, in parallel."}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}"#,
    r#"{"type":"content_block_stop","index":0}"#,
    r#"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Checking both."}}"#,
    r#"{"type":"content_block_stop","index":1}"#,
    r#"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"weather","input":{}}}"#,
    r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}"#,
    r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Os"}}"#,
    r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"lo\"}"}}"#,
    r#"{"type":"content_block_stop","index":2}"#,
    r#"{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_2","name":"weather","input":{}}}"#,
    r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"city\":"}}"#,
    r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":" \"Rome\"}"}}"#,
    r#"{"type":"content_block_stop","index":3}"#,
    r#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":61}}"#,
    r#"{"type":"message_stop"}"#,
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut toolbox = Toolbox::new().start_early(true);
    toolbox.register(
        tool::function("weather", "Weather in a city", |c: City| {
            println!("  call started: weather({:?})", c.city);
            format!("sunny in {}", c.city)
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;

    // The events as an HTTP client would yield them: one every 10 ms.
    let events =
        futures_util::stream::iter(EVENTS.iter().enumerate()).then(|(at, event)| async move {
            tokio::time::sleep(Duration::from_millis(10)).await;
            println!("event {at:>2} read");
            *event
        });

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()?;
    let (outcomes, message) =
        runtime.block_on(toolbox.run_stream::<Anthropic>(Turn::default(), events))?;

    println!("\nthe stream ended: {}", message.end());
    println!(
        "message for the transcript:\n{}",
        serde_json::to_string_pretty(&message)?
    );
    // Empty when the stream did not finish: no call ran, `end` says why.
    let reply = Anthropic::reply(&outcomes, PartPolicy::Placeholder)?;
    println!("reply:\n{}", serde_json::to_string_pretty(&reply)?);
    Ok(())
}
