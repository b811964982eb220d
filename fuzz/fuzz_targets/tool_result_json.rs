//! The `tool_result_json` fuzz target: its property is `properties/tool_result_json.rs`, which
//! `tests/fuzz_replay.rs` also runs over the committed inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| toolresult_fuzz::tool_result_json::check(data));
