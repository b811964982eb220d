//! An MCP server made of this crate's own tools, over streamable HTTP (or
//! stdio): the server the MCP conformance suite's server scenarios call
//! (`.ci/conformance.sh`). It is a user's own rmcp handler (`Conformance`)
//! with the suite's prompts, resources and completions, its tools handed
//! to an `McpServer` (`list_tools`, `call_tool`, `get_tool`), and beside
//! them the input requests a toolbox `Request` does not express (sampling,
//! roots, several kinds in one round, a prompt that asks first, a task
//! waiting on two requests at once: its tasks' calls run through it).
//!
//! ```text
//! cargo run -p toolresult-checks --bin mcp_server -- --port 3001   # http://127.0.0.1:3001/mcp
//! cargo run -p toolresult-checks --bin mcp_server -- --stdio
//! ```
#![allow(deprecated)] // MCP's sampling utility (SEP-2577) is still the 2025 revisions'.

use std::time::{Duration, SystemTime};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities,
    CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock,
    CreateMessageRequestParams, ErrorCode, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, Prompt as McpPrompt,
    PromptArgument, PromptMessage, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
    SamplingMessage, ServerCapabilities, ServerConfig, SetLevelRequestParams,
    SubscribeRequestParams, Tool as McpTool, UnsubscribeRequestParams,
};
use rmcp::model::{
    CancelTaskParams, CreateMessageRequest, ElicitRequest, ElicitRequestParams, ElicitationSchema,
    ElicitationSchemaBuilder, GetTaskParams, GetTaskResult, InputRequest, InputRequests,
    InputRequiredResult, InputResponses, ListRootsRequest, UpdateTaskParams,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use schemars::Schema;
use serde_json::{Map, Value, json};
use toolresult::canonical::{Answer, ContentPart, Request};
use toolresult::mcp::McpServer;
use toolresult::seal::Keyring;
use toolresult::tool::{
    self, Arguments, CallContext, Calling, LogLevel, TaskSupport, Tool, ToolSafety,
};
use toolresult::toolbox::Toolbox;
use toolresult::{IntoToolResult, ToolError, ToolResult};

/// A 1x1 red PNG.
const RED_PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Prompt {
    /// The prompt to send to the LLM.
    prompt: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Message {
    /// The message to show the user.
    message: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct CustomHeader {
    /// A value the client also sends as the `Mcp-Param-Value` header.
    #[schemars(extend("x-mcp-header" = "Value"))]
    value: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Sleep {
    /// How long, in milliseconds.
    ms: u64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut port = 3001_u16;
    let mut stdio = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--stdio" => stdio = true,
            "--port" => port = args.next().ok_or("--port needs a number")?.parse()?,
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let keyring = state_key()?;
    let tools =
        McpServer::new(toolbox()?)?.input_required(keyring.clone(), Duration::from_secs(15 * 60));
    // The tasks' calls run through the handler, so what it asks itself
    // (several input requests at once) is its tasks' too.
    let inner = Conformance {
        tools: tools.clone(),
        keyring: keyring.clone(),
    };
    let server = Conformance {
        tools: tools.tasks_through(inner),
        keyring,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        if stdio {
            server
                .serve(rmcp::transport::stdio())
                .await?
                .waiting()
                .await?;
            return Ok(());
        }
        serve_http(&server, port).await
    })
}

/// The key that seals a parked call's `requestState` at 2026-07-28: the
/// bytes of `MCP_REQUEST_STATE_KEY` (replicas share it), else 32 random
/// bytes (the states of one process only).
fn state_key() -> Result<Keyring, Box<dyn std::error::Error>> {
    if let Ok(key) = std::env::var("MCP_REQUEST_STATE_KEY") {
        return Ok(Keyring::new(key)?);
    }
    let mut key = [0u8; 32];
    std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut key)?;
    Ok(Keyring::new(key)?)
}

/// Serves `server` at `http://127.0.0.1:<port>/mcp` until Ctrl-C.
async fn serve_http(server: &Conformance, port: u16) -> Result<(), Box<dyn std::error::Error>> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    // Loopback hosts and origins only (the server's default): a page of
    // another site, or a DNS name rebound to 127.0.0.1, is answered 403.
    let service = server
        .tools
        .streamable_http_for(server.clone(), StreamableHttpServerConfig::default());
    eprintln!("mcp server on http://{}/mcp", listener.local_addr()?);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => accepted?,
            _ = tokio::signal::ctrl_c() => return Ok(()),
        };
        // An answer is small and the client waits for it: without this,
        // Nagle's algorithm holds its last segment until the client's
        // delayed ACK (~40 ms) on a connection the client reuses.
        stream.set_nodelay(true)?;
        let service = hyper_util::service::TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}

