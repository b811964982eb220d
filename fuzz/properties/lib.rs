//! The properties of the fuzz targets, one module per target, each with a
//! `check(data)` that panics when its property breaks for `data`.
//!
//! The fuzz targets (`fuzz/fuzz_targets/`) hand libFuzzer's inputs to these
//! functions; the workspace's `checks/tests/fuzz_replay.rs` includes this file with
//! `#[path]` and runs every target's `check` over its committed seeds
//! (`fuzz/corpus/<target>/seed-*`) and every input that ever broke it
//! (`fuzz/regressions/<target>/`), with no nightly and no libFuzzer.
//!
//! Every call into the crate's provider, tool and toolbox APIs goes through
//! [`providers`].

pub mod providers;

mod calls;
mod stream;

pub mod anthropic_calls;
pub mod anthropic_stream;
pub mod budget_apply;
pub mod content_part_json;
pub mod data_url;
pub mod gemini_calls;
pub mod gemini_stream;
pub mod mcp_call_tool_result;
pub mod mcp_calls;
pub mod mcp_input_required;
pub mod mcp_serve;
pub mod openai_chat_calls;
pub mod openai_chat_stream;
pub mod openai_responses_calls;
pub mod openai_responses_stream;
pub mod request_json;
pub mod seal_open;
pub mod tool_args;
pub mod tool_result_json;
pub mod toolbox_turn;

/// A target's property: panics when it breaks for the input.
pub type Check = fn(&[u8]);

/// Every target, by name, with its property.
pub const TARGETS: &[(&str, Check)] = &[
    ("tool_result_json", tool_result_json::check),
    ("content_part_json", content_part_json::check),
    ("request_json", request_json::check),
    ("data_url", data_url::check),
    ("mcp_call_tool_result", mcp_call_tool_result::check),
    ("tool_args", tool_args::check),
    ("openai_chat_calls", openai_chat_calls::check),
    ("openai_responses_calls", openai_responses_calls::check),
    ("anthropic_calls", anthropic_calls::check),
    ("gemini_calls", gemini_calls::check),
    ("mcp_calls", mcp_calls::check),
    ("budget_apply", budget_apply::check),
    ("toolbox_turn", toolbox_turn::check),
    ("mcp_serve", mcp_serve::check),
    ("seal_open", seal_open::check),
    ("openai_chat_stream", openai_chat_stream::check),
    ("openai_responses_stream", openai_responses_stream::check),
    ("anthropic_stream", anthropic_stream::check),
    ("gemini_stream", gemini_stream::check),
    ("mcp_input_required", mcp_input_required::check),
];
