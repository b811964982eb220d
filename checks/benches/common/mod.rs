//! Inputs and settings shared by the benches: a ~1 KB report, a ~64 KB
//! list, and criterion settings that keep `cargo bench -- --quick` short.

#![allow(dead_code)]

use std::time::Duration;

use criterion::Criterion;
use schemars::JsonSchema;
use serde::Serialize;

/// A ~1 KB success value: a weather report with text, numbers and a list.
#[derive(Serialize, Clone, JsonSchema)]
pub struct Report {
    pub city: String,
    pub region: String,
    pub summary: String,
    pub celsius: f64,
    pub humidity: u8,
    pub wind_kph: f32,
    pub alerts: Vec<String>,
    pub hourly: Vec<i16>,
    pub source: Source,
}

/// Nested part of [`Report`].
#[derive(Serialize, Clone, JsonSchema)]
pub struct Source {
    pub station: String,
    pub updated_unix: u64,
    pub verified: bool,
}

/// One row of the ~64 KB list.
#[derive(Serialize, Clone, JsonSchema)]
pub struct Row {
    pub id: u64,
    pub name: String,
    pub email: String,
    pub score: f64,
    pub active: bool,
    pub tags: Vec<String>,
}

/// The ~1 KB report.
pub fn report() -> Report {
    Report {
        city: "Oslo".into(),
        region: "eu-north-1".into(),
        summary: "Clear skies in the morning, clouds building from the west after noon, \
                  with a \"chance\" of light snow in the evening. Roads may be icy after dark; \
                  allow extra time on the E18 and the ring roads. Visibility stays above ten \
                  kilometres until late evening, when fog may form over the fjord and along \
                  the rivers. Tomorrow looks colder still, with a hard frost overnight and \
                  sunshine through most of the day. Wind from the north-west, fresh at times \
                  on the coast, easing overnight. Pollen counts are low; air quality is good \
                  across the city, moderate near the harbour."
            .into(),
        celsius: -3.5,
        humidity: 81,
        wind_kph: 14.5,
        alerts: vec![
            "ice on roads after 18:00".into(),
            "fog over the fjord after 22:00".into(),
            "strong gusts on exposed coasts".into(),
        ],
        hourly: (0..24).map(|h| -8 + (h % 9) as i16).collect(),
        source: Source {
            station: "OSLO-BLINDERN 18700".into(),
            updated_unix: 1_764_748_800,
            verified: true,
        },
    }
}

/// The ~64 KB list of rows.
pub fn rows() -> Vec<Row> {
    (0..470).map(row).collect()
}

/// Row `i` of a list.
pub fn row(i: u64) -> Row {
    Row {
        id: 10_000 + i,
        name: format!("Customer number {i}"),
        email: format!("customer{i}@example.com"),
        score: i as f64 * 1.25,
        active: !i.is_multiple_of(3),
        tags: vec!["retail".into(), format!("cohort-{}", i % 12)],
    }
}

/// Criterion settings: enough samples to be stable on a shared two-core
/// machine, short enough that `--quick` runs every bench in minutes.
pub fn criterion() -> Criterion {
    Criterion::default()
        .sample_size(60)
        .warm_up_time(Duration::from_millis(800))
        .measurement_time(Duration::from_secs(3))
        .noise_threshold(0.03)
}

/// A model-facing error with the shape of `toolresult::ToolError`
/// (`{message, suggestion?}`), deriving `JsonSchema` so rmcp's `Json`
/// wrapper can carry it too.
#[derive(Serialize, Clone, JsonSchema)]
pub struct ApiError {
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

/// `{"error": e}` over a borrowed error: the floor of a failure's output.
#[derive(Serialize)]
pub struct Envelope<'a, E> {
    pub error: &'a E,
}

/// `{"error": e}` owning its error, for rmcp's `Json` (which needs `'static`).
#[derive(Serialize, JsonSchema)]
pub struct OwnedEnvelope<E> {
    pub error: E,
}

/// A typical failure.
pub fn api_error() -> ApiError {
    ApiError {
        message: "No such config key: region.primary (the config has 14 keys)".into(),
        suggestion: Some("call list_keys to see the keys, then retry with one of them".into()),
    }
}

/// A bench's `main`: with the environment variable `var` set, `count` does
/// the work as its value says and nothing else runs (for counting
/// instructions under callgrind, two counts apart); else the criterion
/// `benches`, as `criterion_main!` runs them.
pub fn main_or_count(var: &str, count: impl FnOnce(&str), benches: impl FnOnce()) {
    if let Ok(spec) = std::env::var(var) {
        count(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
