//! Lowering a failure: `ToolResult::<T>::fail(e)` into the canonical error
//! result `{"error": e}`, beside the floor (serialising a borrowed
//! `{"error": e}` wrapper) and the peers (rmcp's `Err(Json({"error": e}))`
//! into a `CallToolResult`; Toolnexus's `ToolResult::error` of the text).
//!
//! Every contender gets a fresh clone of the error through `iter_batched`.

mod common;

use common::{ApiError, Envelope, OwnedEnvelope};
use criterion::{BatchSize, Criterion, black_box, criterion_group, criterion_main};
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::handler::server::wrapper::Json;
use toolresult::{IntoToolResult, ToolError, ToolResult};

fn lower_failure(c: &mut Criterion) {
    let error = common::api_error();
    let mut group = c.benchmark_group("lower_failure/api_error");
    group.bench_function("floor serde_json::to_string({error: &e})", |b| {
        b.iter_batched(
            || error.clone(),
            |e| {
                serde_json::to_string(&Envelope {
                    error: black_box(&e),
                })
                .unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("toolresult fail(e).lower()", |b| {
        b.iter_batched(
            || error.clone(),
            |e| ToolResult::<u8, ApiError>::fail(black_box(e)).lower(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("rmcp Err(Json({error: e})).into_call_tool_result()", |b| {
        b.iter_batched(
            || error.clone(),
            |e| {
                let failed: Result<Json<u8>, _> = Err(Json(OwnedEnvelope {
                    error: black_box(e),
                }));
                failed.into_call_tool_result().ok().unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("toolnexus ToolResult::error(to_string)", |b| {
        b.iter_batched(
            || error.clone(),
            |e| {
                let text = serde_json::to_string(&Envelope {
                    error: black_box(&e),
                })
                .unwrap();
                toolnexus::ToolResult::error(text)
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();

    // The default error shape, `ToolError`, against the same floor.
    let error = ToolError::new("No such config key: region.primary (the config has 14 keys)")
        .with_suggestion("call list_keys to see the keys, then retry with one of them");
    let mut group = c.benchmark_group("lower_failure/tool_error");
    group.bench_function("floor serde_json::to_string({error: &e})", |b| {
        b.iter_batched(
            || error.clone(),
            |e| {
                serde_json::to_string(&Envelope {
                    error: black_box(&e),
                })
                .unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("toolresult fail(e).lower()", |b| {
        b.iter_batched(
            || error.clone(),
            |e| ToolResult::<u8>::fail(black_box(e)).lower(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = lower_failure
}
criterion_main!(benches);
