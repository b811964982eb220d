//! A tool made by `#[tool]` beside the same tool made by hand with
//! `tool::function`: one call, from the model's JSON arguments to the
//! lowered result. The two should cost the same.
//!
//! For instruction counts, run one call of either under callgrind:
//! `TOOL_ATTRIBUTE_ONE_CALL=attribute valgrind --tool=callgrind
//! --toggle-collect='*one_call*' target/release/deps/tool_attribute-*`
//! (and `=by_hand`); the run then makes that one call and exits.

use criterion::{Criterion, black_box};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolresult::tool::{self, Arguments, CallContext, Tool, ToolSafety};
use toolresult::{ToolError, ToolResult};

#[derive(Serialize, JsonSchema)]
struct Weather {
    city: String,
    celsius: f32,
    days: u8,
}

/// Current weather for a city.
///
/// # Arguments
/// * `city` - the city to look up
/// * `days` - how many days ahead
#[toolresult::tool(safety = ReadOnly)]
fn get_weather(city: String, days: Option<u8>) -> ToolResult<Weather> {
    if city.is_empty() {
        return ToolResult::fail(ToolError::new("no city"));
    }
    ToolResult::ok(Weather {
        city,
        celsius: -3.5,
        days: days.unwrap_or(0),
    })
}

#[derive(Deserialize, JsonSchema)]
struct WeatherArgs {
    /// the city to look up
    city: String,
    /// how many days ahead
    days: Option<u8>,
}

fn by_hand() -> impl Tool {
    tool::function(
        "get_weather",
        "Current weather for a city.",
        |args: WeatherArgs| get_weather(args.city, args.days),
    )
    .unwrap()
    .with_safety(ToolSafety::ReadOnly)
}

const ARGS: &str = r#"{"city":"Oslo","days":2}"#;

#[inline(never)]
fn one_call(tool: &dyn Tool, args: &Arguments, cx: &CallContext<'_>) -> usize {
    let calling = tool.call(args, cx);
    match calling.now() {
        Ok(lowered) => lowered.result.output.len(),
        Err(_) => 0,
    }
}

fn bench(c: &mut Criterion) {
    let attribute = get_weather::tool();
    let hand = by_hand();
    let args = Arguments::Text(ARGS.into());
    let cx = CallContext::new("call_1", "get_weather");
    assert_eq!(
        one_call(&attribute, &args, &cx),
        one_call(&hand, &args, &cx)
    );
    let mut group = c.benchmark_group("tool_attribute_one_call");
    group.bench_function("attribute", |b| {
        b.iter(|| one_call(black_box(&attribute), black_box(&args), &cx))
    });
    group.bench_function("by_hand", |b| {
        b.iter(|| one_call(black_box(&hand), black_box(&args), &cx))
    });
    group.finish();
}

fn main() {
    if let Ok(which) = std::env::var("TOOL_ATTRIBUTE_ONE_CALL") {
        let tool: Box<dyn Tool> = match which.as_str() {
            "attribute" => Box::new(get_weather::tool()),
            _ => Box::new(by_hand()),
        };
        let args = Arguments::Text(ARGS.into());
        let cx = CallContext::new("call_1", "get_weather");
        println!("{}", one_call(tool.as_ref(), &args, &cx));
        return;
    }
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
}
