//! The `budget_apply` fuzz target: its property is `properties/budget_apply.rs`, which
//! `tests/fuzz_replay.rs` also runs over the committed inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| toolresult_fuzz::budget_apply::check(data));