fn toolbox() -> Result<Toolbox, Box<dyn std::error::Error>> {
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(30));
    toolbox.register(
        tool::function(
            "test_simple_text",
            "Returns simple text",
            |_: NoArgs| "This is a simple text response for testing.",
        )?
        .with_safety(ToolSafety::ReadOnly),
    )?;
    toolbox.register(
        tool::function("test_image_content", "Returns an image", |_: NoArgs| {
            with_parts("", || {
                Ok(vec![part(
                    base64_decode(RED_PIXEL_PNG)?,
                    "image/png",
                    None,
                )?])
            })
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;
    toolbox.register(
        tool::function("test_audio_content", "Returns audio", |_: NoArgs| {
            with_parts("", || Ok(vec![part(silent_wav(), "audio/wav", None)?]))
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;
    toolbox.register(
        tool::function(
            "test_embedded_resource",
            "Returns an embedded resource",
            |_: NoArgs| {
                let text = b"This is an embedded resource content.".to_vec();
                with_parts("", || {
                    Ok(vec![part(
                        text,
                        "text/plain",
                        Some("embedded-resource.txt"),
                    )?])
                })
            },
        )?
        .with_safety(ToolSafety::ReadOnly),
    )?;
    toolbox.register(
        tool::function(
            "test_multiple_content_types",
            "Returns text, an image and a resource",
            |_: NoArgs| {
                with_parts("Multiple content types test:", || {
                    let json = br#"{"test":"data","value":123}"#.to_vec();
                    Ok(vec![
                        part(base64_decode(RED_PIXEL_PNG)?, "image/png", None)?,
                        part(
                            json,
                            "application/json",
                            Some("mixed-content-resource.json"),
                        )?,
                    ])
                })
            },
        )?
        .with_safety(ToolSafety::ReadOnly),
    )?;
    // The 2025 suite's name, and the 2026 one's (its log messages go to a
    // request that asks for them in its `_meta`, and to no other).
    for name in ["test_tool_with_logging", "test_logging_tool"] {
        toolbox.register(tool::function(
            name,
            "Sends three log messages while it runs",
            |_: NoArgs, cx: CallContext<'static>| async move {
                cx.log(LogLevel::Info, "Tool execution started");
                tokio::time::sleep(Duration::from_millis(50)).await;
                cx.log(LogLevel::Info, "Tool processing data");
                tokio::time::sleep(Duration::from_millis(50)).await;
                cx.log(LogLevel::Info, "Tool execution completed");
                "Logging test completed"
            },
        )?)?;
    }
    toolbox.register(tool::function(
        "test_error_handling",
        "Always fails",
        |_: NoArgs| {
            ToolResult::<()>::fail(ToolError::new(
                "This tool intentionally returns an error for testing",
            ))
        },
    )?)?;
    toolbox.register(tool::function(
        "test_tool_with_progress",
        "Reports progress 0, 50 and 100 of 100",
        |_: NoArgs, cx: CallContext<'static>| async move {
            cx.progress(0.0, Some(100.0), None);
            tokio::time::sleep(Duration::from_millis(50)).await;
            cx.progress(50.0, Some(100.0), None);
            tokio::time::sleep(Duration::from_millis(50)).await;
            cx.progress(100.0, Some(100.0), None);
            "Progress test completed"
        },
    )?)?;
    toolbox.register(tool::function(
        "test_sampling",
        "Asks the client's LLM",
        |args: Prompt, cx: CallContext<'static>| async move {
            let Some(peer) = cx.get::<Peer<RoleServer>>().cloned() else {
                return ToolResult::fail(ToolError::new("not called over MCP"));
            };
            let params =
                CreateMessageRequestParams::new(vec![SamplingMessage::user_text(args.prompt)], 100);
            match peer.create_message(params).await {
                Ok(reply) => {
                    let reply = serde_json::to_value(&reply.message).unwrap_or_default();
                    let text = reply["content"]["text"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned();
                    ToolResult::ok(format!("LLM response: {text}"))
                }
                Err(err) => ToolResult::fail(ToolError::new(format!("sampling failed: {err}"))),
            }
        },
    )?)?;
    toolbox.register(tool::function(
        "test_elicitation",
        "Asks the user for a username and an email",
        |args: Message, cx: &CallContext| {
            let schema = json!({
                "type": "object",
                "properties": {
                    "username": {"type": "string", "description": "User's response"},
                    "email": {"type": "string", "description": "User's email address"},
                },
                "required": ["username", "email"],
            });
            elicited(cx, "User response", &args.message, schema)
        },
    )?)?;
    toolbox.register(tool::function(
        "test_elicitation_sep1034_defaults",
        "Asks the user with a default for every primitive type",
        |_: NoArgs, cx: &CallContext| {
            let schema = json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "default": "John Doe"},
                    "age": {"type": "integer", "default": 30},
                    "score": {"type": "number", "default": 95.5},
                    "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
                    "verified": {"type": "boolean", "default": true},
                },
            });
            elicited(cx, "Elicitation completed", "Please review your details", schema)
        },
    )?)?;
    toolbox.register(tool::function(
        "test_elicitation_sep1330_enums",
        "Asks the user with the five kinds of enum",
        |_: NoArgs, cx: &CallContext| {
            let schema = json!({
                "type": "object",
                "properties": {
                    "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                    "titledSingle": {"type": "string", "oneOf": [
                        {"const": "value1", "title": "First Option"},
                        {"const": "value2", "title": "Second Option"},
                        {"const": "value3", "title": "Third Option"},
                    ]},
                    "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]},
                    "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
                    "titledMulti": {"type": "array", "items": {"anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"},
                    ]}},
                },
            });
            elicited(cx, "Elicitation completed", "Please choose", schema)
        },
    )?)?;
    toolbox.register(tool::function(
        "test_streaming_elicitation",
        "Asks the user for a name (a 2026-07-28 request gets the pending result, never a request on its stream)",
        |_: NoArgs, cx: &CallContext| {
            let schema = json!({
                "type": "object",
                "properties": {"name": {"type": "string", "description": "Your name"}},
                "required": ["name"],
            });
            elicited(cx, "Elicitation completed", "What is your name?", schema)
        },
    )?)?;
    toolbox.register(
        tool::function(
            "test_custom_header",
            "Echoes a value the client mirrors into a header (SEP-2243)",
            |args: CustomHeader| format!("value: {}", args.value),
        )?
        .with_safety(ToolSafety::ReadOnly),
    )?;
    toolbox.register(JsonSchema2020::new()?)?;
    input_required(&mut toolbox)?;
    tasks(&mut toolbox)?;
    // Not a conformance tool: a call that takes its time, to cancel or to
    // kill the server under.
    toolbox
        .register(tool::function(
            "sleep",
            "Sleeps for `ms` milliseconds, or until cancelled",
            |args: Sleep, cx: CallContext<'static>| async move {
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(args.ms)) => "slept",
                    () = cx.cancelled() => "cancelled",
                }
            },
        )?)?
        .timeout(None);
    Ok(toolbox)
}

