//! Reading each provider's stream (`CallStream`): every trouble the
//! issue lists, each test saying what a naive assembler does with it; the
//! calls of a stream equal `read_calls` of its assembled message; a stream
//! cut by the output limit, a filter or an error runs none of its calls;
//! a call's malformed arguments do not stop the others.

use serde_json::{Value, json};
use toolresult::provider::{
    Anthropic, Call, CallStream, Gemini, OpenAiChat, OpenAiResponses, Provider, ReadCallsError,
    StreamEnd,
};
use toolresult::tool::Arguments;

fn text(id: &str, name: &str, arguments: &str) -> Call {
    Call::new(id, name, Arguments::Text(arguments.to_owned()))
}

fn json_call(id: &str, name: &str, arguments: Value) -> Call {
    Call::new(id, name, Arguments::Json(arguments))
}

/// Reads `events` as text; returns the calls given out after each event,
/// and the end.
macro_rules! read {
    ($provider:ty, $events:expr) => {{
        let mut stream = CallStream::<$provider>::new();
        let mut given: Vec<Vec<Call>> = Vec::new();
        for event in $events {
            let event: &str = event.as_ref();
            given.push(stream.push(event).unwrap().collect());
        }
        let turn = stream.finish().unwrap();
        let message = serde_json::to_string(&turn).unwrap();
        let read = <$provider>::read_calls(&message);
        (given, turn, message, read)
    }};
}

fn all(given: &[Vec<Call>]) -> Vec<Call> {
    given.iter().flatten().cloned().collect()
}

// ---------------------------------------------------------------- Chat

fn chunk(delta: Value) -> String {
    json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": null}]})
        .to_string()
}

fn chat_finish(reason: &str) -> String {
    json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}).to_string()
}

fn fragment(index: Option<u64>, id: Option<&str>, name: Option<&str>, arguments: Value) -> String {
    let mut call = json!({"function": {"arguments": arguments}});
    if let Some(index) = index {
        call["index"] = json!(index);
    }
    if let Some(id) = id {
        call["id"] = json!(id);
        call["type"] = json!("function");
    }
    if let Some(name) = name {
        call["function"]["name"] = json!(name);
    }
    chunk(json!({"tool_calls": [call]}))
}

