//! Input-required results at MCP 2026-07-28 (`McpServer::input_required`),
//! written byte by byte as a client of that revision sends them: a parked
//! call answers its request as an input request with a sealed
//! `requestState`, and the call sent again resumes on any server holding
//! the key; a state tampered with, expired or another call's is refused
//! saying which; a decline reaches the tool; a missing response asks again.

use std::time::Duration;

use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use serde_json::{Map, Value, json};
use toolresult::ToolResult;
use toolresult::canonical::Request;
use toolresult::mcp::McpServer;
use toolresult::seal::Keyring;
use toolresult::tool::{self, CallContext};
use toolresult::toolbox::Toolbox;

mod stateless_http;
use stateless_http::{V2026, bounded, headers, post, serve};

const KEY: [u8; 32] = [0x42; 32];

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    city: String,
}

/// A server of `ask` (parks on the request `name`, then greets whoever was
/// named in the city given, or says why not), its states sealed with
/// `key` and valid for `ttl`. Each call makes a new toolbox and server:
/// two of them share nothing but what they are given.
fn server(key: [u8; 32], ttl: Duration) -> McpServer {
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(20));
    toolbox
        .register(
            tool::function("ask", "Asks a name", |c: City, cx: &CallContext| {
                match cx.answer() {
                    Some(answer) if answer.ok => {
                        let name = answer
                            .data
                            .as_ref()
                            .and_then(|data| data.get("name"))
                            .and_then(Value::as_str)
                            .unwrap_or("nobody");
                        ToolResult::<String>::ok(format!("hello {name} in {}", c.city))
                    }
                    Some(answer) => ToolResult::ok(format!(
                        "declined: {}",
                        answer.reason.as_deref().unwrap_or("")
                    )),
                    None => ToolResult::pending(
                        Request::input("Your name?").with_id("name").with_data(Map::from_iter([(
                            McpServer::REQUESTED_SCHEMA.to_owned(),
                            json!({"type": "object", "properties": {"name": {"type": "string"}}}),
                        )])),
                    ),
                }
            })
            .unwrap(),
        )
        .unwrap();
    toolbox
        .register(
            tool::function("forever", "Asks for ever", |_: City, _: &CallContext| {
                ToolResult::<String>::pending(Request::input("Again?").with_id("name"))
            })
            .unwrap(),
        )
        .unwrap();
    McpServer::new(toolbox)
        .unwrap()
        .input_required(Keyring::new(key).unwrap(), ttl)
}

/// A 2026-07-28 request `id` of `method` with `params`, its `_meta` the
/// required keys, the client taking form elicitations.
fn request(id: i64, method: &str, mut params: Value) -> String {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": V2026,
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// Calls `ask` in `city` as request `id`, with `more` params (the input
/// responses and the state of a call sent again); the JSON-RPC answer.
async fn ask(address: &str, id: i64, city: &str, more: Value) -> Value {
    call(address, id, "ask", city, more).await
}

/// Calls `tool` in `city` as request `id`, with `more` params.
async fn call(address: &str, id: i64, tool: &str, city: &str, more: Value) -> Value {
    let mut params = json!({"name": tool, "arguments": {"city": city}});
    if let (Some(params), Some(more)) = (params.as_object_mut(), more.as_object()) {
        params.extend(more.clone());
    }
    let body = request(id, "tools/call", params);
    let answer = post(address, &headers("tools/call", Some(tool)), &body).await;
    answer.answer(id).clone()
}

/// The `requestState` of an input-required result asking for `name`.
fn state_of(answer: &Value) -> String {
    let result = &answer["result"];
    assert_eq!(result["resultType"], "input_required", "{answer}");
    let asked = &result["inputRequests"]["name"];
    assert_eq!(asked["method"], "elicitation/create", "{answer}");
    assert_eq!(asked["params"]["mode"], "form", "{answer}");
    assert_eq!(asked["params"]["message"], "Your name?", "{answer}");
    result["requestState"].as_str().unwrap().to_owned()
}

fn accepted(state: &str) -> Value {
    json!({
        "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}},
        "requestState": state,
    })
}

/// The text of a complete result.
fn text(answer: &Value) -> &str {
    assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
    answer["result"]["content"][0]["text"].as_str().unwrap()
}

/// The message of an `invalid_params` error.
fn refusal(answer: &Value) -> &str {
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    answer["error"]["message"].as_str().unwrap()
}

/// A call parked on one server is resumed by another, which shares only
/// the key, with the client's response; extra responses are ignored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parked_call_is_resumed_by_another_server_sharing_the_key() {
    bounded(async {
        let config = StreamableHttpServerConfig::default;
        let ttl = Duration::from_secs(60);
        let first = serve(&server(KEY, ttl), config()).await;
        let second = serve(&server(KEY, ttl), config()).await;
        let state = state_of(&ask(&first, 1, "Oslo", json!({})).await);

        let mut again = accepted(&state);
        again["inputResponses"]["unexpected"] = json!({"action": "accept"});
        again["anotherParam"] = json!(true);
        assert_eq!(
            text(&ask(&second, 2, "Oslo", again).await),
            "hello Ada in Oslo"
        );

        // A server with another key does not take it.
        let stranger = serve(&server([0x17; 32], ttl), config()).await;
        let refused = ask(&stranger, 3, "Oslo", accepted(&state)).await;
        assert!(refusal(&refused).contains("tampered"), "{refused}");
    })
    .await;
}

