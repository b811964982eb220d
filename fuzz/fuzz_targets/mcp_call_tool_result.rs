//! The `mcp_call_tool_result` fuzz target: its property is `properties/mcp_call_tool_result.rs`, which
//! `tests/fuzz_replay.rs` also runs over the committed inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| toolresult_fuzz::mcp_call_tool_result::check(data));
