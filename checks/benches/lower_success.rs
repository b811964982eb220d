//! Lowering a success: the typed `ToolResult::ok(value)` into the canonical
//! result, beside the floor (`serde_json::to_string`) and the peers (rmcp's
//! `Json` wrapper into a `CallToolResult`; Toolnexus's `ToolResult::ok` of
//! the JSON text).
//!
//! Every contender is handed a fresh clone of the input through
//! `iter_batched` and drops it inside the timed routine, as a lowering that
//! takes ownership does; outputs are dropped outside the timing.

mod common;

use criterion::{BatchSize, Criterion, black_box, criterion_group, criterion_main};
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::handler::server::wrapper::Json;
use serde::Serialize;
use toolresult::{IntoToolResult, ToolResult};

fn contenders<T>(c: &mut Criterion, name: &str, value: &T)
where
    T: Serialize + schemars::JsonSchema + Clone + 'static,
{
    let json_len = serde_json::to_string(value).map(|s| s.len()).unwrap_or(0);
    let mut group = c.benchmark_group(format!("lower_success/{name} ({json_len} B)"));
    group.bench_function("floor serde_json::to_string", |b| {
        b.iter_batched(
            || value.clone(),
            |v| serde_json::to_string(black_box(&v)).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("toolresult ok().lower()", |b| {
        b.iter_batched(
            || value.clone(),
            |v| ToolResult::<T>::ok(black_box(v)).lower(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("rmcp Json().into_call_tool_result()", |b| {
        b.iter_batched(
            || value.clone(),
            |v| Json(black_box(v)).into_call_tool_result().ok().unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("toolnexus ToolResult::ok(to_string)", |b| {
        b.iter_batched(
            || value.clone(),
            |v| toolnexus::ToolResult::ok(serde_json::to_string(black_box(&v)).unwrap()),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// A success that is already text (`T = String`): its output is the text
/// itself, unquoted. The floor is still serde_json's encoding of it.
fn text_success(c: &mut Criterion) {
    let text: String = common::report().summary.repeat(2);
    let mut group = c.benchmark_group(format!("lower_success/string ({} B)", text.len()));
    group.bench_function("floor serde_json::to_string", |b| {
        b.iter_batched(
            || text.clone(),
            |v| serde_json::to_string(black_box(&v)).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("toolresult ok().lower()", |b| {
        b.iter_batched(
            || text.clone(),
            |v| ToolResult::<String>::ok(black_box(v)).lower(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn lower_success(c: &mut Criterion) {
    contenders(c, "struct_1k", &common::report());
    contenders(c, "list_64k", &common::rows());
    text_success(c);
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = lower_success
}
criterion_main!(benches);