// ---- The tasks extension's fixtures (SEP-2663) ----

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Greet {
    /// Whom to greet.
    name: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct SlowCompute {
    /// How long the computation takes, in seconds.
    seconds: u64,
    /// A label echoed in the result.
    label: Option<String>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct ConfirmDelete {
    /// The file to delete.
    filename: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct MaybeName {
    /// The name gathered before the task started.
    name: Option<String>,
}

/// The tools the tasks scenarios call: `greet` answers in its request;
/// the others run as tasks for a client that takes them (`failing_job`,
/// `multi_input` and `test_tool_with_task` for every client, refusing one
/// that does not).
fn tasks(toolbox: &mut Toolbox) -> Result<(), Box<dyn std::error::Error>> {
    toolbox.register(
        tool::function("greet", "Greets someone, at once", |args: Greet| {
            format!("Hello, {}!", args.name)
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;
    toolbox
        .register(
            tool::function(
                "slow_compute",
                "Computes for `seconds` seconds, or until cancelled",
                |args: SlowCompute, _: CallContext<'static>| async move {
                    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
                    let label = args.label.unwrap_or_default();
                    format!("computed for {}s: {label}", args.seconds)
                },
            )?
            .with_task_support(TaskSupport::Optional),
        )?
        .timeout(None);
    toolbox.register(
        tool::function(
            "failing_job",
            "Fails after a second",
            |_: NoArgs, _: CallContext<'static>| async move {
                tokio::time::sleep(Duration::from_secs(1)).await;
                ToolResult::<()>::fail(ToolError::new("the job failed, as it always does"))
            },
        )?
        .with_task_support(TaskSupport::Required),
    )?;
    toolbox.register(
        tool::function(
            "protocol_error_job",
            "Panics: the task fails",
            |_: NoArgs| -> Result<String, toolresult::Failure> { panic!("the job broke down") },
        )?
        .with_task_support(TaskSupport::Optional),
    )?;
    let confirm = || json!({"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]});
    toolbox.register(
        tool::function(
            "confirm_delete",
            "Deletes a file once the user confirms",
            move |args: ConfirmDelete, cx: &CallContext| match cx.answer() {
                None => asking("confirm", &format!("Delete {}?", args.filename), confirm()),
                Some(answer) => ToolResult::ok(format!("{}: {}", args.filename, action(answer))),
            },
        )?
        .with_task_support(TaskSupport::Optional),
    )?;
    // Its task's call is the handler's own (`Conformance::native_inputs`):
    // it asks a name and a confirmation at once, two input requests a
    // toolbox `Request` (one elicitation) does not express. Registered
    // here for its declaration and its task support; its body never runs.
    toolbox.register(
        tool::function(
            "multi_input",
            "Asks for a name and a confirmation at once",
            |_: NoArgs| {
                ToolResult::<()>::fail(ToolError::new("asked by the server's handler, in its task"))
            },
        )?
        .with_task_support(TaskSupport::Required),
    )?;
    // Its first round, asking the name, is the handler's own
    // (`Conformance::call_tool`); the call with the name runs as a task.
    toolbox.register(
        tool::function(
            "test_tool_with_task",
            "Greets the user whose name an input request gathered",
            |args: MaybeName| format!("Hello, {}!", args.name.unwrap_or_default()),
        )?
        .with_task_support(TaskSupport::Required),
    )?;
    Ok(())
}

/// `test_tool_with_task`'s first round (SEP-2322 before SEP-2663): asks the
/// user's name as an input request; with the answer, the call goes to the
/// server with the name, and runs as a task.
fn name_then_task(request: &mut CallToolRequestParams) -> Option<CallToolResponse> {
    let name = request
        .input_responses
        .as_ref()
        .and_then(|responses| responses.get("user_name"))
        .and_then(|response| response["content"]["name"].as_str())
        .map(str::to_owned);
    let Some(name) = name else {
        let params = serde_json::from_value(json!({
            "mode": "form",
            "message": "What is your name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        }))
        .ok()?;
        let asked = InputRequest::Elicitation(ElicitRequest::new(params));
        let requests = InputRequests::from_iter([("user_name".to_owned(), asked)]);
        return Some(InputRequiredResult::from_input_requests(requests).into());
    };
    request.arguments = Some(Map::from_iter([("name".to_owned(), Value::from(name))]));
    request.input_responses = None;
    request.request_state = None;
    None
}

// ---- end of the tasks fixtures ----

/// The input-required fixtures of 2026-07-28 (SEP-2322) this server can
/// ask, each an elicitation keyed by its request's id.
fn input_required(toolbox: &mut Toolbox) -> Result<(), Box<dyn std::error::Error>> {
    let name = || json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    for tool in [
        "test_input_required_result_elicitation",
        "test_input_required_result_tampered_state",
    ] {
        toolbox.register(tool::function(
            tool,
            "Asks the user's name as an input request",
            move |_: NoArgs, cx: &CallContext| match cx.answer() {
                None => asking("user_name", "What is your name?", name()),
                Some(answer) => ToolResult::ok(format!("Hello, {}", content(answer))),
            },
        )?)?;
    }
    toolbox.register(tool::function(
        "test_input_required_result_request_state",
        "Asks a confirmation, its state carried by the request state",
        |_: NoArgs, cx: &CallContext| match cx.answer() {
            None => asking(
                "confirm",
                "Confirm?",
                json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
            ),
            Some(answer) => ToolResult::ok(format!("state-ok: action={}", action(answer))),
        },
    )?)?;
    toolbox.register(tool::function(
        "test_input_required_result_multi_round",
        "Asks twice, one round each",
        move |_: NoArgs, cx: &CallContext| match cx.answer().map(|answer| answer.id.as_str()) {
            None => asking("step1", "Step 1: your name?", name()),
            Some("step1") => asking("step2", "Step 2: your name again?", name()),
            Some(_) => ToolResult::ok("both rounds answered".to_owned()),
        },
    )?)?;
    Ok(())
}

/// A pending request `id` asking `prompt` with `schema`.
fn asking(id: &str, prompt: &str, schema: Value) -> ToolResult<String> {
    ToolResult::pending(
        Request::input(prompt)
            .with_id(id)
            .with_data(Map::from_iter([(
                McpServer::REQUESTED_SCHEMA.to_owned(),
                schema,
            )])),
    )
}

/// Asks the user (a pending request with `schema`) on the first run; says
/// what they answered on the second.
fn elicited(cx: &CallContext, label: &str, prompt: &str, schema: Value) -> ToolResult<String> {
    match cx.answer() {
        None => ToolResult::pending(Request::input(prompt).with_data(Map::from_iter([(
            McpServer::REQUESTED_SCHEMA.to_owned(),
            schema,
        )]))),
        Some(answer) => ToolResult::ok(format!(
            "{label}: action={}, content={}",
            action(answer),
            content(answer)
        )),
    }
}

fn action(answer: &Answer) -> &str {
    match answer.reason.as_deref() {
        _ if answer.ok => "accept",
        Some(McpServer::DECLINED) => "decline",
        Some(McpServer::CANCELLED) | Some(_) | None => "cancel",
    }
}

fn content(answer: &Answer) -> String {
    answer.data.as_ref().map_or_else(
        || "{}".to_owned(),
        |data| Value::Object(data.clone()).to_string(),
    )
}

/// A tool whose input schema is written by hand, the conformance suite's
/// JSON Schema 2020-12 fixture: `$schema`, `$defs` with an `$anchor`,
/// `allOf`/`anyOf`, `if`/`then`/`else`, `additionalProperties`, each to
/// reach the wire as it is.
struct JsonSchema2020 {
    input: Schema,
    output: Schema,
}

impl JsonSchema2020 {
    fn new() -> Result<Self, serde_json::Error> {
        let input = serde_json::from_value(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
                },
            },
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
        }))?;
        let output = serde_json::from_value(json!({"type": "string"}))?;
        Ok(Self { input, output })
    }
}

impl Tool for JsonSchema2020 {
    fn name(&self) -> &str {
        "json_schema_2020_12_tool"
    }
    fn description(&self) -> &str {
        "Tool with JSON Schema 2020-12 features"
    }
    fn input_schema(&self) -> &Schema {
        &self.input
    }
    fn output_schema(&self) -> &Schema {
        &self.output
    }
    fn model_facing_schema(&self) -> &Schema {
        &self.output
    }
    fn safety(&self) -> ToolSafety {
        ToolSafety::ReadOnly
    }
    fn call<'a>(&'a self, args: &Arguments, _: &CallContext<'_>) -> Calling<'a> {
        let args = match args {
            Arguments::Json(value) => value.to_string(),
            Arguments::Text(text) => text.clone(),
            _ => String::new(),
        };
        Calling::ready(ToolResult::<String>::ok(format!("received {args}")).lower())
    }
}

/// `output` with the parts `parts` makes, or the error making them.
fn with_parts(
    output: &'static str,
    parts: impl FnOnce() -> Result<Vec<ContentPart>, ToolError>,
) -> ToolResult<&'static str> {
    match parts() {
        Ok(parts) => ToolResult::ok(output).with_parts(parts),
        Err(err) => ToolResult::fail(err),
    }
}

/// An inline part of `bytes`, named `name`.
fn part(bytes: Vec<u8>, mime_type: &str, name: Option<&str>) -> Result<ContentPart, ToolError> {
    let part =
        ContentPart::from_bytes(bytes, mime_type).map_err(|err| ToolError::new(err.to_string()))?;
    Ok(match name {
        Some(name) => part.with_name(name),
        None => part,
    })
}

fn base64_decode(text: &str) -> Result<Vec<u8>, ToolError> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|err| ToolError::new(format!("bad base64: {err}")))
}

/// 0.01 s of 8 kHz 8-bit mono silence, as a WAV file.
fn silent_wav() -> Vec<u8> {
    let samples = 80_u32;
    let mut wav = Vec::with_capacity(44 + samples as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + samples).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16_u32.to_le_bytes());
    wav.extend_from_slice(&1_u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1_u16.to_le_bytes()); // mono
    wav.extend_from_slice(&8000_u32.to_le_bytes());
    wav.extend_from_slice(&8000_u32.to_le_bytes());
    wav.extend_from_slice(&1_u16.to_le_bytes());
    wav.extend_from_slice(&8_u16.to_le_bytes());
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&samples.to_le_bytes());
    wav.resize(44 + samples as usize, 128);
    wav
}