/// A state changed on the way, expired, or sealed for another call's
/// arguments is refused with `invalid_params`, its message saying which.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tampered_expired_and_other_calls_states_are_refused() {
    bounded(async {
        let config = StreamableHttpServerConfig::default;
        let address = serve(&server(KEY, Duration::from_secs(60)), config()).await;
        let state = state_of(&ask(&address, 1, "Oslo", json!({})).await);

        // One character of the payload changed: still a token, not ours.
        let (version, rest) = state.split_once('.').unwrap();
        let mut payload: Vec<char> = rest.chars().collect();
        let middle = payload.len() / 4;
        payload[middle] = if payload[middle] == 'A' { 'B' } else { 'A' };
        let forged = format!("{version}.{}", payload.into_iter().collect::<String>());
        let refused = ask(&address, 2, "Oslo", accepted(&forged)).await;
        assert_eq!(
            refusal(&refused),
            "requestState refused: sealed token was tampered with or sealed by another key: its mac does not match"
        );

        let refused = ask(&address, 3, "Bergen", accepted(&state)).await;
        assert_eq!(
            refusal(&refused),
            "requestState refused: sealed token was issued for another call: its `arguments` differs"
        );

        let brief = serve(&server(KEY, Duration::from_millis(200)), config()).await;
        let short = state_of(&ask(&brief, 4, "Oslo", json!({})).await);
        tokio::time::sleep(Duration::from_millis(600)).await;
        let refused = ask(&brief, 5, "Oslo", accepted(&short)).await;
        assert!(
            refusal(&refused).starts_with("requestState refused: sealed token expired at unix time"),
            "{refused}"
        );
    })
    .await;
}

/// A decline reaches the tool as its decline, with the reason the
/// elicitation path gives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_is_the_tools_to_answer() {
    bounded(async {
        let address = serve(
            &server(KEY, Duration::from_secs(60)),
            StreamableHttpServerConfig::default(),
        )
        .await;
        let state = state_of(&ask(&address, 1, "Oslo", json!({})).await);
        let declined = json!({
            "inputResponses": {"name": {"action": "decline"}},
            "requestState": state,
        });
        let answer = ask(&address, 2, "Oslo", declined).await;
        assert_eq!(text(&answer), format!("declined: {}", McpServer::DECLINED));
    })
    .await;
}

/// A call sent again without a response to its request is asked again,
/// with a fresh state that resumes it; a response that is not an
/// elicitation result is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_response_asks_again() {
    bounded(async {
        let address = serve(
            &server(KEY, Duration::from_secs(60)),
            StreamableHttpServerConfig::default(),
        )
        .await;
        let state = state_of(&ask(&address, 1, "Oslo", json!({})).await);
        let wrong = json!({
            "inputResponses": {"wrong_key": {"action": "accept", "content": {"name": "Eve"}}},
            "requestState": state,
        });
        let asked = state_of(&ask(&address, 2, "Oslo", wrong).await);
        assert_eq!(
            text(&ask(&address, 3, "Oslo", accepted(&asked)).await),
            "hello Ada in Oslo"
        );

        let number = json!({"inputResponses": {"name": 12345}, "requestState": asked});
        let refused = ask(&address, 4, "Oslo", number).await;
        assert!(
            refusal(&refused).starts_with("the input response `name` is not an elicitation result"),
            "{refused}"
        );
    })
    .await;
}

/// A call sent with its responses and no state runs afresh, and each
/// request it parks on that has a response is answered by it at once
/// (extra responses ignored); a response of another shape is no answer,
/// and the request is asked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn responses_sent_up_front_answer_the_requests_they_name() {
    bounded(async {
        let address = serve(
            &server(KEY, Duration::from_secs(60)),
            StreamableHttpServerConfig::default(),
        )
        .await;
        let up_front = json!({"inputResponses": {
            "name": {"action": "accept", "content": {"name": "Ada"}},
            "unknown_extra_key": {"action": "accept"},
        }});
        assert_eq!(
            text(&ask(&address, 1, "Oslo", up_front).await),
            "hello Ada in Oslo"
        );
        let declined = json!({"inputResponses": {"name": {"action": "decline"}}});
        assert_eq!(
            text(&ask(&address, 2, "Oslo", declined).await),
            "declined: decline"
        );
        let number = json!({"inputResponses": {"name": 12345}});
        state_of(&ask(&address, 3, "Oslo", number).await);
        let other = json!({"inputResponses": {"wrong_key": {"action": "accept"}}});
        state_of(&ask(&address, 4, "Oslo", other).await);
    })
    .await;
}

/// A call that parks again round after round is asked as often as one
/// turn resumes a call, then answered with its pending result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_parked_round_after_round_ends_as_a_turn_would() {
    bounded(async {
        let address = serve(
            &server(KEY, Duration::from_secs(60)),
            StreamableHttpServerConfig::default(),
        )
        .await;
        let mut answer = call(&address, 0, "forever", "Oslo", json!({})).await;
        for round in 1..=Toolbox::MAX_RESUMES {
            assert_eq!(
                answer["result"]["resultType"], "input_required",
                "round {round}: {answer}"
            );
            let state = answer["result"]["requestState"]
                .as_str()
                .unwrap()
                .to_owned();
            let again = json!({
                "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}},
                "requestState": state,
            });
            answer = call(&address, i64::from(round), "forever", "Oslo", again).await;
        }
        assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
        assert_eq!(answer["result"]["isError"], true, "{answer}");
        assert_eq!(answer["result"]["content"][0]["text"], "Again?", "{answer}");
    })
    .await;
}
