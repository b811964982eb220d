//! The quickstart: the whole loop, from a model's tool calls to the
//! provider's next message.
//!
//! A scripted model (canned assistant turns in Anthropic's and OpenAI's own
//! JSON, no network) calls six tools: one that fails once and is retried,
//! one too slow for its timeout, one that panics, one that returns an image,
//! one whose 120 KB log is cut to fit the toolbox's output budget (the whole
//! kept for the `read_artifact` tool), and one that suspends for a person's
//! approval and resumes with the answer. The example prints the transcript
//! it builds, each message labelled with the provider whose wire it is.
//!
//! Run with `cargo run --example quickstart`.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolresult::budget::Budget;
use toolresult::canonical::{Answer, ContentPart, PartLimit};
use toolresult::provider::{Anthropic, OpenAiChat, PartPolicy, Provider};
use toolresult::retry::{Backoff, RetryPolicy};
use toolresult::tool;
use toolresult::tool::ToolSafety;
use toolresult::toolbox::{Toolbox, Turn};
use toolresult::{Failure, ToolError, ToolResult};

#[derive(Deserialize, JsonSchema)]
struct City {
    /// The city, in English.
    city: String,
}

#[derive(Serialize, JsonSchema)]
struct Weather {
    city: String,
    celsius: f32,
}

#[derive(Deserialize, JsonSchema)]
struct Query {
    query: String,
}

// The weather service drops the first connection: a transient failure
// whose source (with an address the model must not see) stays in Rust.
/// Current weather for a city.
///
/// # Arguments
/// * `city` - the city, in English
#[tool(safety = ReadOnly)]
fn get_weather(city: String) -> ToolResult<Weather> {
    static CALLS: AtomicU32 = AtomicU32::new(0);
    if CALLS.fetch_add(1, Ordering::SeqCst) == 0 {
        let reset = std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "weather.internal:8443 reset the connection (token=abc123)",
        );
        return ToolResult::fail(
            Failure::new(ToolError::new("the weather service dropped the connection"))
                .with_source(reset),
        );
    }
    ToolResult::ok(Weather {
        city,
        celsius: -3.5,
    })
}

// A person approves it before its body runs: the toolbox parks the call
// on an approval request, and runs it once the answer comes.
/// Deploy a version to production.
///
/// # Arguments
/// * `version` - the version to deploy
#[tool(safety = IdempotentDestructive, approval = always)]
fn deploy(version: String) -> String {
    format!("deployed {version}")
}

