//! The `mcp_serve` fuzz target: its property is `properties/mcp_serve.rs`, which
//! `tests/fuzz_replay.rs` also runs over the committed inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| toolresult_fuzz::mcp_serve::check(data));
