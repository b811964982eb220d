//! What a tool's call context costs.
//!
//! - `progress_10000`: a tool that reports progress 10,000 times while it
//!   works, against the same work with no reports (the floor), nobody
//!   listening; and with an observer that counts, for scale. The cost of
//!   one report is the difference divided by 10,000 (the target:
//!   at most 50 ns).
//! - The context is free when unused: the toolbox's `one_call` bench
//!   (`benches/toolbox.rs`) times a turn whose tool ignores it, and
//!   `tests/call_context_allocations.rs` asserts it costs no allocation.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use toolresult::tool::{CallContext, CallEvent};

const REPORTS: u64 = 10_000;

/// The tool's own work between two reports: a little arithmetic.
#[inline(never)]
fn step(i: u64, acc: u64) -> u64 {
    acc.wrapping_mul(6364136223846793005).wrapping_add(i)
}

fn work(cx: Option<&CallContext<'_>>) -> u64 {
    let mut acc = 1;
    for i in 0..REPORTS {
        acc = step(black_box(i), acc);
        if let Some(cx) = cx {
            cx.progress(i as f64, Some(REPORTS as f64), None);
        }
    }
    acc
}

fn progress_10000(c: &mut Criterion) {
    let quiet = CallContext::new("call_1", "index");
    let count = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&count);
    let observed = CallContext::new("call_1", "index").with_observer(move |_: &CallEvent<'_>| {
        counter.fetch_add(1, Ordering::Relaxed);
    });
    let mut group = c.benchmark_group("call_context/progress_10000 (10,000 reports)");
    group.bench_function("floor: the work alone", |b| {
        b.iter(|| work(black_box(None)))
    });
    group.bench_function(
        "toolresult: the work and 10,000 reports, nobody listening",
        |b| b.iter(|| work(black_box(Some(&quiet)))),
    );
    group.bench_function(
        "toolresult: the work and 10,000 reports to an observer",
        |b| b.iter(|| work(black_box(Some(&observed)))),
    );
    group.finish();
    assert!(count.load(Ordering::Relaxed) > 0);
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = progress_10000
}
criterion_main!(benches);
