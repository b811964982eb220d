//! Parsing a written result back: an 8 MiB image result and a 64 KB text
//! result, ours (which decodes and validates the base64 into bytes) against
//! Toolnexus (which keeps the base64 string as it is).

mod common;

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use toolresult::canonical;

fn parse_back(c: &mut Criterion) {
    let image: Vec<u8> = (0..8 * 1024 * 1024u32)
        .map(|i| (i * 31 % 251) as u8)
        .collect();
    let part = canonical::ContentPart::from_bytes(image, "image/png").unwrap();
    let json =
        serde_json::to_string(&canonical::ToolResult::ok(part.describe()).with_parts([part]))
            .unwrap();
    let mut group = c.benchmark_group("parse_back/image_8mib");
    group.sample_size(20);
    group.bench_function("toolresult from_str", |b| {
        b.iter(|| serde_json::from_str::<canonical::ToolResult>(black_box(&json)).unwrap())
    });
    group.bench_function("toolnexus from_str", |b| {
        b.iter(|| serde_json::from_str::<toolnexus::ToolResult>(black_box(&json)).unwrap())
    });
    group.finish();

    let text = serde_json::to_string(&canonical::ToolResult::ok(
        serde_json::to_string(&common::rows()).unwrap(),
    ))
    .unwrap();
    let mut group = c.benchmark_group("parse_back/text_64k");
    group.bench_function("toolresult from_str", |b| {
        b.iter(|| serde_json::from_str::<canonical::ToolResult>(black_box(&text)).unwrap())
    });
    group.bench_function("toolnexus from_str", |b| {
        b.iter(|| serde_json::from_str::<toolnexus::ToolResult>(black_box(&text)).unwrap())
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = parse_back
}
criterion_main!(benches);
