//! A call parked at MCP 2026-07-28 and sent again (`McpServer::input_required`):
//! one session over an in-memory duplex (newline-delimited JSON-RPC, each
//! request standing alone with its `_meta`), a tool `ask` that parks on the
//! request `name` and answers what it was told.
//!
//! The input, up to its first `0xff`: a first line, the city argument
//! (lossy UTF-8), then the rest, the `inputResponses` of the call sent again
//! (JSON; text that is not JSON goes as a string). After the `0xff`: edits
//! of the sealed `requestState`, three bytes each (a big-endian position
//! in the state, a byte made printable ASCII).
//!
//! The first call is an input-required result asking `name` with a state.
//! The call sent again with that state, edited or not, and responses that
//! are not an object (nor `null`) is refused with `invalid_params` for
//! `tools/call`; with responses that are:
//!
//! - edited into another text, is refused with `invalid_params` whose
//!   message begins `requestState refused: `, whatever the responses;
//! - unchanged, is never refused for its state: with no response `name`,
//!   it asks `name` again; with a response `name` that is an elicitation
//!   result, it is the tool's answer to it (`hello …`, `declined: decline`,
//!   `declined: cancel`); with any other response `name`, it is refused
//!   with `invalid_params` saying the response is not an elicitation result.

use std::time::Duration;

use rmcp::model::ElicitResult;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolresult::ToolResult;
use toolresult::canonical::Request;
use toolresult::tool::{self, CallContext};
use toolresult::toolbox::Toolbox;

use super::providers;

#[derive(Deserialize, JsonSchema)]
struct City {
    city: String,
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(10));
    let ask = tool::function("ask", "Asks a name", |c: City, cx: &CallContext| {
        match cx.answer() {
            Some(answer) if answer.ok => ToolResult::<String>::ok(format!(
                "hello {} in {}",
                Value::Object(answer.data.clone().unwrap_or_default()),
                c.city
            )),
            Some(answer) => ToolResult::ok(format!(
                "declined: {}",
                answer.reason.as_deref().unwrap_or("")
            )),
            None => ToolResult::pending(Request::input("Your name?").with_id("name").with_data(
                Map::from_iter([(
                    toolresult::mcp::McpServer::REQUESTED_SCHEMA.to_owned(),
                    json!({"type": "object", "properties": {"name": {"type": "string"}}}),
                )]),
            )),
        }
    });
    toolbox
        .register(ask.unwrap_or_else(|e| panic!("the tool is named: {e}")))
        .unwrap_or_else(|e| panic!("the tool registers: {e}"));
    toolbox
}

/// A `tools/call` of `ask` in `city` as request `id` at 2026-07-28, with
/// `more` params.
fn call(id: i64, city: &str, more: Option<(&Value, &str)>) -> String {
    let mut params = json!({
        "name": "ask",
        "arguments": {"city": city},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "toolresult-fuzz", "version": "0.0.0"},
        },
    });
    if let Some((responses, state)) = more {
        params["inputResponses"] = responses.clone();
        params["requestState"] = json!(state);
    }
    let mut line =
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string();
    line.push('\n');
    line
}

/// Sends `line` and reads until the answer to `id`.
async fn round<R, W>(reader: &mut BufReader<R>, writer: &mut W, line: &str, id: i64) -> Value
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    writer
        .write_all(line.as_bytes())
        .await
        .unwrap_or_else(|e| panic!("writing the call: {e}"));
    let mut text = String::new();
    loop {
        text.clear();
        let read = reader
            .read_line(&mut text)
            .await
            .unwrap_or_else(|e| panic!("reading the server: {e}"));
        assert!(read > 0, "the server closed before answering {id}");
        let message: Value = serde_json::from_str(text.trim_end())
            .unwrap_or_else(|e| panic!("the server wrote a line that is not JSON ({e}): {text}"));
        assert!(
            message.get("method").and_then(Value::as_str) != Some("elicitation/create"),
            "a 2026-07-28 request was asked back: {message}"
        );
        if message["id"] == id {
            return message;
        }
    }
}

/// The state, edited: each edit sets one byte (made printable ASCII).
fn edited(state: &str, edits: &[u8]) -> String {
    let mut bytes = state.as_bytes().to_vec();
    for edit in edits.chunks_exact(3) {
        let position = usize::from(u16::from_be_bytes([edit[0], edit[1]]));
        if let Some(byte) = bytes.get_mut(position) {
            *byte = b' ' + edit[2] % 95;
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

pub fn check(data: &[u8]) {
    let (head, edits) = match data.iter().position(|&b| b == 0xff) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let head = String::from_utf8_lossy(head);
    let (city, responses) = head.split_once('\n').unwrap_or((&head, ""));
    let responses: Value =
        serde_json::from_str(responses).unwrap_or_else(|_| Value::String(responses.to_owned()));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("a runtime: {e}"));
    runtime.block_on(async {
        let server = providers::mcp_server_input_required(toolbox(), [0x5a; 32]);
        let (server_end, client_end) = tokio::io::duplex(64 * 1024);
        let serving = tokio::spawn(providers::serve_mcp(server, server_end));
        let (read, mut write) = tokio::io::split(client_end);
        let mut reader = BufReader::new(read);

        let first = round(&mut reader, &mut write, &call(1, city, None), 1).await;
        let result = &first["result"];
        assert_eq!(result["resultType"], "input_required", "{first}");
        assert_eq!(
            result["inputRequests"]["name"]["method"], "elicitation/create",
            "{first}"
        );
        let state = result["requestState"]
            .as_str()
            .unwrap_or_else(|| panic!("no requestState: {first}"))
            .to_owned();

        let sent = edited(&state, edits);
        let again = call(2, city, Some((&responses, &sent)));
        let second = round(&mut reader, &mut write, &again, 2).await;
        let message = second["error"]["message"].as_str().unwrap_or("");
        if !(responses.is_object() || responses.is_null()) {
            // Not a map of responses: params MCP does not allow.
            assert_eq!(second["error"]["code"], -32602, "{second}");
            assert!(
                message.starts_with("invalid params for `tools/call`"),
                "{second}"
            );
        } else if sent != state {
            assert_eq!(second["error"]["code"], -32602, "{second}");
            assert!(message.starts_with("requestState refused: "), "{second}");
        } else {
            assert!(!message.starts_with("requestState refused"), "{second}");
            match responses.get("name") {
                None => assert_eq!(
                    second["result"]["resultType"], "input_required",
                    "asked again: {second}"
                ),
                Some(response) => match serde_json::from_value::<ElicitResult>(response.clone()) {
                    Ok(_) => {
                        let text = second["result"]["content"][0]["text"]
                            .as_str()
                            .unwrap_or_else(|| panic!("no text: {second}"));
                        assert!(
                            text.starts_with("hello ")
                                || text == "declined: decline"
                                || text == "declined: cancel",
                            "{second}"
                        );
                    }
                    Err(_) => {
                        assert_eq!(second["error"]["code"], -32602, "{second}");
                        assert!(
                            message.starts_with(
                                "the input response `name` is not an elicitation result"
                            ),
                            "{second}"
                        );
                    }
                },
            }
        }
        let _ = write.shutdown().await;
        drop(write);
        drop(reader);
        let served = tokio::time::timeout(Duration::from_secs(60), serving).await;
        assert!(
            matches!(served, Ok(Ok(_))),
            "the session did not end well: {served:?}"
        );
    });
}
