//! Peak heap of reading a provider's stream, counted with a counting
//! global allocator in this test binary: a stream of 4 calls with 8 KB of
//! arguments each (code, its quotes and newlines escaped), in 20-byte
//! fragments, holds at most 1.5x the arguments' final size while it is
//! read to its end (the calls given out dropped at once, as a caller that
//! hands them on would).
//!
//! Anthropic holds at most 1.6x: its `input` must become a JSON value
//! (what `read_calls` gives), and while the last call's text is parsed,
//! serde_json holds the text, its own copy of an escaped string and the
//! new value at once.

use toolresult::provider::{Anthropic, CallStream, Gemini, OpenAiChat, OpenAiResponses};

mod counting;
mod stream_events;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

use counting::peak_of;

const CALLS: usize = 4;
const SIZE: usize = 8000;
const FRAGMENT: usize = 20;

macro_rules! peak {
    ($provider:ty, $events:expr) => {
        peak!($provider, $events, 3, 2)
    };
    ($provider:ty, $events:expr, $times:expr, $over:expr) => {{
        let events = $events(CALLS, SIZE, FRAGMENT);
        let (peak, (given, turn)) = peak_of(|| {
            let mut stream = CallStream::<$provider>::new();
            let mut given = 0;
            for event in &events {
                given += stream.push(event).unwrap().count();
            }
            (given, stream.finish().unwrap())
        });
        assert_eq!((given, turn.calls().len()), (CALLS, CALLS));
        let size: usize = (0..CALLS)
            .map(|n| stream_events::arguments(n, SIZE).len())
            .sum();
        eprintln!(
            "{}: peak heap {peak} B for {size} B of arguments = {:.3}x",
            stringify!($provider),
            peak as f64 / size as f64
        );
        assert!(
            peak * $over <= size * $times,
            "held {peak} B for {size} B of arguments"
        );
    }};
}

#[test]
fn chat_holds_at_most_1_5x_its_arguments() {
    peak!(OpenAiChat, stream_events::chat);
}

#[test]
fn responses_holds_at_most_1_5x_its_arguments() {
    peak!(OpenAiResponses, stream_events::responses);
}

#[test]
fn anthropic_holds_at_most_1_6x_its_arguments() {
    peak!(Anthropic, stream_events::anthropic, 8, 5);
}

#[test]
fn gemini_holds_at_most_1_5x_its_arguments() {
    peak!(Gemini, stream_events::gemini);
}
