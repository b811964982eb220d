//! The `data_url` fuzz target: its property is `properties/data_url.rs`, which
//! `tests/fuzz_replay.rs` also runs over the committed inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| toolresult_fuzz::data_url::check(data));
