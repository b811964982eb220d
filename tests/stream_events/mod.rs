//! Recorded-style streams for the stream readers' heap test and bench
//! (`checks/benches/stream.rs` includes this file with `#[path]`): `calls`
//! calls whose arguments are `size` bytes of JSON each, sent in fragments
//! of `fragment` bytes, as each provider streams them.
#![allow(dead_code)]

use serde_json::json;

/// The arguments of call `n`: a JSON object of exactly `size` bytes
/// (`size` at least 32), text with quotes and a newline escaped in it.
pub fn arguments(n: usize, size: usize) -> String {
    let head = format!("{{\"path\":\"/src/{n}.rs\",\"text\":\"");
    let tail = "\"}";
    let filler = "let x = \\\"a\\\";\\n fn main() {} ";
    let mut body = String::new();
    while head.len() + body.len() + tail.len() < size {
        body.push_str(filler);
    }
    // Cut at a character that does not break an escape.
    body.truncate(size - head.len() - tail.len());
    while body.ends_with('\\') {
        body.pop();
        body.push(' ');
    }
    let text = format!("{head}{body}{tail}");
    debug_assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
    text
}

/// `text` in pieces of at most `size` bytes, on character boundaries.
fn pieces(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = size.min(rest.len());
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let (piece, after) = rest.split_at(end);
        out.push(piece);
        rest = after;
    }
    out
}

/// A Chat Completions stream.
pub fn chat(calls: usize, size: usize, fragment: usize) -> Vec<String> {
    let chunk = |delta: serde_json::Value| {
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1",
               "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": null}]})
        .to_string()
    };
    let mut events = vec![chunk(json!({"role": "assistant", "content": null}))];
    for n in 0..calls {
        events.push(chunk(
            json!({"tool_calls": [{"index": n, "id": format!("call_{n}"), "type": "function",
            "function": {"name": "write_file", "arguments": ""}}]}),
        ));
        for piece in pieces(&arguments(n, size), fragment) {
            events.push(chunk(
                json!({"tool_calls": [{"index": n, "function": {"arguments": piece}}]}),
            ));
        }
    }
    events.push(
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1",
               "choices": [{"index": 0, "delta": {}, "logprobs": null, "finish_reason": "tool_calls"}]})
        .to_string(),
    );
    events.push("[DONE]".to_owned());
    events
}

/// A Responses stream.
pub fn responses(calls: usize, size: usize, fragment: usize) -> Vec<String> {
    let mut events = vec![
        json!({"type": "response.created", "sequence_number": 0,
        "response": {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}})
        .to_string(),
    ];
    for n in 0..calls {
        let item = |arguments: &str, status: &str| {
            json!({"type": "function_call", "id": format!("fc_{n}"),
            "call_id": format!("call_{n}"), "name": "write_file", "arguments": arguments, "status": status})
        };
        events.push(
            json!({"type": "response.output_item.added", "sequence_number": 1, "output_index": n,
            "item": item("", "in_progress")})
            .to_string(),
        );
        let text = arguments(n, size);
        for piece in pieces(&text, fragment) {
            events.push(
                json!({"type": "response.function_call_arguments.delta", "sequence_number": 2,
                "item_id": format!("fc_{n}"), "output_index": n, "delta": piece})
                .to_string(),
            );
        }
        events.push(
            json!({"type": "response.function_call_arguments.done", "sequence_number": 3,
            "item_id": format!("fc_{n}"), "output_index": n, "arguments": text})
            .to_string(),
        );
        events.push(
            json!({"type": "response.output_item.done", "sequence_number": 4, "output_index": n,
            "item": item(&text, "completed")})
            .to_string(),
        );
    }
    events.push(
        json!({"type": "response.completed", "sequence_number": 5,
        "response": {"id": "resp_1", "object": "response", "status": "completed"}})
        .to_string(),
    );
    events
}

/// An Anthropic Messages stream.
pub fn anthropic(calls: usize, size: usize, fragment: usize) -> Vec<String> {
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
        "role": "assistant", "content": [], "model": "claude-sonnet-4-5", "stop_reason": null,
        "usage": {"input_tokens": 10, "output_tokens": 1}}})
        .to_string(),
    ];
    for n in 0..calls {
        events.push(
            json!({"type": "content_block_start", "index": n, "content_block":
            {"type": "tool_use", "id": format!("toolu_{n}"), "name": "write_file", "input": {}}})
            .to_string(),
        );
        for piece in pieces(&arguments(n, size), fragment) {
            events.push(
                json!({"type": "content_block_delta", "index": n,
                "delta": {"type": "input_json_delta", "partial_json": piece}})
                .to_string(),
            );
        }
        events.push(json!({"type": "content_block_stop", "index": n}).to_string());
    }
    events.push(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null},
        "usage": {"output_tokens": 900}}).to_string());
    events.push(json!({"type": "message_stop"}).to_string());
    events
}

/// A Gemini stream: each call whole in its own event, as the Gemini API
/// sends them (`fragment` is not used).
pub fn gemini(calls: usize, size: usize, _fragment: usize) -> Vec<String> {
    let mut events = Vec::new();
    for n in 0..calls {
        let args: serde_json::Value = serde_json::from_str(&arguments(n, size)).unwrap_or_default();
        events.push(
            json!({"candidates": [{"content": {"role": "model", "parts":
            [{"functionCall": {"name": "write_file", "args": args}}]}, "index": 0}]})
            .to_string(),
        );
    }
    events.push(
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]},
        "finishReason": "STOP", "index": 0}], "usageMetadata": {"totalTokenCount": 900}})
        .to_string(),
    );
    events
}
