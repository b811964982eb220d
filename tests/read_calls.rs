//! Reading the tool calls of one assistant turn: golden tests on each
//! provider's documented example messages (`tests/data/`), the exact error
//! for each kind of malformed message, and the order of a long turn.

use serde_json::{Value, json};
use toolresult::provider::{
    Anthropic, Call, Gemini, Mcp, OpenAiChat, OpenAiResponses, Provider, ReadCallsError,
};
use toolresult::tool::Arguments;

/// A documented example message, as stored in `tests/data/`.
fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{path}: {err}"))
}

/// The part of a documented example the reader takes (`/choices/0/message`).
fn part(document: &str, pointer: &str) -> String {
    let value: Value = serde_json::from_str(document).unwrap();
    value.pointer(pointer).unwrap().to_string()
}

fn text(id: &str, name: &str, arguments: &str) -> Call {
    Call::new(id, name, Arguments::Text(arguments.to_owned()))
}

fn json(id: &str, name: &str, arguments: Value) -> Call {
    Call::new(id, name, Arguments::Json(arguments))
}

#[track_caller]
fn error(result: Result<Vec<Call>, ReadCallsError>) -> String {
    result.unwrap_err().to_string()
}

// ---- golden: the providers' documented examples ----

// Chat Completions API reference, "Create chat completion", example "Functions" (response).
#[test]
fn openai_chat_documented_function_call() {
    let message = part(
        &data("openai_chat_function_calling.json"),
        "/choices/0/message",
    );
    assert_eq!(
        OpenAiChat::read_calls(&message).unwrap(),
        [text(
            "call_abc123",
            "get_current_weather",
            "{\n\"location\": \"Boston, MA\"\n}"
        )]
    );
}

// Chat Completions API reference, "Create chat completion", example "Default" (response).
#[test]
fn openai_chat_documented_text_answer_has_no_calls() {
    let message = part(&data("openai_chat_default.json"), "/choices/0/message");
    assert_eq!(OpenAiChat::read_calls(&message).unwrap(), []);
}

// Responses API reference, "Create a model response", example "Functions" (response).
#[test]
fn openai_responses_documented_function_call() {
    let output = part(&data("openai_responses_function_calling.json"), "/output");
    assert_eq!(
        OpenAiResponses::read_calls(&output).unwrap(),
        [text(
            "call_unLAR8MvFNptuiZK6K6HCy5k",
            "get_current_weather",
            r#"{"location":"Boston, MA","unit":"celsius"}"#
        )]
    );
}

// Responses API reference, "Create a model response", example "Web search" (response):
// a `web_search_call` and a `message` item, no function call.
#[test]
fn openai_responses_documented_other_items_are_skipped() {
    let output = part(&data("openai_responses_web_search.json"), "/output");
    assert_eq!(OpenAiResponses::read_calls(&output).unwrap(), []);
}

// Anthropic docs, "Tool use examples" (docs.anthropic.com/es/docs/tool-use-examples),
// "Single tool": the response (the stored copy is the Spanish page; the JSON is the same).
#[test]
fn anthropic_documented_tool_use() {
    let message = data("anthropic_tool_use_examples_single_tool.json");
    assert_eq!(
        Anthropic::read_calls(&message).unwrap(),
        [json(
            "toolu_01A09q90qw90lq917835lq9",
            "get_weather",
            json!({"location": "San Francisco, CA", "unit": "celsius"})
        )]
    );
}

// Anthropic docs, "Tool use examples", "Single tool": Claude's final answer after the result.
#[test]
fn anthropic_documented_final_answer_has_no_calls() {
    let message = data("anthropic_tool_use_examples_final_answer.json");
    assert_eq!(Anthropic::read_calls(&message).unwrap(), []);
}

