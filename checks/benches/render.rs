//! Rendering a canonical result for a provider and writing it as JSON,
//! against writing the canonical result itself: a 64 KB text result and a
//! result with a 1 MiB image part, for Anthropic (`tool_result` block),
//! OpenAI Responses (`function_call_output`) and OpenAI Chat Completions
//! (the `tool` message).

mod common;

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use toolresult::canonical::{ContentPart, ToolResult};
use toolresult::provider::{Anthropic, CallRef, OpenAiChat, OpenAiResponses, PartPolicy, Provider};

fn contenders(c: &mut Criterion, name: &str, result: &ToolResult) {
    let call = CallRef::new("call_0123456789", "list_customers");
    let mut group = c.benchmark_group(format!("render/{name}"));
    group.bench_function("floor serde_json::to_string(canonical)", |b| {
        b.iter(|| serde_json::to_string(black_box(result)).unwrap())
    });
    group.bench_function("anthropic render + to_string", |b| {
        b.iter(|| {
            let answer = (call, black_box(result));
            let block = Anthropic::render(&answer, PartPolicy::Placeholder).unwrap();
            serde_json::to_string(&block).unwrap()
        })
    });
    group.bench_function("openai_responses render + to_string", |b| {
        b.iter(|| {
            let answer = (call, black_box(result));
            let item = OpenAiResponses::render(&answer, PartPolicy::Placeholder).unwrap();
            serde_json::to_string(&item).unwrap()
        })
    });
    group.bench_function("openai_chat reply + to_string", |b| {
        b.iter(|| {
            let turn = [(call, black_box(result))];
            let messages = OpenAiChat::reply(&turn, PartPolicy::Placeholder).unwrap();
            serde_json::to_string(&messages).unwrap()
        })
    });
    group.finish();
}

fn render(c: &mut Criterion) {
    let text = ToolResult::ok(serde_json::to_string(&common::rows()).unwrap());
    contenders(c, "text_64k", &text);

    let image: Vec<u8> = (0..1024 * 1024u32).map(|i| (i * 31 % 251) as u8).collect();
    let part = ContentPart::from_bytes(image, "image/png").unwrap();
    let shot = ToolResult::ok(part.describe()).with_parts([part]);
    contenders(c, "image_1mib", &shot);
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = render
}
criterion_main!(benches);
