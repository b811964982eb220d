//! A toolbox served over streamable HTTP (`toolresult::mcp::McpServer`)
//! to requests of MCP 2026-07-28, each standing alone, written byte by
//! byte as a client of that revision sends them: the methods it removed
//! are not found, a request gets log messages only at the level its
//! `_meta` asks for, a parked call asks nothing back, nothing of a request
//! is kept; and what the server checks before any handler sees a request
//! (hosts, origins, the headers of 2026-07-28, body size), and the input
//! schemas it lists, every keyword kept.

use std::time::Duration;

use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use schemars::Schema;
use serde_json::{Map, Value, json};
use toolresult::canonical::Request;
use toolresult::mcp::McpServer;
use toolresult::tool::{self, Arguments, CallContext, Calling, LogLevel, Tool, ToolSafety};
use toolresult::toolbox::Toolbox;
use toolresult::{IntoToolResult, ToolResult};

mod stateless_http;
use stateless_http::{Answer, V2026, bounded, headers, post, serve};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Echo {
    /// Mirrored by the client into the `Mcp-Param-Value` header.
    #[schemars(extend("x-mcp-header" = "Value"))]
    value: String,
}

/// The conformance suite's JSON Schema 2020-12 fixture.
fn fixture() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"},
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false,
    })
}

/// A tool whose input schema is the fixture, written by hand.
struct Declared(Schema, Schema);

impl Tool for Declared {
    fn name(&self) -> &str {
        "declared"
    }
    fn description(&self) -> &str {
        "A schema of every 2020-12 keyword"
    }
    fn input_schema(&self) -> &Schema {
        &self.0
    }
    fn output_schema(&self) -> &Schema {
        &self.1
    }
    fn model_facing_schema(&self) -> &Schema {
        &self.1
    }
    fn safety(&self) -> ToolSafety {
        ToolSafety::ReadOnly
    }
    fn call<'a>(&'a self, _: &Arguments, _: &CallContext<'_>) -> Calling<'a> {
        Calling::ready(ToolResult::<String>::ok("ok".into()).lower())
    }
}

/// `noisy` (logs at info then at error), `ask` (parks on a question, says
/// what was answered), `echo` (an `x-mcp-header` argument), `declared`.
fn server() -> McpServer {
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(20));
    toolbox
        .register(
            tool::function("noisy", "Logs twice", |_: NoArgs, cx: &CallContext| {
                cx.log(LogLevel::Info, "quiet line");
                cx.log(LogLevel::Error, "loud line");
                "logged"
            })
            .unwrap(),
        )
        .unwrap();
    toolbox
        .register(
            tool::function(
                "ask",
                "Asks a name",
                |_: NoArgs, cx: &CallContext| match cx.answer() {
                    Some(answer) => ToolResult::<String>::ok(format!("answered {}", answer.ok)),
                    None => ToolResult::pending(Request::input("Your name?").with_data(
                        Map::from_iter([(
                            McpServer::REQUESTED_SCHEMA.to_owned(),
                            json!({"type": "object", "properties": {"name": {"type": "string"}}}),
                        )]),
                    )),
                },
            )
            .unwrap(),
        )
        .unwrap();
    toolbox
        .register(
            tool::function("echo", "Echoes a value", |e: Echo| e.value)
                .unwrap()
                .with_safety(ToolSafety::ReadOnly),
        )
        .unwrap();
    let output = serde_json::from_value(json!({"type": "string"})).unwrap();
    toolbox
        .register(Declared(serde_json::from_value(fixture()).unwrap(), output))
        .unwrap();
    McpServer::new(toolbox).unwrap()
}

