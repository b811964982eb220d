//! A toolbox served over streamable HTTP (`toolresult::mcp::McpServer`)
//! to requests of MCP 2026-07-28, each standing alone, written byte by
//! byte as a client of that revision sends them: the methods it removed
//! are not found, a request gets log messages only at the level its
//! `_meta` asks for, a parked call asks nothing back, nothing of a request
//! is kept; and what the server checks before any handler sees a request
//! (hosts, origins, the headers of 2026-07-28, body size), and the input
//! schemas it lists, every keyword kept.

use std::future::Future;
use std::time::Duration;

use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use schemars::Schema;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use toolresult::canonical::Request;
use toolresult::mcp::McpServer;
use toolresult::tool::{self, Arguments, CallContext, Calling, LogLevel, Tool, ToolSafety};
use toolresult::toolbox::Toolbox;
use toolresult::{IntoToolResult, ToolResult};

const LIMIT: Duration = Duration::from_secs(30);
const V2026: &str = "2026-07-28";

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

/// Serves `server` over streamable HTTP with `config` on a free port of
/// 127.0.0.1; its address (`host:port`).
async fn serve(server: &McpServer, config: StreamableHttpServerConfig) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let service = server.streamable_http(config.with_sse_keep_alive(None));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            stream.set_nodelay(true).unwrap();
            let service = hyper_util::service::TowerToHyperService::new(service.clone());
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service)
                    .await;
            });
        }
    });
    address.to_string()
}

/// An HTTP answer: its status, its headers (names lowercase), and the
/// JSON-RPC messages of its body (one JSON body, or each SSE `data:`).
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    messages: Vec<Value>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The message answering request `id`.
    fn answer(&self, id: i64) -> &Value {
        self.messages
            .iter()
            .find(|m| m["id"] == id && m.get("method").is_none())
            .unwrap_or_else(|| panic!("no answer to {id}: {self:?}"))
    }

    fn methods(&self) -> Vec<&str> {
        self.messages
            .iter()
            .filter_map(|m| m["method"].as_str())
            .collect()
    }
}

/// POSTs `body` to `/mcp` of `address` with `headers` (besides the ones
/// every POST has), and reads the whole answer.
async fn post(address: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        request.push_str(&format!("Host: {address}\r\n"));
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let raw = String::from_utf8(raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_owned()
    };
    let messages = if body.trim_start().starts_with('{') {
        vec![serde_json::from_str(&body).unwrap()]
    } else {
        body.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str(data.trim()).ok())
            .collect()
    };
    Answer {
        status,
        headers,
        messages,
    }
}

/// A chunked body, joined.
fn dechunk(mut body: &str) -> String {
    let mut joined = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        joined.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    joined
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

/// The headers of a 2026-07-28 request of `method` about `name`.
fn headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![("MCP-Protocol-Version", V2026), ("Mcp-Method", method)];
    if let Some(name) = name {
        headers.push(("Mcp-Name", name));
    }
    headers
}

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

/// Runs `test` under the time limit: a hang fails it, never blocks.
async fn bounded<F: Future<Output = ()>>(test: F) {
    tokio::time::timeout(LIMIT, test)
        .await
        .expect("the test did not finish in time");
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