/// The conformance server: a handler of its own, with the prompts,
/// resources and completions the suite asks for, and the toolbox's tools
/// handed to [`McpServer`] (`list_tools`, `call_tool`, `get_tool`).
#[derive(Clone)]
struct Conformance {
    tools: McpServer,
    /// Seals the state of the fixtures this handler asks itself.
    keyring: Keyring,
}

/// The input-required fixtures of 2026-07-28 (SEP-2322) that ask for more
/// than a toolbox's [`Request`] expresses (one elicitation): sampling,
/// roots, several kinds in one round, a prompt, and the tasks extension's
/// `multi_input` (two at once, in its task). This handler asks MCP's own
/// input requests beside the toolbox, as a handler of one's own may, its
/// `requestState` sealed with the server's key for the tool it asks for.
impl Conformance {
    /// The answer to a call of one of these fixtures; `None` for any other.
    fn native_inputs(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CallToolResponse, ErrorData>> {
        let name = request.name.as_ref();
        let asked = match name {
            "test_input_required_result_sampling" => vec![("capital_question", sampling())],
            "test_input_required_result_list_roots" => vec![("client_roots", roots())],
            // Outside its task, the server starts the task.
            "multi_input" if McpServer::task_of(context).is_some() => vec![
                ("name", elicitation("Your name?", "name")),
                ("confirm", confirmation("Sure?")),
            ],
            "test_input_required_result_multiple_inputs" => vec![
                ("user_name", elicitation("What is your name?", "name")),
                ("greeting", sampling()),
                ("client_roots", roots()),
            ],
            // Only what the request's client declared it takes.
            "test_input_required_result_capabilities" => {
                let caps = context.meta.client_capabilities().unwrap_or_default();
                let mut asked = Vec::new();
                if caps.elicitation.is_some() {
                    asked.push(("user_name", elicitation("What is your name?", "name")));
                }
                if caps.sampling.is_some() {
                    asked.push(("capital_question", sampling()));
                }
                if caps.roots.is_some() {
                    asked.push(("client_roots", roots()));
                }
                if asked.is_empty() {
                    return Some(Err(ErrorData::missing_required_client_capability(
                        ClientCapabilities::builder().enable_sampling().build(),
                    )));
                }
                asked
            }
            _ => return None,
        };
        let answered = self.answered(
            name,
            asked,
            request.input_responses.as_ref(),
            request.request_state.as_deref(),
        );
        Some(answered.map(|answered| match answered {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]).into(),
            Err(again) => again.into(),
        }))
    }

    /// `asked` answered: the responses as text when `responses` holds one
    /// for each key, else the input-required result asking them again with
    /// a new state. A state that came back must be this fixture's, sealed
    /// by this server's key.
    fn answered(
        &self,
        fixture: &str,
        asked: Vec<(&str, InputRequest)>,
        responses: Option<&InputResponses>,
        state: Option<&str>,
    ) -> Result<Result<String, InputRequiredResult>, ErrorData> {
        let binding = [("fixture", fixture)];
        if let Some(state) = state {
            self.keyring
                .open::<Vec<String>>(state, &binding, SystemTime::now())
                .map_err(|refused| {
                    ErrorData::invalid_params(format!("requestState refused: {refused}"), None)
                })?;
        }
        let given: Option<Vec<String>> = asked
            .iter()
            .map(|(key, _)| {
                let response = responses?.get(*key)?;
                Some(format!("{key}: {response}"))
            })
            .collect();
        if let Some(given) = given {
            return Ok(Ok(given.join("\n")));
        }
        let keys: Vec<&str> = asked.iter().map(|(key, _)| *key).collect();
        let expires = SystemTime::now().checked_add(Duration::from_secs(15 * 60));
        let sealed = self
            .keyring
            .seal(&keys, &binding, expires)
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
        let requests = asked
            .into_iter()
            .map(|(key, request)| (key.to_owned(), request))
            .collect();
        Ok(Err(InputRequiredResult::new(Some(requests), Some(sealed))))
    }
}

