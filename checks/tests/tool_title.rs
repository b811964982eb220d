//! A tool's title, a name for people: MCP's `Tool.title` in its
//! declaration and in a served `tools/list`, from `with_title` and from
//! `#[tool(title = "...")]`, and kept by a tool consumed over MCP.

use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolresult::mcp::{McpClient, McpServer};
use toolresult::provider::{Mcp, Provider};
use toolresult::tool::{self, Tool, ToolSafety};
use toolresult::toolbox::Toolbox;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    city: String,
}

fn weather() -> impl Tool {
    tool::function("weather", "Weather in a city", |c: City| c.city)
        .unwrap()
        .with_title("City weather")
        .with_safety(ToolSafety::ReadOnly)
}

/// Says hello.
#[toolresult::tool(title = "Hello")]
fn hello() -> String {
    "hello".to_owned()
}

#[test]
fn the_mcp_declaration_carries_the_title_after_the_name() {
    assert_eq!(
        serde_json::to_string(&Mcp::declare(&weather())).unwrap(),
        r#"{"name":"weather","title":"City weather","description":"Weather in a city","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true}}"#
    );
    let untitled = tool::function("plain", "No title", |c: City| c.city).unwrap();
    assert_eq!(untitled.title(), None);
    assert!(
        !serde_json::to_string(&Mcp::declare(&untitled))
            .unwrap()
            .contains(r#""title":"#)
    );
}

#[test]
fn the_attribute_gives_the_title() {
    let tool = hello::tool();
    assert_eq!(tool.title(), Some("Hello"));
    assert_eq!(Mcp::declare(&tool).title(), Some("Hello"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_carries_titles_and_a_consumer_keeps_them() {
    let mut toolbox = Toolbox::new();
    toolbox.register(weather()).unwrap();
    toolbox.register(hello::tool()).unwrap();
    let server = McpServer::new(toolbox).unwrap();

    // On the wire.
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let session = server.session();
    tokio::spawn(async move {
        if let Ok(running) = session.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = BufReader::new(read).lines();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ] {
        write.write_all(line.as_bytes()).await.unwrap();
        write.write_all(b"\n").await.unwrap();
    }
    let listed = loop {
        let message: Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        if message["id"] == 2 {
            break message;
        }
    };
    let titles: Vec<(&Value, &Value)> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| (&tool["name"], &tool["title"]))
        .collect();
    assert_eq!(
        titles,
        [
            (&json!("weather"), &json!("City weather")),
            (&json!("hello"), &json!("Hello"))
        ]
    );

    // Through a client.
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let session = server.session();
    tokio::spawn(async move {
        if let Ok(running) = session.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let client = McpClient::connect(client_end).await.unwrap();
    let remote: Vec<(String, Option<String>)> = client
        .tools()
        .await
        .unwrap()
        .iter()
        .map(|tool| (tool.name().to_owned(), tool.title().map(str::to_owned)))
        .collect();
    assert_eq!(
        remote,
        [
            ("weather".to_owned(), Some("City weather".to_owned())),
            ("hello".to_owned(), Some("Hello".to_owned()))
        ]
    );
}
