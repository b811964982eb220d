//! An rmcp server whose tools return the typed result, called by an rmcp
//! client over an in-process duplex transport.
// The client side is rmcp's client, which `mcp-client` turns on.
#![cfg(feature = "mcp-client")]

use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde::Serialize;
use serde_json::json;
use toolresult::canonical::{ContentPart, PartLimit};
use toolresult::{Failure, ToolError, ToolResult};

const SECRET: &str = "postgres://admin:hunter2-server-sentinel@db";

#[derive(Serialize)]
struct Weather {
    city: String,
    celsius: f32,
}

#[derive(Clone)]
struct WeatherServer;

impl WeatherServer {
    fn weather(city: &str) -> ToolResult<Weather> {
        if city == "Atlantis" {
            let io = std::io::Error::new(std::io::ErrorKind::NotFound, SECRET);
            return ToolResult::fail(
                Failure::new(ToolError::new("unknown city Atlantis").with_suggestion("try Oslo"))
                    .with_source(io),
            );
        }
        ToolResult::ok(Weather {
            city: city.to_owned(),
            celsius: -3.5,
        })
    }
}

impl ServerHandler for WeatherServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let city = request
            .arguments
            .as_ref()
            .and_then(|args| args.get("city"))
            .and_then(|city| city.as_str())
            .unwrap_or_default()
            .to_owned();
        match request.name.as_ref() {
            "weather" => Self::weather(&city).into_call_tool_result(),
            "count" => ToolResult::<usize>::ok(city.len()).into_call_tool_result(),
            "radar" => {
                let png =
                    ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())
                        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                Self::weather(&city)
                    .with_parts([png])
                    .into_call_tool_result()
            }
            other => Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
        }
    }
}

/// Serves `WeatherServer` on one end of a duplex pipe, calls `tool` from a
/// client on the other, and returns the client's `CallToolResult` as JSON.
async fn call(tool: &'static str, city: &str) -> serde_json::Value {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(async move {
        let running = WeatherServer
            .serve(server_end)
            .await
            .expect("server starts");
        running.waiting().await.expect("server runs");
    });
    let client = ().serve(client_end).await.expect("client connects");
    let arguments = json!({ "city": city })
        .as_object()
        .cloned()
        .expect("an object");
    let answer: CallToolResult = client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(arguments))
        .await
        .expect("the call answers");
    client.cancel().await.expect("client closes");
    server.abort();
    serde_json::to_value(&answer).expect("a CallToolResult serialises")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

#[test]
fn a_typed_object_success_arrives_as_structured_content_and_the_same_json_as_text() {
    let answer = runtime().block_on(call("weather", "Oslo"));
    assert_eq!(
        answer,
        json!({
            "content": [{"type": "text", "text": r#"{"city":"Oslo","celsius":-3.5}"#}],
            "structuredContent": {"city": "Oslo", "celsius": -3.5},
            "isError": false
        })
    );
}

#[test]
fn a_typed_failure_arrives_as_an_error_without_its_source() {
    let answer = runtime().block_on(call("weather", "Atlantis"));
    assert_eq!(
        answer,
        json!({
            "content": [{
                "type": "text",
                "text": r#"{"error":{"message":"unknown city Atlantis","suggestion":"try Oslo"}}"#
            }],
            "isError": true
        })
    );
    assert!(!answer.to_string().contains("hunter2"));
}

#[test]
fn a_non_object_success_is_text_only() {
    let answer = runtime().block_on(call("count", "Oslo"));
    assert_eq!(
        answer,
        json!({"content": [{"type": "text", "text": "4"}], "isError": false})
    );
}

#[test]
fn parts_follow_the_text_block() {
    let answer = runtime().block_on(call("radar", "Oslo"));
    let golden = include_str!("fixtures/fixture.png.base64").trim();
    assert_eq!(
        answer,
        json!({
            "content": [
                {"type": "text", "text": r#"{"city":"Oslo","celsius":-3.5}"#},
                {"type": "image", "data": golden, "mimeType": "image/png"}
            ],
            "structuredContent": {"city": "Oslo", "celsius": -3.5},
            "isError": false
        })
    );
}