/// A form elicitation asking `message`, one required string `field`.
fn elicitation(message: &str, field: &str) -> InputRequest {
    form(message, ElicitationSchema::builder().required_string(field))
}

/// A form elicitation asking `message`, one required boolean `confirm`.
fn confirmation(message: &str) -> InputRequest {
    form(
        message,
        ElicitationSchema::builder().required_bool("confirm"),
    )
}

/// A form elicitation asking `message` with the schema `builder` makes.
fn form(message: &str, builder: ElicitationSchemaBuilder) -> InputRequest {
    InputRequest::Elicitation(ElicitRequest::new(
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: message.to_owned(),
            requested_schema: builder.build_unchecked(),
        },
    ))
}

/// A `sampling/createMessage` asking the capital of France.
fn sampling() -> InputRequest {
    InputRequest::CreateMessage(CreateMessageRequest::new(CreateMessageRequestParams::new(
        vec![SamplingMessage::user_text("What is the capital of France?")],
        100,
    )))
}

/// A `roots/list`.
fn roots() -> InputRequest {
    InputRequest::ListRoots(ListRootsRequest::default())
}

/// The suite's resources.
const STATIC_TEXT: &str = "test://static-text";
const STATIC_BINARY: &str = "test://static-binary";
const WATCHED: &str = "test://watched-resource";