#[test]
fn chat_gives_each_call_as_the_next_opens_and_the_last_at_the_finish() {
    let events = [
        chunk(json!({"role": "assistant", "content": "Checking."})),
        fragment(Some(0), Some("call_1"), Some("weather"), json!("")),
        fragment(Some(0), None, None, json!("{\"city\":")),
        fragment(Some(0), None, None, json!("\"Oslo\"}")),
        fragment(Some(1), Some("call_2"), Some("time"), json!("")),
        fragment(Some(1), None, None, json!("{}")),
        chat_finish("tool_calls"),
        "[DONE]".to_owned(),
    ];
    let (given, turn, message, read) = read!(OpenAiChat, &events);
    assert_eq!(given[4], [text("call_1", "weather", r#"{"city":"Oslo"}"#)]);
    assert_eq!(given[6], [text("call_2", "time", "{}")]);
    assert_eq!(turn.end(), &StreamEnd::Finished);
    assert_eq!(read.unwrap(), turn.calls());
    assert_eq!(all(&given), turn.calls());
    let message: Value = serde_json::from_str(&message).unwrap();
    assert_eq!(message["content"], "Checking.");
    assert_eq!(message["role"], "assistant");
}

#[test]
fn chat_two_calls_sharing_index_0_stay_two_calls() {
    // Ollama sends each parallel call whole at index 0. A naive assembler
    // keyed by index glues them: one call, arguments `{"p":1}{"p":2}`.
    let events = [
        fragment(Some(0), Some("call_a"), Some("page"), json!("{\"p\":1}")),
        fragment(Some(0), Some("call_b"), Some("page"), json!("{\"p\":2}")),
        chat_finish("tool_calls"),
    ];
    let (given, turn, _, read) = read!(OpenAiChat, &events);
    let expected = [
        text("call_a", "page", r#"{"p":1}"#),
        text("call_b", "page", r#"{"p":2}"#),
    ];
    assert_eq!(turn.calls(), expected);
    assert_eq!(given[1], expected[..1]);
    assert_eq!(read.unwrap(), expected);
}

#[test]
fn chat_a_call_named_again_at_a_used_index_without_an_id_is_a_new_call() {
    // A naive assembler appends the second name to the first: `pagepage`.
    let events = [
        fragment(Some(0), Some("call_a"), Some("page"), json!("{}")),
        fragment(Some(0), None, Some("other"), json!("{}")),
        chat_finish("tool_calls"),
    ];
    let mut stream = CallStream::<OpenAiChat>::new();
    stream.push(&events[0]).unwrap();
    stream.push(&events[1]).unwrap();
    // The second call has no id: refused when it is whole, as `read_calls`
    // refuses a call with an empty id.
    let err = stream.push(&events[2]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "openai chat stream: tool_calls[1].id: empty call id"
    );
}

#[test]
fn chat_fragments_without_an_index_are_read_by_id_then_order() {
    // Gemini's OpenAI-compatible endpoint and Kimi leave `index` out. A
    // naive assembler indexing a list by `index` crashes (OpenAI's Python
    // SDK raises on it).
    let events = [
        fragment(None, Some("call_1"), Some("weather"), json!("{\"city\":")),
        fragment(None, None, None, json!("\"Oslo\"}")),
        fragment(
            None,
            Some("call_2"),
            Some("weather"),
            json!("{\"city\":\"Rome\"}"),
        ),
        chat_finish("tool_calls"),
    ];
    let (given, turn, _, read) = read!(OpenAiChat, &events);
    let expected = [
        text("call_1", "weather", r#"{"city":"Oslo"}"#),
        text("call_2", "weather", r#"{"city":"Rome"}"#),
    ];
    assert_eq!(turn.calls(), expected);
    assert_eq!(given[2], expected[..1]);
    assert_eq!(read.unwrap(), expected);
}

#[test]
fn chat_empty_and_null_fragments_change_nothing() {
    // A naive assembler takes an empty argument delta for the end of the
    // call (or `null` for text "null"), and ends or spoils the arguments.
    let events = [
        fragment(Some(0), Some("call_1"), Some("add"), json!("")),
        fragment(Some(0), None, None, json!("{\"a\":")),
        fragment(Some(0), None, None, json!("")),
        fragment(Some(0), None, None, Value::Null),
        chunk(json!({"content": null, "tool_calls": null})),
        chunk(json!({"tool_calls": []})),
        fragment(Some(0), None, None, json!("1}")),
        chat_finish("tool_calls"),
    ];
    let (given, turn, message, read) = read!(OpenAiChat, &events);
    assert_eq!(turn.calls(), [text("call_1", "add", r#"{"a":1}"#)]);
    assert!(given[..7].iter().all(Vec::is_empty));
    assert_eq!(read.unwrap(), turn.calls());
    assert_eq!(
        serde_json::from_str::<Value>(&message).unwrap()["content"],
        Value::Null
    );
}

#[test]
fn chat_a_whole_call_in_one_fragment_keeps_its_arguments() {
    // A naive assembler takes only `id` and `name` from a call's first
    // fragment and its arguments from later ones: `{"a":1}` is lost.
    let events = [
        fragment(Some(0), Some("call_1"), Some("add"), json!("{\"a\":1}")),
        chat_finish("tool_calls"),
    ];
    let (_, turn, _, read) = read!(OpenAiChat, &events);
    assert_eq!(turn.calls(), [text("call_1", "add", r#"{"a":1}"#)]);
    assert_eq!(read.unwrap(), turn.calls());
}

#[test]
fn chat_cut_by_length_runs_no_call_and_never_gives_the_cut_one() {
    // A naive assembler runs the calls it has when the stream stops, the
    // cut one with arguments `{"path":"/et`.
    let events = [
        fragment(
            Some(0),
            Some("call_1"),
            Some("read"),
            json!("{\"path\":\"/a\"}"),
        ),
        fragment(
            Some(1),
            Some("call_2"),
            Some("read"),
            json!("{\"path\":\"/et"),
        ),
        chat_finish("length"),
    ];
    let (given, turn, message, read) = read!(OpenAiChat, &events);
    assert_eq!(turn.end(), &StreamEnd::Length);
    assert!(turn.calls().is_empty());
    assert!(all(&given).iter().all(|call| call.id != "call_2"));
    // The message keeps what was whole, for the transcript.
    assert_eq!(read.unwrap(), [text("call_1", "read", r#"{"path":"/a"}"#)]);
    assert!(!message.contains("call_2"));
}

#[test]
fn chat_content_filter_error_and_no_finish_run_no_call() {
    let call = fragment(Some(0), Some("call_1"), Some("add"), json!("{\"a\":1}"));
    let (_, turn, _, _) = read!(OpenAiChat, [call.clone(), chat_finish("content_filter")]);
    assert_eq!((turn.end(), turn.calls().len()), (&StreamEnd::Filtered, 0));

    let error = json!({"error": {"message": "The server had an error", "type": "server_error"}})
        .to_string();
    let (given, turn, message, _) = read!(OpenAiChat, [call.clone(), error]);
    assert_eq!(
        turn.end(),
        &StreamEnd::Failed("The server had an error".into())
    );
    assert!(turn.calls().is_empty() && all(&given).is_empty());
    assert!(!message.contains("call_1"));

    let (given, turn, _, _) = read!(OpenAiChat, [call]);
    assert_eq!(turn.end(), &StreamEnd::Unfinished);
    assert!(turn.calls().is_empty() && all(&given).is_empty());
    assert_eq!(
        turn.end().to_string(),
        "the stream ended before the message finished"
    );
}

#[test]
fn chat_malformed_arguments_are_that_calls_own_and_the_others_go_on() {
    // rig ends the whole run on malformed streamed JSON. Here the call is
    // held until the finish (it might have been cut), then given with its
    // text, for the tool's own bad-arguments answer; the others run.
    let events = [
        fragment(Some(0), Some("call_1"), Some("add"), json!("{\"a\":1}")),
        fragment(Some(1), Some("call_2"), Some("add"), json!("{\"a\":")),
        fragment(Some(2), Some("call_3"), Some("add"), json!("{\"a\":3}")),
        chat_finish("tool_calls"),
    ];
    let (given, turn, _, read) = read!(OpenAiChat, &events);
    assert_eq!(given[1], [text("call_1", "add", r#"{"a":1}"#)]);
    assert!(given[2].is_empty(), "held behind the malformed call");
    assert_eq!(
        given[3],
        [
            text("call_2", "add", r#"{"a":"#),
            text("call_3", "add", r#"{"a":3}"#)
        ]
    );
    assert_eq!(turn.calls().len(), 3);
    assert_eq!(read.unwrap(), turn.calls());
}

#[test]
fn chat_a_duplicate_id_and_another_type_are_the_errors_read_calls_gives() {
    let events = [
        fragment(Some(0), Some("call_1"), Some("add"), json!("{}")),
        fragment(Some(1), Some("call_2"), Some("add"), json!("{}")),
        fragment(Some(2), Some("call_1"), Some("add"), json!("{}")),
        chat_finish("tool_calls"),
    ];
    let mut stream = CallStream::<OpenAiChat>::new();
    let mut errors = events
        .iter()
        .filter_map(|event| stream.push(event).err().map(|e| e.to_string()));
    assert_eq!(
        errors.next().unwrap(),
        r#"openai chat stream: tool_calls[2].id: duplicate call id "call_1", first at tool_calls[0].id"#
    );
    // The stream is not read past its error.
    assert!(stream.finish().is_err());

    let custom = chunk(json!({"tool_calls": [{"index": 0, "id": "c", "type": "custom"}]}));
    let err = CallStream::<OpenAiChat>::new().push(&custom).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"openai chat stream: tool_calls[0].type: expected "function", found "custom""#
    );

    let err = CallStream::<OpenAiChat>::new()
        .push(r#"{"choices":[{"delta":{"tool_calls":[{"index":"x"}]}}]}"#)
        .unwrap_err();
    assert!(matches!(err, ReadCallsError::Invalid { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("openai chat stream: choices[0].delta.tool_calls[0].index: invalid type"),
        "{err}"
    );
    let err = CallStream::<OpenAiChat>::new().push("{oops").unwrap_err();
    assert!(matches!(err, ReadCallsError::NotJson { .. }), "{err}");
}

#[test]
fn chat_events_as_values_read_as_text_does() {
    let events = [
        fragment(Some(0), Some("call_1"), Some("add"), json!("{\"a\":")),
        fragment(Some(0), None, None, json!("1}")),
        chat_finish("tool_calls"),
    ];
    let mut stream = CallStream::<OpenAiChat>::new();
    let mut given = Vec::new();
    for event in &events {
        let value: Value = serde_json::from_str(event).unwrap();
        given.extend(stream.push_value(&value).unwrap());
    }
    stream.push_value(&json!("[DONE]")).unwrap();
    assert_eq!(given, [text("call_1", "add", r#"{"a":1}"#)]);
    let err = CallStream::<OpenAiChat>::new()
        .push_value(&json!([1]))
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("openai chat stream: invalid type: sequence"),
        "{err}"
    );
}

// ----------------------------------------------------------- Anthropic

fn block_start(index: u64, block: Value) -> String {
    json!({"type": "content_block_start", "index": index, "content_block": block}).to_string()
}

fn delta(index: u64, delta: Value) -> String {
    json!({"type": "content_block_delta", "index": index, "delta": delta}).to_string()
}

fn input(index: u64, partial: &str) -> String {
    delta(
        index,
        json!({"type": "input_json_delta", "partial_json": partial}),
    )
}

fn stop(index: u64) -> String {
    json!({"type": "content_block_stop", "index": index}).to_string()
}

fn message_delta(reason: &str) -> String {
    json!({"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": null}, "usage": {"output_tokens": 9}}).to_string()
}

fn tool_use(index: u64, id: &str, name: &str) -> String {
    block_start(
        index,
        json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
    )
}

#[test]
fn anthropic_input_starts_empty_not_from_the_prefilled_object() {
    // `content_block_start` carries `input: {}`; a naive assembler starts
    // the text from it and reads `{}{"city":"Oslo"}`. The first
    // `partial_json` is often "".
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_1", "role": "assistant", "content": []}}).to_string(),
        block_start(0, json!({"type": "thinking", "thinking": "", "signature": ""})),
        delta(0, json!({"type": "thinking_delta", "thinking": "Weather "})),
        delta(0, json!({"type": "thinking_delta", "thinking": "needed."})),
        delta(0, json!({"type": "signature_delta", "signature": "EqQBCgIYAhIM"})),
        stop(0),
        block_start(1, json!({"type": "text", "text": ""})),
        delta(1, json!({"type": "text_delta", "text": "Looking it up."})),
        stop(1),
        tool_use(2, "toolu_1", "weather"),
        input(2, ""),
        input(2, "{\"city\":"),
        input(2, " \"Oslo\"}"),
        stop(2),
        message_delta("tool_use"),
        json!({"type": "message_stop"}).to_string(),
    ];
    let (given, turn, message, read) = read!(Anthropic, &events);
    let expected = json_call("toolu_1", "weather", json!({"city": "Oslo"}));
    assert_eq!(given[13], std::slice::from_ref(&expected));
    assert_eq!(turn.calls(), [expected]);
    assert_eq!(read.unwrap(), turn.calls());
    let message: Value = serde_json::from_str(&message).unwrap();
    assert_eq!(
        message["content"][0],
        json!({"type": "thinking", "thinking": "Weather needed.", "signature": "EqQBCgIYAhIM"})
    );
    assert_eq!(
        message["content"][1],
        json!({"type": "text", "text": "Looking it up."})
    );
}

#[test]
fn anthropic_a_whole_input_at_the_start_is_kept_when_no_text_follows() {
    // A naive assembler parses the (empty) deltas and loses `{"a":1}`.
    let events = [
        block_start(
            0,
            json!({"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 1}}),
        ),
        input(0, ""),
        stop(0),
        message_delta("tool_use"),
    ];
    let (_, turn, _, read) = read!(Anthropic, &events);
    assert_eq!(turn.calls(), [json_call("toolu_1", "add", json!({"a": 1}))]);
    assert_eq!(read.unwrap(), turn.calls());
}

#[test]
fn anthropic_a_new_block_at_a_used_index_is_a_new_call() {
    // A naive assembler keyed by index merges the two blocks' text.
    let events = [
        tool_use(0, "toolu_1", "add"),
        input(0, "{\"a\":1}"),
        stop(0),
        tool_use(0, "toolu_2", "add"),
        input(0, "{\"a\":2}"),
        stop(0),
        message_delta("tool_use"),
    ];
    let (given, turn, _, read) = read!(Anthropic, &events);
    assert_eq!(given[2], [json_call("toolu_1", "add", json!({"a": 1}))]);
    assert_eq!(given[5], [json_call("toolu_2", "add", json!({"a": 2}))]);
    assert_eq!(read.unwrap(), turn.calls());
}

#[test]
fn anthropic_cut_by_max_tokens_gives_no_runnable_call() {
    // Anthropic stops the cut block before `message_delta`; a naive
    // assembler takes the stop for a whole call and runs `{"path": "/et`.
    let events = [
        tool_use(0, "toolu_1", "read"),
        input(0, "{\"path\": \"/a\"}"),
        stop(0),
        tool_use(1, "toolu_2", "read"),
        input(1, "{\"path\": \"/et"),
        stop(1),
        message_delta("max_tokens"),
        json!({"type": "message_stop"}).to_string(),
    ];
    let (given, turn, message, read) = read!(Anthropic, &events);
    assert_eq!(turn.end(), &StreamEnd::Length);
    assert!(turn.calls().is_empty());
    assert!(all(&given).iter().all(|call| call.id != "toolu_2"));
    let read = read.unwrap();
    assert_eq!(read[0], json_call("toolu_1", "read", json!({"path": "/a"})));
    assert_eq!(
        read[1],
        json_call(
            "toolu_2",
            "read",
            json!({"INVALID_JSON": "{\"path\": \"/et"})
        )
    );
    assert!(message.contains(r#""INVALID_JSON""#));
}

#[test]
fn anthropic_malformed_input_is_held_then_given_as_text_and_the_others_run() {
    let events = [
        tool_use(0, "toolu_1", "add"),
        input(0, "{\"a\": 1}"),
        stop(0),
        tool_use(1, "toolu_2", "add"),
        input(1, "{\"a\": }"),
        stop(1),
        tool_use(2, "toolu_3", "add"),
        input(2, "{\"a\": 3}"),
        stop(2),
        message_delta("tool_use"),
    ];
    let (given, turn, _, _) = read!(Anthropic, &events);
    assert_eq!(given[2].len(), 1);
    assert!(given[5].is_empty() && given[8].is_empty());
    assert_eq!(
        given[9],
        [
            text("toolu_2", "add", "{\"a\": }"),
            json_call("toolu_3", "add", json!({"a": 3})),
        ]
    );
    assert_eq!(turn.calls().len(), 3);
}

#[test]
fn anthropic_an_error_event_runs_no_call() {
    let events = [
        tool_use(0, "toolu_1", "add"),
        input(0, "{\"a\": 1}"),
        stop(0),
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
            .to_string(),
    ];
    let (_, turn, _, _) = read!(Anthropic, &events);
    assert_eq!(turn.end(), &StreamEnd::Failed("Overloaded".into()));
    assert!(turn.calls().is_empty());
}

#[test]
fn anthropic_an_empty_name_is_the_error_read_calls_gives() {
    let events = [
        block_start(
            0,
            json!({"type": "tool_use", "id": "toolu_1", "name": "", "input": {}}),
        ),
        stop(0),
    ];
    let mut stream = CallStream::<Anthropic>::new();
    stream.push(&events[0]).unwrap();
    let err = stream.push(&events[1]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "anthropic stream: content[0].name: empty tool name"
    );
}

// ----------------------------------------------------------- Responses

fn added(output_index: u64, item: Value) -> String {
    json!({"type": "response.output_item.added", "output_index": output_index, "item": item})
        .to_string()
}

fn item_done(output_index: u64, item: Value) -> String {
    json!({"type": "response.output_item.done", "output_index": output_index, "item": item})
        .to_string()
}

fn function_call(id: &str, call_id: &str, name: &str, arguments: &str, status: &str) -> Value {
    json!({"type": "function_call", "id": id, "call_id": call_id, "name": name, "arguments": arguments, "status": status})
}

fn arguments_delta(output_index: Option<u64>, item_id: &str, delta: &str) -> String {
    let mut event = json!({"type": "response.function_call_arguments.delta", "item_id": item_id, "delta": delta});
    if let Some(index) = output_index {
        event["output_index"] = json!(index);
    }
    event.to_string()
}

fn arguments_done(output_index: u64, item_id: &str, arguments: &str) -> String {
    json!({"type": "response.function_call_arguments.done", "output_index": output_index, "item_id": item_id, "arguments": arguments}).to_string()
}

fn completed() -> String {
    json!({"type": "response.completed", "response": {"status": "completed"}}).to_string()
}

#[test]
fn responses_gives_a_call_at_its_arguments_done_and_keeps_reasoning() {
    let reasoning =
        json!({"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA"});
    let events = [
        json!({"type": "response.created", "response": {"status": "in_progress"}}).to_string(),
        added(0, json!({"type": "reasoning", "id": "rs_1", "summary": []})),
        item_done(0, reasoning.clone()),
        added(
            1,
            function_call("fc_1", "call_1", "weather", "", "in_progress"),
        ),
        arguments_delta(Some(1), "fc_1", "{\"city\":"),
        arguments_delta(Some(1), "fc_1", ""),
        // No `output_index`: read from the item id.
        arguments_delta(None, "fc_1", "\"Oslo\"}"),
        arguments_done(1, "fc_1", "{\"city\":\"Oslo\"}"),
        item_done(
            1,
            function_call(
                "fc_1",
                "call_1",
                "weather",
                "{\"city\":\"Oslo\"}",
                "completed",
            ),
        ),
        completed(),
    ];
    let (given, turn, message, read) = read!(OpenAiResponses, &events);
    let expected = text("call_1", "weather", r#"{"city":"Oslo"}"#);
    assert_eq!(given[7], std::slice::from_ref(&expected));
    assert_eq!(turn.calls(), [expected]);
    assert_eq!(read.unwrap(), turn.calls());
    let output: Value = serde_json::from_str(&message).unwrap();
    assert_eq!(output[0], reasoning);
    assert_eq!(output[1]["status"], "completed");
    assert_eq!(output[1]["id"], "fc_1");
}

#[test]
fn responses_a_whole_call_in_its_done_item_keeps_its_arguments() {
    // A proxy that sends only the items' done events: a naive assembler
    // built from deltas has no arguments.
    let events = [
        item_done(
            0,
            function_call("fc_1", "call_1", "add", "{\"a\":1}", "completed"),
        ),
        completed(),
    ];
    let (given, turn, _, read) = read!(OpenAiResponses, &events);
    assert_eq!(given[0], [text("call_1", "add", r#"{"a":1}"#)]);
    assert_eq!(read.unwrap(), turn.calls());
}

#[test]
fn responses_the_added_items_arguments_are_not_prefilled_before_the_deltas() {
    // An item opened with `arguments: "{}"` then streamed: a naive
    // assembler reads `{}{"a":1}`.
    let events = [
        added(
            0,
            function_call("fc_1", "call_1", "add", "{}", "in_progress"),
        ),
        arguments_delta(Some(0), "fc_1", "{\"a\":1}"),
        arguments_done(0, "fc_1", "{\"a\":1}"),
        completed(),
    ];
    let (_, turn, _, read) = read!(OpenAiResponses, &events);
    assert_eq!(turn.calls(), [text("call_1", "add", r#"{"a":1}"#)]);
    assert_eq!(read.unwrap(), turn.calls());
}

#[test]
fn responses_cut_by_max_output_tokens_or_failed_runs_no_call() {
    // A naive assembler runs the calls whose deltas it has.
    let events = [
        added(0, function_call("fc_1", "call_1", "read", "", "in_progress")),
        arguments_delta(Some(0), "fc_1", "{\"path\":\"/et"),
        item_done(0, function_call("fc_1", "call_1", "read", "{\"path\":\"/et", "incomplete")),
        json!({"type": "response.incomplete", "response": {"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}}}).to_string(),
    ];
    let (given, turn, message, _) = read!(OpenAiResponses, &events);
    assert_eq!(turn.end(), &StreamEnd::Length);
    assert!(turn.calls().is_empty() && all(&given).is_empty());
    assert_eq!(message, "[]");

    let events = [
        item_done(0, function_call("fc_1", "call_1", "add", "{}", "completed")),
        json!({"type": "response.failed", "response": {"status": "failed", "error": {"code": "server_error", "message": "The model failed"}}}).to_string(),
    ];
    let (_, turn, _, _) = read!(OpenAiResponses, &events);
    assert_eq!(turn.end(), &StreamEnd::Failed("The model failed".into()));
    assert!(turn.calls().is_empty());
}

#[test]
fn responses_malformed_arguments_do_not_stop_the_others() {
    let events = [
        item_done(
            0,
            function_call("fc_1", "call_1", "add", "{\"a\":", "completed"),
        ),
        item_done(
            1,
            function_call("fc_2", "call_2", "add", "{\"a\":2}", "completed"),
        ),
        completed(),
    ];
    let (given, turn, _, read) = read!(OpenAiResponses, &events);
    assert!(given[0].is_empty() && given[1].is_empty());
    assert_eq!(
        given[2],
        [
            text("call_1", "add", r#"{"a":"#),
            text("call_2", "add", r#"{"a":2}"#)
        ]
    );
    assert_eq!(read.unwrap(), turn.calls());
}

// -------------------------------------------------------------- Gemini

fn gemini(parts: Value, finish: Option<&str>) -> String {
    let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
    if let Some(reason) = finish {
        candidate["finishReason"] = json!(reason);
    }
    json!({"candidates": [candidate]}).to_string()
}

#[test]
fn gemini_gives_each_whole_call_at_once_and_keeps_signatures() {
    let events = [
        gemini(json!([{"text": "Plan: ", "thought": true}]), None),
        gemini(
            json!([{"text": "lights then music.", "thought": true}]),
            None,
        ),
        gemini(
            json!([
                {"functionCall": {"name": "dim_lights", "args": {"brightness": 0.5}}, "thoughtSignature": "c2ln"},
                {"functionCall": {"name": "start_music"}}
            ]),
            None,
        ),
        gemini(
            json!([{"text": "", "thoughtSignature": "ZW5k"}]),
            Some("STOP"),
        ),
    ];
    let (given, turn, message, read) = read!(Gemini, &events);
    let expected = [
        json_call("", "dim_lights", json!({"brightness": 0.5})),
        json_call("", "start_music", json!({})),
    ];
    assert_eq!(given[2], expected);
    assert_eq!(turn.calls(), expected);
    assert_eq!(read.unwrap(), expected);
    let content: Value = serde_json::from_str(&message).unwrap();
    assert_eq!(
        content["parts"][0],
        json!({"text": "Plan: lights then music.", "thought": true})
    );
    assert_eq!(content["parts"][1]["thoughtSignature"], "c2ln");
    assert_eq!(
        content["parts"][3],
        json!({"text": "", "thoughtSignature": "ZW5k"})
    );
}

#[test]
fn gemini_vertex_streamed_arguments_grow_until_will_continue_ends() {
    // Vertex AI's `partialArgs`: a naive reader takes each part for a
    // whole call with no arguments.
    let events = [
        gemini(
            json!([{"functionCall": {"name": "weather", "willContinue": true}}]),
            None,
        ),
        gemini(
            json!([{"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Os", "willContinue": true}], "willContinue": true}}]),
            None,
        ),
        gemini(
            json!([{"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "lo"}, {"jsonPath": "$.days", "numberValue": 3}], "willContinue": true}}]),
            None,
        ),
        gemini(json!([{"functionCall": {}}]), None),
        gemini(json!([]), Some("STOP")),
    ];
    let (given, turn, _, read) = read!(Gemini, &events);
    let expected = json_call("", "weather", json!({"city": "Oslo", "days": 3}));
    assert!(given[..3].iter().all(Vec::is_empty));
    assert_eq!(given[3], std::slice::from_ref(&expected));
    assert_eq!(read.unwrap(), [expected]);
    assert_eq!(turn.calls().len(), 1);
}

#[test]
fn gemini_max_tokens_safety_and_errors_run_no_call() {
    let call = gemini(
        json!([{"functionCall": {"id": "c1", "name": "add", "args": {"a": 1}}}]),
        None,
    );
    for (finish, end) in [
        ("MAX_TOKENS", StreamEnd::Length),
        ("SAFETY", StreamEnd::Filtered),
        (
            "MALFORMED_FUNCTION_CALL",
            StreamEnd::Other("MALFORMED_FUNCTION_CALL".into()),
        ),
    ] {
        let (_, turn, _, _) = read!(Gemini, [call.clone(), gemini(json!([]), Some(finish))]);
        assert_eq!(turn.end(), &end);
        assert!(turn.calls().is_empty());
    }
    let error = json!({"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}).to_string();
    let (_, turn, _, _) = read!(Gemini, [call, error]);
    assert_eq!(
        turn.end(),
        &StreamEnd::Failed("The model is overloaded.".into())
    );
}

#[test]
fn gemini_a_duplicate_id_is_the_error_read_calls_gives() {
    let call = gemini(json!([{"functionCall": {"id": "c1", "name": "add"}}]), None);
    let mut stream = CallStream::<Gemini>::new();
    stream.push(&call).unwrap();
    let err = stream.push(&call).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"gemini stream: parts[1].functionCall.id: duplicate call id "c1", first at parts[0].functionCall.id"#
    );
}

// ----------------------------------------------------------- bounded errors

#[test]
fn every_error_is_bounded_whatever_the_events_size() {
    let long = "x".repeat(100_000);
    let events = [
        fragment(Some(0), Some(&long), Some("add"), json!("{}")),
        fragment(Some(1), Some(&long), Some("add"), json!("{}")),
    ];
    let mut stream = CallStream::<OpenAiChat>::new();
    stream.push(&events[0]).unwrap();
    stream.push(&events[1]).unwrap();
    let err = stream.push(&chat_finish("tool_calls")).unwrap_err();
    assert!(matches!(err, ReadCallsError::DuplicateId { .. }));
    assert!(err.to_string().len() < 400, "{}", err.to_string().len());
    let bad = format!(r#"{{"type":"content_block_start","index":"{long}"}}"#);
    let err = CallStream::<Anthropic>::new().push(&bad).unwrap_err();
    assert!(err.to_string().len() < 400, "{err}");
    let end = json!({"choices": [{"delta": {}, "finish_reason": long}]}).to_string();
    let (_, turn, _, _) = read!(OpenAiChat, [end]);
    assert!(matches!(turn.end(), StreamEnd::Other(reason) if reason.chars().count() <= 65));
}
