//! The `mcp_input_required` fuzz target: its property is `properties/mcp_input_required.rs`, which
//! `tests/fuzz_replay.rs` also runs over the committed inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| toolresult_fuzz::mcp_input_required::check(data));