/// A 2026-07-28 request `id` of `method` with `params`, its `_meta` the
/// required keys (and `caps` as the client's capabilities) merged with
/// `meta`.
fn request(id: i64, method: &str, mut params: Value, caps: Value, meta: Value) -> String {
    let mut all = json!({
        "io.modelcontextprotocol/protocolVersion": V2026,
        "io.modelcontextprotocol/clientCapabilities": caps,
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    });
    if let (Some(all), Some(meta)) = (all.as_object_mut(), meta.as_object()) {
        all.extend(meta.clone());
    }
    params["_meta"] = all;
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// Headers of a request, name and value.
type Headers<'a> = Vec<(&'a str, &'a str)>;

async fn call(address: &str, id: i64, tool: &str, caps: Value, meta: Value) -> Answer {
    let body = request(
        id,
        "tools/call",
        json!({"name": tool, "arguments": {}}),
        caps,
        meta,
    );
    post(address, &headers("tools/call", Some(tool)), &body).await
}

/// `initialize` and `logging/setLevel`, which 2026-07-28 removed, are
/// answered `404` and `method_not_found`, the request's id echoed, well
/// formed or not; a 2025 client still opens its session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_methods_2026_removed_are_not_found() {
    bounded(async {
        let address = serve(&server(), StreamableHttpServerConfig::default()).await;
        let set_level = request(
            7,
            "logging/setLevel",
            json!({"level": "debug"}),
            json!({}),
            json!({}),
        );
        let bare_level = request(8, "logging/setLevel", json!({}), json!({}), json!({}));
        let initialize = request(9, "initialize", json!({}), json!({}), json!({}));
        for (id, method, body) in [
            (7, "logging/setLevel", set_level),
            (8, "logging/setLevel", bare_level),
            (9, "initialize", initialize),
        ] {
            let answer = post(&address, &headers(method, None), &body).await;
            assert_eq!(answer.status, 404, "{method}: {answer:?}");
            assert_eq!(
                answer.answer(id)["error"]["code"],
                -32601,
                "{method}: {answer:?}"
            );
        }
        let hello = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}});
        let answer = post(&address, &[], &hello.to_string()).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        assert_eq!(answer.answer(1)["result"]["protocolVersion"], "2025-11-25");
        assert!(answer.header("mcp-session-id").is_some(), "{answer:?}");
    })
    .await;
}

/// A 2026-07-28 call gets no log message when its `_meta` sets no
/// `logLevel` (whatever the server's default for 2025 sessions), and only
/// those at or above the level it sets; and no session of it is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_messages_go_only_at_the_level_the_request_sets() {
    bounded(async {
        let server = server().log_level(LogLevel::Debug);
        let address = serve(&server, StreamableHttpServerConfig::default()).await;
        let silent = call(&address, 1, "noisy", json!({}), json!({})).await;
        assert_eq!(silent.status, 200, "{silent:?}");
        assert_eq!(silent.answer(1)["result"]["content"][0]["text"], "logged");
        assert!(silent.methods().is_empty(), "no log asked: {silent:?}");
        assert!(silent.header("mcp-session-id").is_none(), "{silent:?}");

        let meta = json!({"io.modelcontextprotocol/logLevel": "warning"});
        let loud = call(&address, 2, "noisy", json!({}), meta).await;
        let logged: Vec<&Value> = loud
            .messages
            .iter()
            .filter(|m| m["method"] == "notifications/message")
            .collect();
        assert_eq!(logged.len(), 1, "{loud:?}");
        assert_eq!(logged[0]["params"]["level"], "error");
        assert_eq!(logged[0]["params"]["data"], "loud line");
        assert_eq!(loud.answer(2)["result"]["content"][0]["text"], "logged");

        // The level of one request is not the next one's.
        let again = call(&address, 3, "noisy", json!({}), json!({})).await;
        assert!(again.methods().is_empty(), "{again:?}");
    })
    .await;
}

/// A 2026-07-28 call that parks on a question, from a client that
/// declared elicitation in its request, asks nothing back on its stream
/// (that revision has no request from server to client): it is answered
/// with the pending result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parked_call_asks_nothing_back() {
    bounded(async {
        let address = serve(&server(), StreamableHttpServerConfig::default()).await;
        let caps = json!({"elicitation": {"form": {}}});
        let answer = call(&address, 4, "ask", caps, json!({})).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        assert!(
            answer.methods().is_empty(),
            "a request on the stream: {answer:?}"
        );
        let text = answer.answer(4)["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(text.contains("Your name?"), "{text}");
    })
    .await;
}

