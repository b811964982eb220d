//! Every fuzz target's property, run over the inputs committed for it:
//! its seeds (`fuzz/corpus/<target>/seed-*`) and every input that ever
//! broke it (`fuzz/regressions/<target>/*`). No nightly and no libFuzzer:
//! the properties are plain functions (`fuzz/properties/`), shared with
//! the fuzz targets.

use std::path::{Path, PathBuf};

#[path = "../../fuzz/properties/lib.rs"]
mod properties;

/// The committed inputs of `target`: its seeds, then its regressions.
fn inputs(target: &str) -> Vec<PathBuf> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut found = Vec::new();
    for (dir, seeds_only) in [
        (fuzz.join("corpus").join(target), true),
        (fuzz.join("regressions").join(target), false),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.is_file())
            .filter(|path| {
                !seeds_only
                    || path
                        .file_name()
                        .and_then(|name| name.to_str())
                        .is_some_and(|name| name.starts_with("seed-"))
            })
            .collect();
        files.sort();
        found.extend(files);
    }
    found
}

/// Runs `target`'s property over its committed inputs, naming the input
/// that breaks it.
fn replay(target: &str) {
    let (_, check) = properties::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .unwrap_or_else(|| panic!("no target {target}"));
    let inputs = inputs(target);
    assert!(!inputs.is_empty(), "{target} has no committed inputs");
    for path in inputs {
        let data = std::fs::read(&path).unwrap();
        if let Err(panic) = std::panic::catch_unwind(|| check(&data)) {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            panic!(
                "{target}: {} breaks the property: {message}",
                path.display()
            );
        }
    }
}

/// Every target in `fuzz/Cargo.toml` has its property here, and its
/// committed inputs: a target added there without them fails.
#[test]
fn every_fuzz_target_is_replayed() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/Cargo.toml"))
            .unwrap();
    let mut declared: Vec<&str> = manifest
        .lines()
        .filter_map(|line| line.strip_prefix("name = \""))
        .filter_map(|rest| rest.strip_suffix('"'))
        .filter(|name| *name != "toolresult-fuzz")
        .collect();
    declared.sort_unstable();
    let mut replayed: Vec<&str> = properties::TARGETS.iter().map(|(name, _)| *name).collect();
    replayed.sort_unstable();
    assert_eq!(declared, replayed);
}

#[test]
fn tool_result_json() {
    replay("tool_result_json");
}

#[test]
fn content_part_json() {
    replay("content_part_json");
}

#[test]
fn request_json() {
    replay("request_json");
}

#[test]
fn data_url() {
    replay("data_url");
}

#[test]
fn mcp_call_tool_result() {
    replay("mcp_call_tool_result");
}

#[test]
fn tool_args() {
    replay("tool_args");
}

#[test]
fn openai_chat_calls() {
    replay("openai_chat_calls");
}

#[test]
fn openai_responses_calls() {
    replay("openai_responses_calls");
}

#[test]
fn anthropic_calls() {
    replay("anthropic_calls");
}

#[test]
fn gemini_calls() {
    replay("gemini_calls");
}

#[test]
fn mcp_calls() {
    replay("mcp_calls");
}

#[test]
fn budget_apply() {
    replay("budget_apply");
}

#[test]
fn toolbox_turn() {
    replay("toolbox_turn");
}

#[test]
fn mcp_serve() {
    replay("mcp_serve");
}

#[test]
fn seal_open() {
    replay("seal_open");
}

#[test]
fn openai_chat_stream() {
    replay("openai_chat_stream");
}

#[test]
fn openai_responses_stream() {
    replay("openai_responses_stream");
}

#[test]
fn anthropic_stream() {
    replay("anthropic_stream");
}

#[test]
fn gemini_stream() {
    replay("gemini_stream");
}

#[test]
fn mcp_input_required() {
    replay("mcp_input_required");
}
