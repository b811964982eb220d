//! Output budgets beside their floors:
//!
//! - a result within budget: lowering and applying the budget, beside
//!   lowering alone (target ≤ 1.02x);
//! - 2 MB of log over budget: applying the budget (the whole kept in the
//!   in-memory store, head and tail cut), beside one copy of the text
//!   (target ≤ 1.5x);
//! - a 40,000-row list (a nested array in each row) over a 16 KB and a
//!   4 KB budget: lowering and applying the budget, beside serialising the
//!   rows once (target ≤ 1.5x; peak heap in `tests/peak_heap.rs`).
//!
//! Every contender is handed a fresh clone of its input through
//! `iter_batched`; the store is emptied outside the timing.

mod common;

use criterion::{BatchSize, Criterion, black_box, criterion_group, criterion_main};
use toolresult::budget::{Budget, MemoryStore};
use toolresult::{IntoToolResult, ToolResult};

fn within_budget(c: &mut Criterion) {
    let report = common::report();
    let budget = Budget::new().output_bytes(16 * 1024).parts(4);
    let store = MemoryStore::new();
    let mut group = c.benchmark_group("budget/within (report, ~1 KB)");
    group.bench_function("floor ok().lower()", |b| {
        b.iter_batched(
            || report.clone(),
            |v| ToolResult::<common::Report>::ok(black_box(v)).lower(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("toolresult ok().lower() + budget.apply", |b| {
        b.iter_batched(
            || report.clone(),
            |v| {
                budget.apply(
                    ToolResult::<common::Report>::ok(black_box(v)).lower(),
                    None,
                    &store,
                )
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn log_over_budget(c: &mut Criterion) {
    let log: String = (0..160_000)
        .map(|n| format!("2026-12-03T18:00:00Z worker {n:07} ok\n"))
        .collect();
    let log = log[..2_000_000].to_owned();
    let budget = Budget::new().output_bytes(16 * 1024);
    let mut group = c.benchmark_group("budget/2 MB log over budget");
    group.bench_function("floor String::clone", |b| {
        b.iter_batched(
            || log.clone(),
            |text| black_box(&text).clone(),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("toolresult budget.apply", |b| {
        b.iter_batched(
            || (log.clone().lower(), MemoryStore::new()),
            |(lowered, store)| (budget.apply(black_box(lowered), None, &store), store),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

fn rows_over_budget(c: &mut Criterion) {
    let rows: Vec<common::Row> = (0..40_000).map(common::row).collect();
    let len = serde_json::to_string(&rows).map_or(0, |s| s.len());
    let mut group = c.benchmark_group(format!("budget/40,000 rows ({len} B) over budget"));
    group.sample_size(20);
    group.bench_function("floor serde_json::to_string", |b| {
        b.iter_batched(
            || rows.clone(),
            |v| serde_json::to_string(black_box(&v)).unwrap(),
            BatchSize::LargeInput,
        )
    });
    for kb in [16, 4] {
        let budget = Budget::new().output_bytes(kb * 1024);
        group.bench_function(
            format!("toolresult ok().lower() + budget.apply ({kb} KB)"),
            |b| {
                b.iter_batched(
                    || (rows.clone(), MemoryStore::new()),
                    |(v, store)| {
                        let lowered = ToolResult::<Vec<common::Row>>::ok(black_box(v)).lower();
                        (budget.apply(lowered, None, &store), store)
                    },
                    BatchSize::LargeInput,
                )
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = within_budget, log_over_budget, rows_over_budget
}
criterion_main!(benches);