// Gemini API cookbook, "Function calling with REST" (quickstarts/rest/Function_calling_REST.ipynb),
// "Single-turn curl sample": the generateContent response; a call without an id.
#[test]
fn gemini_documented_function_call_without_id() {
    let content = part(
        &data("gemini_rest_single_turn_response.json"),
        "/candidates/0/content",
    );
    assert_eq!(
        Gemini::read_calls(&content).unwrap(),
        [json(
            "",
            "find_theaters",
            json!({"movie": "Barbie", "location": "Mountain View, CA"})
        )]
    );
}

// MCP specification 2025-06-18, Server features, Tools, "Calling Tools": the request.
#[test]
fn mcp_documented_tools_call() {
    assert_eq!(
        Mcp::read_calls(&data("mcp_tools_call_request.json")).unwrap(),
        [json("2", "get_weather", json!({"location": "New York"}))]
    );
}

// MCP specification 2025-06-18, Server features, Tools, "Listing Tools": the request.
#[test]
fn mcp_documented_tools_list_is_another_method() {
    assert_eq!(
        error(Mcp::read_calls(&data("mcp_tools_list_request.json"))),
        r#"mcp tools/call request: method: expected "tools/call", found "tools/list""#
    );
}

// ---- the whole response instead of the turn's part ----

#[test]
fn whole_responses_are_named_not_read_as_empty() {
    assert_eq!(
        error(OpenAiChat::read_calls(&data(
            "openai_chat_function_calling.json"
        ))),
        "openai chat message: expected an assistant message (a completion's `choices[0].message`), found a whole completion"
    );
    assert_eq!(
        error(OpenAiResponses::read_calls(&data(
            "openai_responses_function_calling.json"
        ))),
        "openai responses: output: invalid type: map, expected a sequence"
    );
    assert_eq!(
        error(Gemini::read_calls(&data(
            "gemini_rest_single_turn_response.json"
        ))),
        "gemini content: expected a candidate's content (`candidates[0].content`), found a whole response"
    );
}

// ---- parallel calls, hand-written (not from the docs) ----

#[test]
fn parallel_calls_keep_their_order() {
    let chat = r#"{"role":"assistant","content":null,"tool_calls":[
        {"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"Paris, France\"}"}},
        {"id":"call_b","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"Bogotá, Colombia\"}"}}]}"#;
    assert_eq!(
        OpenAiChat::read_calls(chat).unwrap(),
        [
            text("call_a", "get_weather", r#"{"location":"Paris, France"}"#),
            text(
                "call_b",
                "get_weather",
                r#"{"location":"Bogotá, Colombia"}"#
            ),
        ]
    );

    let gemini = r#"{"role":"model","parts":[
        {"functionCall":{"name":"power_disco_ball","args":{"power":true}},"thoughtSignature":"c2ln"},
        {"text":"and"},
        {"functionCall":{"name":"start_music","args":{"energetic":true,"loud":true}}},
        {"function_call":{"name":"dim_lights","args":{"brightness":0.5}}}]}"#;
    assert_eq!(
        Gemini::read_calls(gemini).unwrap(),
        [
            json("", "power_disco_ball", json!({"power": true})),
            json("", "start_music", json!({"energetic": true, "loud": true})),
            json("", "dim_lights", json!({"brightness": 0.5})),
        ]
    );

    let with_ids = r#"{"parts":[
        {"functionCall":{"id":"fc_1","name":"get_current_temperature","args":{"location":"Paris"}}},
        {"functionCall":{"id":"fc_2","name":"get_current_temperature","args":{"location":"London"}}}]}"#;
    assert_eq!(
        Gemini::read_calls(with_ids).unwrap(),
        [
            json(
                "fc_1",
                "get_current_temperature",
                json!({"location": "Paris"})
            ),
            json(
                "fc_2",
                "get_current_temperature",
                json!({"location": "London"})
            ),
        ]
    );
}