fn toolbox() -> Result<Toolbox, Box<dyn std::error::Error>> {
    let retry = RetryPolicy::new()
        .max_attempts(3)
        .backoff(Backoff::constant(Duration::from_millis(50)));
    let mut toolbox = Toolbox::new()
        .timeout(Duration::from_secs(10))
        .retry(retry)
        .budget(Budget::new().output_bytes(2048));
    toolbox.register(get_weather::tool())?;
    toolbox
        .register(
            tool::function(
                "search_archive",
                "Search the archive",
                |q: Query| async move {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    format!("results for {}", q.query)
                },
            )?
            .with_safety(ToolSafety::ReadOnly),
        )?
        .timeout(Duration::from_millis(200))
        .retry(RetryPolicy::new().max_attempts(1));
    toolbox.register(tool::function(
        "summarise",
        "Summarise a document",
        |_: Query| -> String { panic!("index out of range (secret=hunter2)") },
    )?)?;
    toolbox.register(
        tool::function("chart", "A temperature chart of a city", |args: City| {
            match ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default()) {
                Ok(png) => ToolResult::<_>::ok(format!("chart of {}", args.city)).with_parts([png]),
                Err(unreadable) => ToolResult::fail(Failure::unexpected(unreadable)),
            }
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;
    toolbox.register(
        tool::function("server_log", "The web server's log of today", |_: Query| {
            (0..4_000)
                .map(|n| format!("12:{:02}:{:02} GET /orders/{n} 200\n", n / 60 % 60, n % 60))
                .collect::<String>()
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;
    // The model reads back what a budget left out.
    toolbox.register_reader()?;
    toolbox.register(deploy::tool())?;
    Ok(toolbox)
}

/// The model's first turn, as Anthropic's Messages API returns it.
const ANTHROPIC_TURN: &str = r#"{
  "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
  "stop_reason": "tool_use",
  "content": [
    {"type": "text", "text": "Let me check a few things."},
    {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Oslo"}},
    {"type": "tool_use", "id": "toolu_02", "name": "search_archive", "input": {"query": "storms"}},
    {"type": "tool_use", "id": "toolu_03", "name": "summarise", "input": {"query": "report"}},
    {"type": "tool_use", "id": "toolu_04", "name": "chart", "input": {"city": "Oslo"}},
    {"type": "tool_use", "id": "toolu_05", "name": "get_forecast", "input": {"city": "Oslo"}},
    {"type": "tool_use", "id": "toolu_06", "name": "server_log", "input": {"query": "today"}}
  ]
}"#;

/// The model's next turn, as OpenAI's Chat Completions returns its message.
const OPENAI_TURN: &str = r#"{
  "role": "assistant", "content": null,
  "tool_calls": [
    {"id": "call_01", "type": "function", "function": {"name": "deploy", "arguments": "{\"version\": \"1.4.2\"}"}}
  ]
}"#;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The `summarise` tool panics on purpose. The toolbox answers the model
    // safely either way; the default hook would also print the panic (and
    // its secret) to stderr, which this example keeps quiet.
    std::panic::set_hook(Box::new(|_| {}));
    let toolbox = toolbox()?;
    // Each message of the transcript, labelled with the provider whose
    // wire it is and who speaks it.
    let mut transcript: Vec<(&str, Value)> = Vec::new();

    // Declare the tools to the provider, all in one call.
    let declared = serde_json::to_value(Anthropic::declare_tools(&toolbox.tools()))?;
    println!(
        "# tools declared to Anthropic: {}",
        declared.as_array().map_or(0, Vec::len)
    );

    // Turn 1: Anthropic. Read the calls, run them, answer every one.
    transcript.push((
        "Anthropic Messages, the model's tool calls",
        serde_json::from_str(ANTHROPIC_TURN)?,
    ));
    let calls = Anthropic::read_calls(ANTHROPIC_TURN)?;
    let outcomes = toolbox.run(calls).await;
    for outcome in &outcomes {
        println!(
            "# {} {} -> attempts {}, error {}, source {:?}",
            outcome.call.id,
            outcome.call.name,
            outcome.attempts,
            outcome.lowered.result.is_error,
            outcome.lowered.diagnostics.source_type_name(),
        );
    }
    let reply = Anthropic::reply(&outcomes, PartPolicy::Placeholder)?;
    transcript.push((
        "Anthropic Messages, the toolbox's answers",
        serde_json::to_value(&reply)?,
    ));

    // Turn 2: OpenAI Chat. The deploy waits for a person.
    transcript.push((
        "OpenAI Chat Completions, the model's tool calls",
        serde_json::from_str(OPENAI_TURN)?,
    ));
    let outcomes = toolbox.run(OpenAiChat::read_calls(OPENAI_TURN)?).await;
    let mut answered = Vec::new();
    for outcome in outcomes {
        match outcome.lowered.result.pending_request() {
            Some(request) => {
                println!("# parked: {} ({})", request.prompt, request.id);
                // A person approves; the call's body runs.
                let answer = Answer::approve(&request);
                let resumed = toolbox.run(Turn::default().resume(&outcome, answer)?).await;
                answered.extend(resumed);
            }
            None => answered.push(outcome),
        }
    }
    let reply = OpenAiChat::reply(&answered, PartPolicy::Placeholder)?;
    // Chat answers with one `tool` message per call.
    for message in serde_json::to_value(&reply)?
        .as_array()
        .cloned()
        .unwrap_or_default()
    {
        transcript.push(("OpenAI Chat Completions, the toolbox's answer", message));
    }

    for (label, message) in transcript {
        let printed = serde_json::to_string_pretty(&shorten_images(message))?;
        assert!(!printed.contains("abc123") && !printed.contains("hunter2"));
        println!("\n# {label}\n{printed}");
    }
    Ok(())
}

/// The transcript as printed: base64 image data cut to its first characters.
fn shorten_images(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            for (key, field) in map.iter_mut() {
                if key == "data" {
                    if let Value::String(data) = field
                        && data.len() > 24
                    {
                        let head: String = data.chars().take(16).collect();
                        *data = format!("{head}… ({} base64 characters)", data.len());
                    }
                } else {
                    *field = shorten_images(field.take());
                }
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                *item = shorten_images(item.take());
            }
        }
        _ => {}
    }
    value
}
