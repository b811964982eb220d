//! The quickstart: a typed tool end to end, then the canonical model it
//! lowers into.
//!
//! Run with `cargo run --example quickstart`.

use serde::Serialize;
use toolresult::canonical::{ContentPart, Request, read};
use toolresult::{Failure, IntoToolResult, ResultExt, ToolError, ToolResult};

#[derive(Serialize)]
struct Forecast {
    city: String,
    celsius: f32,
}

/// A typed tool body: `?` works, failures carry a model-facing error and,
/// for Rust alone, the source error and a retry hint.
fn forecast(city: &str) -> Result<Forecast, Failure> {
    if city.is_empty() {
        return Err(ToolError::new("the city is empty")
            .with_suggestion("pass a city name such as Oslo")
            .into());
    }
    let celsius: f32 = match city {
        "Oslo" => "-3.5".parse()?,
        "Lima" => Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            "weather.internal:8443 timed out (token=abc123)",
        ))
        .tool_error(ToolError::new("the weather service timed out"))
        .map_err(Failure::transient)?,
        _ => return Err(ToolError::new(format!("unknown city {city}")).into()),
    };
    Ok(Forecast {
        city: city.to_owned(),
        celsius,
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("-- a typed tool, lowered");
    for city in ["Oslo", "", "Lima"] {
        let result: ToolResult<Forecast> = forecast(city).into();
        let lowered = result.lower();
        // The model sees this:
        println!("model: {}", serde_json::to_string(&lowered.result)?);
        // Rust keeps this (never shown to the model):
        let d = &lowered.diagnostics;
        println!(
            "rust:  failure={} transient={:?} source_type={:?}",
            d.is_failure(),
            d.is_transient(),
            d.source_type_name()
        );
    }

    println!("-- a screenshot beside structured data");
    let shot = ToolResult::<_>::ok(serde_json::json!({"width": 8, "height": 8}))
        .with_part(ContentPart::from_path("tests/fixtures/fixture.png")?)
        .into_tool_result();
    println!(
        "output: {} | parts: {}",
        shot.output,
        shot.parts[0].describe()
    );

    println!("-- the built-in read of a media file");
    println!("read: {}", read("tests/fixtures/fixture.png").output);

    println!("-- a suspension");
    let parked = toolresult::canonical::ToolResult::pending(Request::input("Which environment?"));
    let request = parked.pending_request().ok_or("no suspension")?;
    println!("pending: {} {:?}", request.kind, request.prompt);
    Ok(())
}
