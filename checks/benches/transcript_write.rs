//! Lowering a success and writing the canonical result as JSON (what a
//! transcript stores), against Toolnexus doing the same.

mod common;

use criterion::{BatchSize, Criterion, black_box, criterion_group, criterion_main};
use toolresult::{IntoToolResult, ToolResult};

fn transcript_write(c: &mut Criterion) {
    let rows = common::rows();
    let mut group = c.benchmark_group("transcript_write/list_64k");
    group.bench_function("floor serde_json::to_string(value)", |b| {
        b.iter_batched(
            || rows.clone(),
            |v| serde_json::to_string(black_box(&v)).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("toolresult lower + to_string(result)", |b| {
        b.iter_batched(
            || rows.clone(),
            |v| {
                let result = ToolResult::<_>::ok(black_box(v)).lower().result;
                serde_json::to_string(&result).unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("toolresult lower + to_json()", |b| {
        b.iter_batched(
            || rows.clone(),
            |v| {
                let result = ToolResult::<_>::ok(black_box(v)).lower().result;
                result.to_json().unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("toolnexus ok(to_string) + to_string(result)", |b| {
        b.iter_batched(
            || rows.clone(),
            |v| {
                let result =
                    toolnexus::ToolResult::ok(serde_json::to_string(black_box(&v)).unwrap());
                serde_json::to_string(&result).unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = transcript_write
}
criterion_main!(benches);