#[test]
fn a_thousand_calls_keep_their_order() {
    const N: usize = 1000;
    let chat: Vec<String> = (0..N)
        .map(|i| format!(r#"{{"id":"c{i}","type":"function","function":{{"name":"t{i}","arguments":"{{}}"}}}}"#))
        .collect();
    let chat = format!(r#"{{"tool_calls":[{}]}}"#, chat.join(","));
    let responses: Vec<String> = (0..N)
        .map(|i| format!(r#"{{"type":"reasoning","id":"rs_{i}"}},{{"type":"function_call","call_id":"c{i}","name":"t{i}","arguments":"{{}}"}}"#))
        .collect();
    let responses = format!("[{}]", responses.join(","));
    let anthropic: Vec<String> = (0..N)
        .map(|i| format!(r#"{{"type":"tool_use","id":"c{i}","name":"t{i}","input":{{}}}}"#))
        .collect();
    let anthropic = format!(r#"{{"content":[{}]}}"#, anthropic.join(","));
    let gemini: Vec<String> = (0..N)
        .map(|i| format!(r#"{{"functionCall":{{"id":"c{i}","name":"t{i}"}}}}"#))
        .collect();
    let gemini = format!(r#"{{"parts":[{}]}}"#, gemini.join(","));

    for calls in [
        OpenAiChat::read_calls(&chat).unwrap(),
        OpenAiResponses::read_calls(&responses).unwrap(),
        Anthropic::read_calls(&anthropic).unwrap(),
        Gemini::read_calls(&gemini).unwrap(),
    ] {
        assert_eq!(calls.len(), N);
        for (i, call) in calls.iter().enumerate() {
            assert_eq!(
                (call.id.as_str(), call.name.as_str()),
                (format!("c{i}").as_str(), format!("t{i}").as_str())
            );
        }
    }
}

// ---- malformed messages: the exact error ----

#[test]
fn openai_chat_malformed() {
    let cases = [
        (
            r#"{"tool_calls": ["#,
            "openai chat message: not JSON: EOF while parsing a list at line 1 column 16",
        ),
        (
            "{} x",
            "openai chat message: not JSON: trailing characters at line 1 column 4",
        ),
        (
            "[]",
            "openai chat message: invalid type: sequence, expected a JSON object",
        ),
        (
            r#"{"tool_calls":[{"id":7}]}"#,
            "openai chat message: tool_calls[0].id: invalid type: integer `7`, expected a string",
        ),
        (
            r#"{"tool_calls":[{"type":"function","function":{"name":"f","arguments":"{}"}}]}"#,
            "openai chat message: tool_calls[0]: missing field `id`",
        ),
        (
            r#"{"tool_calls":[{"id":"","type":"function","function":{"name":"f","arguments":"{}"}}]}"#,
            "openai chat message: tool_calls[0].id: empty call id",
        ),
        (
            r#"{"tool_calls":[{"id":"c","type":"function","function":{"arguments":"{}"}}]}"#,
            "openai chat message: tool_calls[0].function: missing field `name`",
        ),
        (
            r#"{"tool_calls":[{"id":"c","type":"function","function":{"name":"","arguments":"{}"}}]}"#,
            "openai chat message: tool_calls[0].function.name: empty tool name",
        ),
        (
            r#"{"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":{"a":1}}}]}"#,
            "openai chat message: tool_calls[0].function.arguments: invalid type: map, expected a string",
        ),
        (
            r#"{"tool_calls":[{"id":"c","function":{"name":"f","arguments":"{}"}}]}"#,
            "openai chat message: tool_calls[0]: missing field `type`",
        ),
        (
            r#"{"tool_calls":[{"id":"c","type":"custom","custom":{"name":"f","input":"x"}}]}"#,
            r#"openai chat message: tool_calls[0].type: expected "function", found "custom""#,
        ),
        (
            r#"{"tool_calls":[{"id":"c","type":"function"}]}"#,
            "openai chat message: tool_calls[0]: missing field `function`",
        ),
        (
            r#"{"tool_calls":[
                {"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}},
                {"id":"call_2","type":"function","function":{"name":"f","arguments":"{}"}},
                {"id":"call_1","type":"function","function":{"name":"g","arguments":"{}"}}]}"#,
            r#"openai chat message: tool_calls[2].id: duplicate call id "call_1", first at tool_calls[0].id"#,
        ),
    ];
    for (message, expected) in cases {
        assert_eq!(
            error(OpenAiChat::read_calls(message)),
            expected,
            "{message}"
        );
    }
}

#[test]
fn long_values_are_cut_to_64_characters() {
    let long = "x".repeat(100);
    let cut = "x".repeat(64);
    assert_eq!(
        error(OpenAiChat::read_calls(&format!(
            r#"{{"tool_calls":"{long}"}}"#
        ))),
        format!(
            r#"openai chat message: tool_calls: invalid type: string "{cut}…", expected a sequence"#
        )
    );
    assert_eq!(
        error(OpenAiChat::read_calls(&format!(
            r#"{{"tool_calls":[{{"id":"c","type":"{long}"}}]}}"#
        ))),
        format!(r#"openai chat message: tool_calls[0].type: expected "function", found "{cut}…""#)
    );
    assert_eq!(
        error(Mcp::read_calls(&format!(r#"{{"id":1,"method":"{long}"}}"#))),
        format!(r#"mcp tools/call request: method: expected "tools/call", found "{cut}…""#)
    );
    let call = |id: &str| format!(r#"{{"type":"tool_use","id":"{id}","name":"f","input":{{}}}}"#);
    assert_eq!(
        error(Anthropic::read_calls(&format!(
            r#"{{"content":[{},{}]}}"#,
            call(&long),
            call(&long)
        ))),
        format!(
            r#"anthropic message: content[1].id: duplicate call id "{cut}…", first at content[0].id"#
        )
    );
    // A short value is quoted whole.
    assert_eq!(
        error(OpenAiChat::read_calls(r#"{"tool_calls":"short"}"#)),
        r#"openai chat message: tool_calls: invalid type: string "short", expected a sequence"#
    );
}

#[test]
fn openai_responses_malformed() {
    let cases = [
        (
            "[",
            "openai responses: not JSON: EOF while parsing a list at line 1 column 1",
        ),
        (
            "[1]",
            "openai responses: output[0]: invalid type: integer `1`, expected an output item object",
        ),
        (
            r#"[{"type":"function_call","call_id":7,"name":"f","arguments":"{}"}]"#,
            "openai responses: output[0].call_id: invalid type: integer `7`, expected a string",
        ),
        (
            r#"[{"type":"function_call","call_id":"","name":"f","arguments":"{}"}]"#,
            "openai responses: output[0].call_id: empty call id",
        ),
        (
            r#"[{"type":"function_call","call_id":"c","arguments":"{}"}]"#,
            "openai responses: output[0]: missing field `name`",
        ),
        (
            r#"[{"type":"function_call","call_id":"c","name":"","arguments":"{}"}]"#,
            "openai responses: output[0].name: empty tool name",
        ),
        (
            r#"[{"type":"function_call","call_id":"c","name":"f"}]"#,
            "openai responses: output[0]: missing field `arguments`",
        ),
        (
            r#"[{"type":"function_call","call_id":"call_1","name":"f","arguments":"{}"},
                {"type":"reasoning","id":"rs_1","summary":[]},
                {"type":"function_call","call_id":"call_1","name":"g","arguments":"{}"}]"#,
            r#"openai responses: output[2].call_id: duplicate call id "call_1", first at output[0].call_id"#,
        ),
    ];
    for (output, expected) in cases {
        assert_eq!(
            error(OpenAiResponses::read_calls(output)),
            expected,
            "{output}"
        );
    }
}

#[test]
fn anthropic_malformed() {
    let cases = [
        (
            "",
            "anthropic message: not JSON: EOF while parsing a value at line 1 column 0",
        ),
        (
            r#"{"content":5}"#,
            "anthropic message: content: invalid type: integer `5`, expected an array of content blocks or a string",
        ),
        (
            r#"{"content":[{"text":"hi"}]}"#,
            "anthropic message: content[0]: missing field `type`",
        ),
        (
            r#"{"content":[{"type":"text","text":"hi"},{"type":"tool_use","id":7,"name":"f","input":{}}]}"#,
            "anthropic message: content[1].id: invalid type: integer `7`, expected a string",
        ),
        (
            r#"{"content":[{"type":"tool_use","name":"f","input":{}}]}"#,
            "anthropic message: content[0]: missing field `id`",
        ),
        (
            r#"{"content":[{"type":"tool_use","id":"","name":"f","input":{}}]}"#,
            "anthropic message: content[0].id: empty call id",
        ),
        (
            r#"{"content":[{"type":"tool_use","id":"t","input":{}}]}"#,
            "anthropic message: content[0]: missing field `name`",
        ),
        (
            r#"{"content":[{"type":"tool_use","id":"t","name":"","input":{}}]}"#,
            "anthropic message: content[0].name: empty tool name",
        ),
        (
            r#"{"content":[{"type":"tool_use","id":"toolu_1","name":"f","input":{}},{"type":"text","text":"and"},
                {"type":"tool_use","id":"toolu_1","name":"g","input":{}}]}"#,
            r#"anthropic message: content[2].id: duplicate call id "toolu_1", first at content[0].id"#,
        ),
    ];
    for (message, expected) in cases {
        assert_eq!(error(Anthropic::read_calls(message)), expected, "{message}");
    }
}

#[test]
fn anthropic_lenient_where_the_api_is() {
    assert_eq!(
        Anthropic::read_calls(r#"{"role":"assistant","content":"Hello"}"#).unwrap(),
        []
    );
    assert_eq!(
        Anthropic::read_calls(r#"{"role":"assistant"}"#).unwrap(),
        []
    );
    assert_eq!(
        Anthropic::read_calls(r#"{"content":[{"type":"tool_use","id":"t","name":"now"}]}"#)
            .unwrap(),
        [json("t", "now", json!({}))]
    );
}

#[test]
fn gemini_malformed() {
    let cases = [
        (
            "{",
            "gemini content: not JSON: EOF while parsing an object at line 1 column 1",
        ),
        (
            r#"{"parts":"hi"}"#,
            r#"gemini content: parts: invalid type: string "hi", expected a sequence"#,
        ),
        (
            r#"{"parts":[{"functionCall":{"args":{}}}]}"#,
            "gemini content: parts[0].functionCall: missing field `name`",
        ),
        (
            r#"{"parts":[{"functionCall":{"name":""}}]}"#,
            "gemini content: parts[0].functionCall.name: empty tool name",
        ),
        (
            r#"{"parts":[{"functionCall":{"name":"f","args":[1]}},{"functionCall":{"name":"f","id":5}}]}"#,
            "gemini content: parts[1].functionCall.id: invalid type: integer `5`, expected a string",
        ),
        (
            r#"{"parts":[{"functionCall":{"id":"fc_1","name":"f"}},{"functionCall":{"id":"fc_1","name":"g"}}]}"#,
            r#"gemini content: parts[1].functionCall.id: duplicate call id "fc_1", first at parts[0].functionCall.id"#,
        ),
    ];
    for (content, expected) in cases {
        assert_eq!(error(Gemini::read_calls(content)), expected, "{content}");
    }
}

#[test]
fn gemini_calls_without_ids_may_repeat() {
    assert_eq!(
        Gemini::read_calls(r#"{"role":"model","parts":[{"functionCall":{"name":"f"}},{"functionCall":{"name":"f","id":""}}]}"#)
            .unwrap(),
        [json("", "f", json!({})), json("", "f", json!({}))]
    );
    assert_eq!(Gemini::read_calls(r#"{"role":"model"}"#).unwrap(), []);
}

#[test]
fn mcp_ids_and_malformed() {
    assert_eq!(
        Mcp::read_calls(
            r#"{"jsonrpc":"2.0","id":"req-1","method":"tools/call","params":{"name":"now"}}"#
        )
        .unwrap(),
        [json("req-1", "now", json!({}))]
    );
    assert_eq!(
        Mcp::read_calls(
            r#"{"id":-3,"method":"tools/call","params":{"name":"f","arguments":null}}"#
        )
        .unwrap(),
        [json("-3", "f", json!({}))]
    );
    let cases = [
        (
            "nope",
            "mcp tools/call request: not JSON: expected ident at line 1 column 2",
        ),
        (
            r#"{"id":1,"params":{"name":"f"}}"#,
            "mcp tools/call request: missing field `method`",
        ),
        (
            r#"{"method":"tools/call","params":{"name":"f"}}"#,
            "mcp tools/call request: missing field `id`",
        ),
        (
            r#"{"id":null,"method":"tools/call","params":{"name":"f"}}"#,
            "mcp tools/call request: id: invalid type: null, expected a string or an integer",
        ),
        (
            r#"{"id":1.5,"method":"tools/call","params":{"name":"f"}}"#,
            "mcp tools/call request: id: invalid type: floating point `1.5`, expected a string or an integer",
        ),
        (
            r#"{"id":1,"method":"tools/call"}"#,
            "mcp tools/call request: missing field `params`",
        ),
        (
            r#"{"id":1,"method":"tools/call","params":{}}"#,
            "mcp tools/call request: params: missing field `name`",
        ),
        (
            r#"{"id":1,"method":"tools/call","params":{"name":""}}"#,
            "mcp tools/call request: params.name: empty tool name",
        ),
        (
            r#"{"id":1,"method":"tools/call","params":{"name":7}}"#,
            "mcp tools/call request: params.name: invalid type: integer `7`, expected a string",
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"mcp tools/call request: method: expected "tools/call", found "notifications/initialized""#,
        ),
    ];
    for (request, expected) in cases {
        assert_eq!(error(Mcp::read_calls(request)), expected, "{request}");
    }
}

#[test]
fn a_message_must_be_an_object_not_an_array() {
    for (result, style) in [
        (OpenAiChat::read_calls("[]"), "openai chat message"),
        (Anthropic::read_calls("[]"), "anthropic message"),
        (Gemini::read_calls("[]"), "gemini content"),
        (Mcp::read_calls("[]"), "mcp tools/call request"),
    ] {
        assert_eq!(
            error(result),
            format!("{style}: invalid type: sequence, expected a JSON object")
        );
    }
}

#[test]
fn the_error_is_a_std_error_with_its_parts() {
    let err = OpenAiChat::read_calls(r#"{"tool_calls":[{"id":7}]}"#).unwrap_err();
    let _: &dyn std::error::Error = &err;
    assert_eq!(
        err,
        ReadCallsError::Invalid {
            style: "openai chat message",
            path: "tool_calls[0].id".to_owned(),
            reason: "invalid type: integer `7`, expected a string".to_owned(),
        }
    );
}

#[test]
fn a_duplicate_id_names_the_first_call_after_other_items() {
    // Claude, the Responses API and Gemini lead with text, reasoning or a
    // thought far more often than not.
    let anthropic = r#"{"content":[
        {"type":"text","text":"Checking both."},
        {"type":"tool_use","id":"toolu_1","name":"f","input":{}},
        {"type":"tool_use","id":"toolu_1","name":"g","input":{}}]}"#;
    assert_eq!(
        Anthropic::read_calls(anthropic).unwrap_err().to_string(),
        r#"anthropic message: content[2].id: duplicate call id "toolu_1", first at content[1].id"#
    );
    let responses = r#"[
        {"type":"reasoning","id":"rs_1","summary":[]},
        {"type":"function_call","call_id":"call_1","name":"f","arguments":"{}"},
        {"type":"message","id":"m","content":[]},
        {"type":"function_call","call_id":"call_1","name":"g","arguments":"{}"}]"#;
    assert_eq!(
        OpenAiResponses::read_calls(responses)
            .unwrap_err()
            .to_string(),
        r#"openai responses: output[3].call_id: duplicate call id "call_1", first at output[1].call_id"#
    );
    let gemini = r#"{"role":"model","parts":[
        {"text":"thinking","thought":true},
        {"functionCall":{"id":"fc_1","name":"f","args":{}}},
        {"functionCall":{"id":"fc_1","name":"g","args":{}}}]}"#;
    assert_eq!(
        Gemini::read_calls(gemini).unwrap_err().to_string(),
        r#"gemini content: parts[2].functionCall.id: duplicate call id "fc_1", first at parts[1].functionCall.id"#
    );
}

#[test]
fn function_calls_beside_a_tool_search_call_are_read() {
    // A `tool_search_call`'s `arguments` is an object, not a string.
    let output = r#"[
        {"type":"tool_search_call","id":"tsc_1","call_id":null,"execution":"server",
         "arguments":{"paths":["crm"]},"status":"completed"},
        {"type":"tool_search_output","id":"tso_1","call_id":null,"execution":"server",
         "tools":[],"status":"completed"},
        {"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_customer",
         "arguments":"{\"id\":7}","status":"completed"}]"#;
    let calls = OpenAiResponses::read_calls(output).unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].name.as_str()),
        ("call_1", "get_customer")
    );
    assert_eq!(
        calls[0].arguments,
        Arguments::Text(r#"{"id":7}"#.to_owned())
    );
    // A `function_call` still wants strings.
    let wrong = r#"[{"type":"function_call","call_id":"call_1","name":"f","arguments":{"id":7}}]"#;
    assert_eq!(
        OpenAiResponses::read_calls(wrong).unwrap_err().to_string(),
        "openai responses: output[0].arguments: invalid type: map, expected a string"
    );
}

#[test]
fn a_call_written_as_an_array_is_refused() {
    // serde's derived structs read an array field by field.
    let chat = r#"{"tool_calls":[["call_1","function",["add","{}"]]]}"#;
    let chat_function =
        r#"{"tool_calls":[{"id":"call_1","type":"function","function":["add","{}"]}]}"#;
    let responses = r#"[["function_call","call_1","add","{}"]]"#;
    let anthropic = r#"{"content":[["tool_use","toolu_1","add",{}]]}"#;
    let gemini = r#"{"parts":[[["fc_1","add",{}]]]}"#;
    let gemini_call = r#"{"parts":[{"functionCall":["fc_1","add",{}]}]}"#;
    let mcp = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["add",{}]}"#;
    for (read, expected) in [
        (
            OpenAiChat::read_calls(chat),
            "openai chat message: tool_calls[0]: invalid type: sequence, expected a tool call object",
        ),
        (
            OpenAiChat::read_calls(chat_function),
            "openai chat message: tool_calls[0].function: invalid type: sequence, expected a function object",
        ),
        (
            OpenAiResponses::read_calls(responses),
            "openai responses: output[0]: invalid type: sequence, expected an output item object",
        ),
        (
            Anthropic::read_calls(anthropic),
            "anthropic message: content[0]: invalid type: sequence, expected a content block object",
        ),
        (
            Gemini::read_calls(gemini),
            "gemini content: parts[0]: invalid type: sequence, expected a part object",
        ),
        (
            Gemini::read_calls(gemini_call),
            "gemini content: parts[0].functionCall: invalid type: sequence, expected a function call object",
        ),
        (
            Mcp::read_calls(mcp),
            "mcp tools/call request: params: invalid type: sequence, expected a params object",
        ),
    ] {
        assert_eq!(read.unwrap_err().to_string(), expected);
    }
}
