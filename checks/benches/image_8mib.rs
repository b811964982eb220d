//! An 8 MiB image from bytes into a canonical result written as JSON: the
//! floor (base64 into a preallocated buffer), ours
//! (`ContentPart::from_bytes` → `ToolResult::ok(..).with_parts` → `to_json`,
//! and the same through `serde_json::to_string`) and
//! Toolnexus (`ContentPart::from_bytes` → JSON). Before timing, each
//! contender's peak heap growth over its input is measured with a counting
//! allocator and printed as a multiple of the image size.

mod common;
#[path = "common/counting.rs"]
mod counting;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use criterion::{BatchSize, Criterion, black_box, criterion_group, criterion_main};
use toolresult::canonical;

const IMAGE_BYTES: usize = 8 * 1024 * 1024;

fn image() -> Vec<u8> {
    (0..IMAGE_BYTES as u32)
        .map(|i| (i * 31 % 251) as u8)
        .collect()
}

fn floor(bytes: Vec<u8>) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    STANDARD.encode_string(&bytes, &mut out);
    out
}

fn floor_simd(bytes: Vec<u8>) -> String {
    base64_simd::STANDARD.encode_to_string(&bytes)
}

fn ours(bytes: Vec<u8>) -> String {
    let part = canonical::ContentPart::from_bytes(bytes, "image/png").unwrap();
    let result = canonical::ToolResult::ok(part.describe()).with_parts([part]);
    result.to_json().unwrap()
}

fn ours_through_serde(bytes: Vec<u8>) -> String {
    let part = canonical::ContentPart::from_bytes(bytes, "image/png").unwrap();
    let result = canonical::ToolResult::ok(part.describe()).with_parts([part]);
    serde_json::to_string(&result).unwrap()
}

fn toolnexus_peer(bytes: Vec<u8>) -> String {
    let part = toolnexus::ContentPart::from_bytes(&bytes, "image/png").unwrap();
    let result = toolnexus::ToolResult {
        output: format!("image (image/png, {} bytes)", bytes.len()),
        parts: vec![part],
        ..Default::default()
    };
    serde_json::to_string(&result).unwrap()
}

fn image_8mib(c: &mut Criterion) {
    let source = image();
    for (name, op) in [
        ("floor", floor as fn(Vec<u8>) -> String),
        ("floor simd", floor_simd),
        ("toolresult to_json", ours),
        ("toolresult serde_json::to_string", ours_through_serde),
        ("toolnexus", toolnexus_peer),
    ] {
        let peak = counting::peak_growth(source.clone(), op);
        println!(
            "image_8mib peak heap {name}: {peak} bytes = {:.2}x the image",
            peak as f64 / IMAGE_BYTES as f64
        );
    }
    let mut group = c.benchmark_group("image_8mib");
    group.sample_size(20);
    group.bench_function("floor base64 into preallocated String", |b| {
        b.iter_batched(
            || source.clone(),
            |v| floor(black_box(v)),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("floor base64-simd into a presized String", |b| {
        b.iter_batched(
            || source.clone(),
            |v| floor_simd(black_box(v)),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("toolresult from_bytes + with_parts + to_json", |b| {
        b.iter_batched(
            || source.clone(),
            |v| ours(black_box(v)),
            BatchSize::LargeInput,
        )
    });
    group.bench_function(
        "toolresult from_bytes + with_parts + serde_json::to_string",
        |b| {
            b.iter_batched(
                || source.clone(),
                |v| ours_through_serde(black_box(v)),
                BatchSize::LargeInput,
            )
        },
    );
    group.bench_function("toolnexus from_bytes + JSON", |b| {
        b.iter_batched(
            || source.clone(),
            |v| toolnexus_peer(black_box(v)),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = image_8mib
}
criterion_main!(benches);
