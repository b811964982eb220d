//! The `tool_args` fuzz target: its property is `properties/tool_args.rs`, which
//! `tests/fuzz_replay.rs` also runs over the committed inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| toolresult_fuzz::tool_args::check(data));
