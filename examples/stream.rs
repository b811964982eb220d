//! Reading a provider's stream: each tool call as soon as it is whole,
//! then the assembled message for the transcript and why it ended.
//!
//! A recorded Anthropic Messages stream (each server-sent event's `data`,
//! as an HTTP client yields them; no network here): the model thinks, says
//! a sentence, then makes two calls whose arguments arrive in small
//! fragments. The example prints each call the moment its block stops,
//! then the message to keep in the conversation and the calls to run. The
//! same loop reads `CallStream::<OpenAiChat>`, `<OpenAiResponses>` and
//! `<Gemini>`.
//!
//! Run with `cargo run --example stream`.

use toolresult::provider::{Anthropic, CallStream, StreamEnd};

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
    let mut stream = CallStream::<Anthropic>::new();
    for (at, event) in EVENTS.iter().enumerate() {
        for call in stream.push(event)? {
            // Whole: a tool that is harmless to run for nothing could start here.
            println!(
                "event {at:>2}: call {} {}({:?}) is whole",
                call.id, call.name, call.arguments
            );
        }
    }
    let turn = stream.finish()?;
    println!("\nthe stream ended: {}", turn.end());
    println!(
        "message for the transcript:\n{}",
        serde_json::to_string_pretty(&turn)?
    );
    match turn.end() {
        StreamEnd::Finished => println!("\n{} calls to run, in this order:", turn.calls().len()),
        why => println!("\nno call runs: {why}"),
    }
    for call in turn.calls() {
        println!("  {} {}", call.id, call.name);
    }
    Ok(())
}