/// Hosts and origins are loopback unless configured: a foreign `Host` or
/// `Origin` is answered `403` before any handler sees the request, the
/// server's own origin is served; configured hosts bring their origins.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_hosts_and_origins_are_refused() {
    bounded(async {
        let address = serve(&server(), StreamableHttpServerConfig::default()).await;
        let port = address.rsplit(':').next().unwrap().to_owned();
        let body = request(1, "tools/list", json!({}), json!({}), json!({}));
        let list = headers("tools/list", None);
        let with = |extra: Vec<(&'static str, String)>| {
            let mut all: Vec<(String, String)> = list
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect();
            all.extend(extra.into_iter().map(|(n, v)| (n.to_owned(), v)));
            all
        };
        for (case, extra, status) in [
            (
                "own origin",
                vec![("Origin", format!("http://127.0.0.1:{port}"))],
                200,
            ),
            (
                "localhost origin",
                vec![("Origin", format!("http://localhost:{port}"))],
                200,
            ),
            (
                "foreign origin",
                vec![("Origin", "http://evil.example.com".to_owned())],
                403,
            ),
            (
                "foreign host",
                vec![("Host", "evil.example.com".to_owned())],
                403,
            ),
        ] {
            let all = with(extra);
            let borrowed: Vec<(&str, &str)> =
                all.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
            let answer = post(&address, &borrowed, &body).await;
            assert_eq!(answer.status, status, "{case}: {answer:?}");
        }

        let configured = StreamableHttpServerConfig::default().with_allowed_hosts(["127.0.0.1"]);
        let address = serve(&server(), configured).await;
        for (origin, status) in [
            ("http://127.0.0.1:1".to_owned(), 200),
            ("http://localhost:1".to_owned(), 403),
        ] {
            let mut all = list.clone();
            all.push(("Origin", &origin));
            let answer = post(&address, &all, &body).await;
            assert_eq!(answer.status, status, "{origin}: {answer:?}");
        }
    })
    .await;
}

/// The headers of 2026-07-28 must agree with the body: a `Mcp-Method` or
/// `Mcp-Name` that does not, or a tool's `x-mcp-header` argument without
/// its `Mcp-Param-*` header, is `400` and `-32020`; one that agrees (base64
/// or plain) is served. A body past the limit is `413`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_must_agree_with_the_body_and_bodies_stay_small() {
    bounded(async {
        let config = StreamableHttpServerConfig::default().with_max_request_body_bytes(4096);
        let address = serve(&server(), config).await;
        let body = request(
            1,
            "tools/call",
            json!({"name": "echo", "arguments": {"value": "Hello"}}),
            json!({}),
            json!({}),
        );
        let call = headers("tools/call", Some("echo"));
        let cases: [(&str, Headers, u16); 5] = [
            (
                "plain",
                [call.clone(), vec![("Mcp-Param-Value", "Hello")]].concat(),
                200,
            ),
            (
                "base64",
                [
                    call.clone(),
                    vec![("Mcp-Param-Value", "=?base64?SGVsbG8=?=")],
                ]
                .concat(),
                200,
            ),
            ("missing header", call.clone(), 400),
            (
                "other value",
                [call.clone(), vec![("Mcp-Param-Value", "Bye")]].concat(),
                400,
            ),
            (
                "other method",
                vec![
                    ("MCP-Protocol-Version", V2026),
                    ("Mcp-Method", "tools/list"),
                    ("Mcp-Param-Value", "Hello"),
                ],
                400,
            ),
        ];
        for (case, headers, status) in cases {
            let answer = post(&address, &headers, &body).await;
            assert_eq!(answer.status, status, "{case}: {answer:?}");
            if status == 400 {
                assert_eq!(
                    answer.answer(1)["error"]["code"],
                    -32020,
                    "{case}: {answer:?}"
                );
            } else {
                assert_eq!(answer.answer(1)["result"]["content"][0]["text"], "Hello");
            }
        }
        let huge = request(
            2,
            "tools/call",
            json!({"name": "echo", "arguments": {"value": "x".repeat(8192)}}),
            json!({}),
            json!({}),
        );
        let answer = post(&address, &call, &huge).await;
        assert_eq!(answer.status, 413, "{answer:?}");
    })
    .await;
}

/// `tools/list` gives a tool's input schema as the tool declared it, every
/// JSON Schema 2020-12 keyword kept (`$anchor`, `allOf`/`anyOf`,
/// `if`/`then`/`else` among them), and the `x-mcp-header` of a derived
/// schema's property.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_schemas_keep_every_keyword() {
    bounded(async {
        let address = serve(&server(), StreamableHttpServerConfig::default()).await;
        let body = request(1, "tools/list", json!({}), json!({}), json!({}));
        let answer = post(&address, &headers("tools/list", None), &body).await;
        let tools = answer.answer(1)["result"]["tools"]
            .as_array()
            .unwrap()
            .clone();
        let schema_of = |name: &str| {
            tools
                .iter()
                .find(|tool| tool["name"] == name)
                .map(|tool| tool["inputSchema"].clone())
                .unwrap()
        };
        assert_eq!(schema_of("declared"), fixture());
        assert_eq!(
            schema_of("echo")["properties"]["value"]["x-mcp-header"],
            "Value"
        );
    })
    .await;
}
