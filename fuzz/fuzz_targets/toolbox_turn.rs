//! The `toolbox_turn` fuzz target: its property is `properties/toolbox_turn.rs`, which
//! `tests/fuzz_replay.rs` also runs over the committed inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| toolresult_fuzz::toolbox_turn::check(data));
