//! Parsing a written result back: an 8 MiB image result and a 63 KB text
//! result. Ours decodes and checks the base64 into bytes, straight from the
//! borrowed input with `from_str` and `from_slice` and through serde_json's
//! scratch buffer with `from_reader`; Toolnexus keeps the base64 string as
//! it is. The floor of the image is `serde_json::from_str::<&str>` of the
//! base64 as a JSON string plus a SIMD decode of it. Before timing, each
//! contender's peak heap growth over its input is measured with a counting
//! allocator and printed as a multiple of the image size.

mod common;
#[path = "common/counting.rs"]
mod counting;

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use toolresult::canonical;

const IMAGE_BYTES: usize = 8 * 1024 * 1024;

fn image_result_json() -> String {
    let image: Vec<u8> = (0..IMAGE_BYTES as u32)
        .map(|i| (i * 31 % 251) as u8)
        .collect();
    let part = canonical::ContentPart::from_bytes(image, "image/png").unwrap();
    serde_json::to_string(&canonical::ToolResult::ok(part.describe()).with_parts([part])).unwrap()
}

/// The floor: the base64 as a borrowed JSON string, then decoded.
fn floor(data_json: &str) -> Vec<u8> {
    let text: &str = serde_json::from_str(data_json).unwrap();
    base64_simd::STANDARD.decode_to_vec(text).unwrap()
}

fn ours_from_str(json: &str) -> canonical::ToolResult {
    serde_json::from_str(json).unwrap()
}

fn ours_from_slice(json: &str) -> canonical::ToolResult {
    serde_json::from_slice(json.as_bytes()).unwrap()
}

fn ours_from_reader(json: &str) -> canonical::ToolResult {
    serde_json::from_reader(json.as_bytes()).unwrap()
}

fn toolnexus_from_str(json: &str) -> toolnexus::ToolResult {
    serde_json::from_str(json).unwrap()
}

fn parse_back(c: &mut Criterion) {
    let json = image_result_json();
    let start = json.find(r#""data":""#).unwrap() + 7;
    let end = json[start + 1..].find('"').unwrap() + start + 2;
    let data_json = json[start..end].to_owned();

    for (name, peak) in [
        (
            "floor",
            counting::peak_growth(&data_json, |j| floor(j.as_str())),
        ),
        (
            "toolresult from_str",
            counting::peak_growth(&json, |j| ours_from_str(j)),
        ),
        (
            "toolresult from_slice",
            counting::peak_growth(&json, |j| ours_from_slice(j)),
        ),
        (
            "toolresult from_reader",
            counting::peak_growth(&json, |j| ours_from_reader(j)),
        ),
        (
            "toolnexus from_str",
            counting::peak_growth(&json, |j| toolnexus_from_str(j)),
        ),
    ] {
        println!(
            "parse_back peak heap {name}: {peak} bytes = {:.2}x the image",
            peak as f64 / IMAGE_BYTES as f64
        );
    }

    let mut group = c.benchmark_group("parse_back/image_8mib");
    group.sample_size(20);
    group.bench_function("floor from_str::<&str> + base64-simd", |b| {
        b.iter(|| floor(black_box(&data_json)))
    });
    group.bench_function("toolresult from_str", |b| {
        b.iter(|| ours_from_str(black_box(&json)))
    });
    group.bench_function("toolresult from_slice", |b| {
        b.iter(|| ours_from_slice(black_box(&json)))
    });
    group.bench_function("toolresult from_reader", |b| {
        b.iter(|| ours_from_reader(black_box(&json)))
    });
    group.bench_function("toolnexus from_str", |b| {
        b.iter(|| toolnexus_from_str(black_box(&json)))
    });
    group.finish();

    let text = serde_json::to_string(&canonical::ToolResult::ok(
        serde_json::to_string(&common::rows()).unwrap(),
    ))
    .unwrap();
    let mut group = c.benchmark_group("parse_back/text_64k");
    group.bench_function("toolresult from_str", |b| {
        b.iter(|| ours_from_str(black_box(&text)))
    });
    group.bench_function("toolnexus from_str", |b| {
        b.iter(|| toolnexus_from_str(black_box(&text)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = parse_back
}
criterion_main!(benches);
