//! The `gemini_stream` fuzz target: its property is `properties/gemini_stream.rs`, which
//! `tests/fuzz_replay.rs` also runs over the committed inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| toolresult_fuzz::gemini_stream::check(data));
