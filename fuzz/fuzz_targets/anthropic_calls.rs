//! The `anthropic_calls` fuzz target: its property is `properties/anthropic_calls.rs`, which
//! `tests/fuzz_replay.rs` also runs over the committed inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| toolresult_fuzz::anthropic_calls::check(data));
