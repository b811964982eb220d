//! Raw HTTP against a streamable-HTTP MCP server, as a 2026-07-28 client
//! speaks it: a server on a free port of 127.0.0.1, a POST read whole,
//! the JSON-RPC messages of its answer. Shared by the tests that need the
//! bytes on the wire.

#![allow(dead_code)] // each test file uses what it needs

use std::future::Future;
use std::time::Duration;

use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use toolresult::mcp::McpServer;

/// How long a test may take: a hang fails it, never blocks the suite.
pub const LIMIT: Duration = Duration::from_secs(30);
/// The protocol revision the requests speak.
pub const V2026: &str = "2026-07-28";

/// Serves `server` over streamable HTTP with `config` on a free port of
/// 127.0.0.1; its address (`host:port`).
pub async fn serve(server: &McpServer, config: StreamableHttpServerConfig) -> String {
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
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub messages: Vec<Value>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The message answering request `id`.
    pub fn answer(&self, id: i64) -> &Value {
        self.messages
            .iter()
            .find(|m| m["id"] == id && m.get("method").is_none())
            .unwrap_or_else(|| panic!("no answer to {id}: {self:?}"))
    }

    pub fn methods(&self) -> Vec<&str> {
        self.messages
            .iter()
            .filter_map(|m| m["method"].as_str())
            .collect()
    }
}

/// POSTs `body` to `/mcp` of `address` with `headers` (besides the ones
/// every POST has), and reads the whole answer.
pub async fn post(address: &str, headers: &[(&str, &str)], body: &str) -> Answer {
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

/// The headers of a 2026-07-28 request of `method` about `name`.
pub fn headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![("MCP-Protocol-Version", V2026), ("Mcp-Method", method)];
    if let Some(name) = name {
        headers.push(("Mcp-Name", name));
    }
    headers
}

/// Runs `test` under the time limit: a hang fails it, never blocks.
pub async fn bounded<F: Future<Output = ()>>(test: F) {
    tokio::time::timeout(LIMIT, test)
        .await
        .expect("the test did not finish in time");
}
