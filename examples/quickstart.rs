//! The quickstart: typed tools end to end, then the canonical model they
//! lower into.
//!
//! Run with `cargo run --example quickstart`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use toolresult::canonical::{ContentPart, Request, read};
use toolresult::tool::{self, Tool, declaration};
use toolresult::{Failure, ResultExt, ToolError, ToolResult};

#[derive(Deserialize, JsonSchema)]
struct ForecastArgs {
    /// The city, in English.
    city: String,
}

#[derive(Serialize, JsonSchema)]
struct Forecast {
    city: String,
    celsius: f32,
}

/// A typed tool body: `?` works, failures carry a model-facing error and,
/// for Rust alone, the source error and a retry hint.
fn forecast(args: ForecastArgs) -> Result<Forecast, Failure> {
    let city = args.city;
    if city.is_empty() {
        return Err(ToolError::new("the city is empty")
            .with_suggestion("pass a city name such as Oslo")
            .into());
    }
    let celsius: f32 = match city.as_str() {
        "Oslo" => "-3.5".parse()?,
        "Lima" => Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            "weather.internal:8443 timed out (token=abc123)",
        ))
        .tool_error(ToolError::new("the weather service timed out"))
        .map_err(Failure::transient)?,
        _ => return Err(ToolError::new(format!("unknown city {city}")).into()),
    };
    Ok(Forecast { city, celsius })
}

#[derive(Deserialize, JsonSchema)]
struct ShotArgs {}

#[derive(Deserialize, JsonSchema)]
struct DeployArgs {
    /// Where to deploy; asked for when missing.
    environment: Option<String>,
}

/// A tool that can suspend: without an environment it asks the user, and
/// the loop parks the call until the answer comes back.
fn deploy(args: DeployArgs) -> toolresult::canonical::ToolResult {
    match args.environment {
        Some(env) => toolresult::canonical::ToolResult::ok(format!("deployed to {env}")),
        None => toolresult::canonical::ToolResult::pending(Request::input("Which environment?")),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tools: Vec<Box<dyn Tool>> = vec![
        Box::new(tool::function(
            "forecast",
            "Today's forecast for a city",
            forecast,
        )),
        Box::new(tool::function(
            "screenshot",
            "A screenshot of the dashboard",
            |_: ShotArgs| {
                // A part (a screenshot) beside structured data.
                match ContentPart::from_path("tests/fixtures/fixture.png") {
                    Ok(png) => ToolResult::ok(json!({"width": 8, "height": 8})).with_part(png),
                    Err(e) => Failure::new(ToolError::new("the screenshot is missing"))
                        .with_source(e)
                        .into(),
                }
            },
        )),
        Box::new(tool::function("deploy", "Deploy the service", deploy)),
    ];

    println!("-- declared to providers");
    let forecast_tool = tools.first().ok_or("no tools")?;
    let openai = declaration::openai_responses(forecast_tool);
    println!("openai:    {}", serde_json::to_string(&openai)?);
    let anthropic = declaration::anthropic(forecast_tool);
    println!("anthropic: {}", serde_json::to_string(&anthropic)?);
    let gemini = declaration::gemini(forecast_tool);
    println!("gemini:    {}", serde_json::to_string(&gemini)?);
    for t in &tools {
        println!(
            "mcp:       {}",
            serde_json::to_string(&declaration::mcp(t))?
        );
    }

    println!("-- called by name, lowered");
    let calls = [
        ("forecast", r#"{"city": "Oslo"}"#),
        ("forecast", r#"{"city": ""}"#),
        ("forecast", r#"{"city": "Lima"}"#),
        ("forecast", r#"{"town": "Oslo"}"#),
        ("forecast", r#"{"city": "Oslo""#),
        ("screenshot", ""),
        ("deploy", "{}"),
        ("deploy", r#"{"environment": "staging"}"#),
    ];
    for (name, arguments) in calls {
        let tool = tools
            .iter()
            .find(|t| t.name() == name)
            .ok_or("no such tool")?;
        // The arguments as the provider sent them: JSON text.
        let lowered = pollster::block_on(tool.call_json(arguments));
        // The model sees this:
        println!("model: {}", lowered.result.output);
        for part in &lowered.result.parts {
            println!("       + {}", part.describe());
        }
        if let Some(request) = lowered.result.pending_request() {
            // A suspension: the loop asks the user and answers `request.id`.
            println!("       (suspended: {} {:?})", request.kind, request.prompt);
        }
        // Rust keeps this (never shown to the model):
        let d = &lowered.diagnostics;
        println!(
            "rust:  failure={} transient={:?} source_type={:?}",
            d.is_failure(),
            d.is_transient(),
            d.source_type_name()
        );
    }

    println!("-- the built-in read of a media file");
    println!("read: {}", read("tests/fixtures/fixture.png").output);
    Ok(())
}
