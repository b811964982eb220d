//! Reading a provider's stream (`CallStream`): 4 calls with 8 KB of
//! arguments each, in 20-byte fragments, beside the floor a hand-written
//! assembler starts from, parsing each event's data into a
//! `serde_json::Value`. One group per provider (Gemini sends each call
//! whole, so its events are few and large).
//!
//! For instruction counts, `STREAM_COUNT=<streams>:<provider>:<floor|ours>`
//! (provider `chat`, `responses`, `anthropic` or `gemini`) reads that many
//! streams and exits: run it under `valgrind --tool=callgrind` at two
//! counts (20 and 40, say) and take the difference, so that the set-up
//! cancels out. The peak heap is asserted in `tests/stream_heap.rs` at the
//! root.

mod common;
#[path = "../../tests/stream_events/mod.rs"]
mod stream_events;

use criterion::{Criterion, black_box, criterion_group};
use serde_json::Value;
use toolresult::provider::{Anthropic, CallStream, Gemini, OpenAiChat, OpenAiResponses};

const CALLS: usize = 4;
const SIZE: usize = 8000;
const FRAGMENT: usize = 20;

/// The floor: every event's data parsed into a `Value` (`[DONE]` is not
/// JSON and is skipped), nothing assembled.
fn floor(events: &[String]) -> usize {
    let mut parsed = 0;
    for event in events {
        if let Ok(value) = serde_json::from_str::<Value>(event) {
            black_box(&value);
            parsed += 1;
        }
    }
    parsed
}

macro_rules! ours {
    ($provider:ty, $events:expr) => {{
        let mut stream = CallStream::<$provider>::new();
        let mut given = 0;
        for event in $events {
            for call in stream.push(event).unwrap() {
                black_box(&call);
                given += 1;
            }
        }
        let _ = black_box(stream.finish().unwrap());
        given
    }};
}

fn events(provider: &str) -> Vec<String> {
    match provider {
        "chat" => stream_events::chat(CALLS, SIZE, FRAGMENT),
        "responses" => stream_events::responses(CALLS, SIZE, FRAGMENT),
        "anthropic" => stream_events::anthropic(CALLS, SIZE, FRAGMENT),
        "gemini" => stream_events::gemini(CALLS, SIZE, FRAGMENT),
        other => panic!("no provider {other}"),
    }
}

fn read(provider: &str, events: &[String]) -> usize {
    match provider {
        "chat" => ours!(OpenAiChat, events),
        "responses" => ours!(OpenAiResponses, events),
        "anthropic" => ours!(Anthropic, events),
        "gemini" => ours!(Gemini, events),
        other => panic!("no provider {other}"),
    }
}

fn stream(c: &mut Criterion) {
    for provider in ["chat", "responses", "anthropic", "gemini"] {
        let events = events(provider);
        assert_eq!(read(provider, &events), CALLS);
        let bytes: usize = events.iter().map(String::len).sum();
        println!(
            "stream {provider}: {} events, {bytes} bytes of data",
            events.len()
        );
        let mut group = c.benchmark_group(format!("stream_{provider}"));
        group.bench_function("floor: parse each event into a Value", |b| {
            b.iter(|| floor(black_box(&events)))
        });
        group.bench_function("toolresult CallStream", |b| {
            b.iter(|| read(provider, black_box(&events)))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = stream
}

/// `STREAM_COUNT=<streams>:<provider>:<floor|ours>`: that many streams
/// read, for counting instructions.
fn count(spec: &str) {
    let mut parts = spec.split(':');
    let streams: usize = parts
        .next()
        .unwrap_or("1")
        .parse()
        .expect("a count of streams");
    let provider = parts.next().unwrap_or("chat");
    let which = parts.next().unwrap_or("ours");
    let events = events(provider);
    for _ in 0..streams {
        if which == "floor" {
            black_box(floor(black_box(&events)));
        } else {
            black_box(read(provider, black_box(&events)));
        }
    }
}

fn main() {
    common::main_or_count("STREAM_COUNT", count, benches);
}