/// Whether `context`'s request is of 2026-07-28 or later (answered alone).
fn stateless(context: &RequestContext<RoleServer>) -> bool {
    context
        .meta
        .protocol_version()
        .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28)
}

impl ServerHandler for Conformance {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .enable_prompts()
            .enable_resources()
            .enable_completions()
            .enable_tasks()
            .build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new(
            "toolresult-conformance",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.tools.list_tools(request, context).await
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Its task's call has the name already.
        if request.name == "test_tool_with_task"
            && McpServer::task_of(&context).is_none()
            && let Some(asked) = name_then_task(&mut request)
        {
            return Ok(asked);
        }
        // A tool that needs the client's sampling: at 2026-07-28 the
        // request says what its client takes, and one that did not
        // declare sampling is refused before the call runs.
        if request.name == "test_missing_capability" {
            let sampling = context
                .meta
                .client_capabilities()
                .is_some_and(|caps| caps.sampling.is_some());
            if !sampling {
                return Err(ErrorData::missing_required_client_capability(
                    ClientCapabilities::builder().enable_sampling().build(),
                ));
            }
            return Ok(
                CallToolResult::success(vec![ContentBlock::text("sampling declared")]).into(),
            );
        }
        // SEP-1699's tool: it lets go of its POST stream mid-call, and
        // answers on the stream the client resumes (`GET` with
        // `Last-Event-ID`).
        if request.name == "test_reconnection" {
            McpServer::close_stream(&context, Duration::from_millis(500)).await;
            tokio::time::sleep(Duration::from_millis(100)).await;
            let done = CallToolResult::success(vec![ContentBlock::text(
                "Reconnection test completed successfully",
            )]);
            return Ok(done.into());
        }
        if let Some(answer) = self.native_inputs(&request, &context) {
            return answer;
        }
        self.tools.call_tool(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<McpTool> {
        self.tools.get_tool(name)
    }

    async fn set_level(
        &self,
        _: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if stateless(&context) {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "logging/setLevel",
                None,
            ));
        }
        Ok(())
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new(STATIC_TEXT, "static-text").with_mime_type("text/plain"),
            Resource::new(STATIC_BINARY, "static-binary").with_mime_type("image/png"),
            Resource::new(WATCHED, "watched-resource").with_mime_type("text/plain"),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        // The suite's template, then the server's (the budget's artifacts).
        let mut templates = vec![
            ResourceTemplate::new("test://template/{id}/data", "template")
                .with_mime_type("application/json"),
        ];
        templates.extend(self.tools.resource_templates());
        Ok(ListResourceTemplatesResult::with_all_items(templates))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        if let Some(artifact) = self.tools.read_resource(uri).await {
            return Ok(artifact?.into());
        }
        let contents = match uri {
            STATIC_TEXT => {
                ResourceContents::text("This is the content of the static text resource.", uri)
                    .with_mime_type("text/plain")
            }
            STATIC_BINARY => ResourceContents::blob(RED_PIXEL_PNG, uri).with_mime_type("image/png"),
            WATCHED => ResourceContents::text("watched", uri).with_mime_type("text/plain"),
            _ => match uri
                .strip_prefix("test://template/")
                .and_then(|rest| rest.strip_suffix("/data"))
            {
                Some(id) => ResourceContents::text(
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                        .to_string(),
                    uri,
                )
                .with_mime_type("application/json"),
                None => {
                    return Err(ErrorData::resource_not_found(
                        format!("no resource {uri}"),
                        Some(json!({"uri": uri})),
                    ));
                }
            },
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn subscribe(
        &self,
        _: SubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Ok(())
    }

    async fn unsubscribe(
        &self,
        _: UnsubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Ok(())
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let argument = |name: &str| {
            let mut argument = PromptArgument::new(name);
            argument.required = Some(true);
            argument
        };
        Ok(ListPromptsResult::with_all_items(vec![
            McpPrompt::new("test_simple_prompt", Some("A simple prompt"), None),
            McpPrompt::new(
                "test_prompt_with_arguments",
                Some("A prompt with arguments"),
                Some(vec![argument("arg1"), argument("arg2")]),
            ),
            McpPrompt::new(
                "test_prompt_with_embedded_resource",
                Some("A prompt with an embedded resource"),
                Some(vec![argument("resourceUri")]),
            ),
            McpPrompt::new(
                "test_prompt_with_image",
                Some("A prompt with an image"),
                None,
            ),
            McpPrompt::new(
                "test_input_required_result_prompt",
                Some("A prompt that asks the user for its context first"),
                None,
            ),
        ]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let argument = |name: &str| {
            request
                .arguments
                .as_ref()
                .and_then(|arguments| arguments.get(name))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let message = match request.name.as_str() {
            // A prompt that asks the user first (SEP-2322 beyond tools).
            "test_input_required_result_prompt" => {
                let asked = vec![(
                    "user_context",
                    elicitation("What context should the prompt use?", "context"),
                )];
                let answered = self.answered(
                    &request.name,
                    asked,
                    request.input_responses.as_ref(),
                    request.request_state.as_deref(),
                )?;
                match answered {
                    Ok(text) => json!({"role": "user", "content": {"type": "text",
                        "text": format!("Prompt with the user's {text}")}}),
                    Err(again) => return Ok(again.into()),
                }
            }
            "test_simple_prompt" => {
                json!({"role": "user", "content": {"type": "text", "text": "This is a simple prompt for testing."}})
            }
            "test_prompt_with_arguments" => json!({"role": "user", "content": {"type": "text",
                "text": format!("Prompt with arguments: arg1='{}', arg2='{}'", argument("arg1"), argument("arg2"))}}),
            "test_prompt_with_embedded_resource" => {
                json!({"role": "user", "content": {"type": "resource",
                "resource": {"uri": argument("resourceUri"), "mimeType": "text/plain", "text": "Embedded resource content for testing."}}})
            }
            "test_prompt_with_image" => {
                json!({"role": "user", "content": {"type": "image", "data": RED_PIXEL_PNG, "mimeType": "image/png"}})
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no prompt {other:?}"),
                    None,
                ));
            }
        };
        let message: PromptMessage = serde_json::from_value(message)
            .map_err(|err| ErrorData::internal_error(err.to_string(), None))?;
        Ok(GetPromptResult::new(vec![message]).into())
    }

    // The tasks extension's methods, handed to the server.
    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.tools.get_task(request, context).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tools.update_task(request, context).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tools.cancel_task(request, context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let typed = request.argument.value.as_str();
        let values = ["paris", "park", "party"]
            .into_iter()
            .filter(|value| value.starts_with(typed))
            .map(str::to_owned)
            .collect();
        let completion =
            CompletionInfo::new(values).map_err(|err| ErrorData::internal_error(err, None))?;
        Ok(CompleteResult::new(completion))
    }
}
