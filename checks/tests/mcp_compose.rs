//! The toolbox's tools inside a handler of one's own (`McpServer::
//! list_tools`, `call_tool`, `get_tool`): one connection reads the
//! handler's resource, gets its prompt and calls a toolbox tool.

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, PromptMessage, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, Role, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use toolresult::budget::Budget;
use toolresult::mcp::McpServer;
use toolresult::tool;
use toolresult::toolbox::Toolbox;

const LIMIT: Duration = Duration::from_secs(20);

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

/// A user's own handler: one resource, one prompt, and the toolbox's tools.
#[derive(Clone)]
struct Mine {
    tools: McpServer,
}

impl ServerHandler for Mine {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
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
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A call of its own that lets go of its stream mid-call (SEP-1699),
        // and says whether it could.
        if request.name == "let_go" {
            let closed = McpServer::close_stream(&context, Duration::from_millis(20)).await;
            tokio::time::sleep(Duration::from_millis(50)).await;
            let text = format!("closed: {closed}");
            return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
        }
        self.tools.call_tool(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.get_tool(name)
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resource = Resource::new("test://greeting", "greeting");
        Ok(ListResourcesResult::with_all_items(vec![resource]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != "test://greeting" {
            return Err(ErrorData::resource_not_found(request.uri.clone(), None));
        }
        Ok(ReadResourceResult::new(vec![ResourceContents::text(
            "hello from a resource",
            request.uri,
        )])
        .into())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "greet" {
            return Err(ErrorData::invalid_params("no such prompt", None));
        }
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, "say hello")]).into())
    }
}

#[tokio::test]
async fn a_composed_handler_answers_its_resource_its_prompt_and_a_toolbox_call() {
    let mut toolbox = Toolbox::new();
    toolbox
        .register(
            tool::function("add", "Add two integers", |x: Add| (x.a + x.b).to_string()).unwrap(),
        )
        .unwrap();
    let mine = Mine {
        tools: McpServer::new(toolbox).unwrap(),
    };
    let (ours, theirs) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(async move {
        let running = mine.serve(ours).await?;
        running.waiting().await?;
        Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
    });
    let client = tokio::time::timeout(LIMIT, ().serve(theirs))
        .await
        .expect("the handshake in time")
        .expect("a session");

    let read = tokio::time::timeout(
        LIMIT,
        client.read_resource(ReadResourceRequestParams::new("test://greeting")),
    )
    .await
    .expect("the read in time")
    .expect("the resource");
    let text = serde_json::to_value(&read).unwrap();
    assert_eq!(
        text["contents"][0]["text"], "hello from a resource",
        "{text}"
    );

    let prompt = tokio::time::timeout(
        LIMIT,
        client.get_prompt(GetPromptRequestParams::new("greet")),
    )
    .await
    .expect("the prompt in time")
    .expect("the prompt");
    let prompt = serde_json::to_value(&prompt).unwrap();
    assert_eq!(
        prompt["messages"][0]["content"]["text"], "say hello",
        "{prompt}"
    );

    let listed = tokio::time::timeout(LIMIT, client.list_all_tools())
        .await
        .expect("the list in time")
        .expect("the tools");
    assert_eq!(
        listed.iter().map(|tool| &*tool.name).collect::<Vec<_>>(),
        ["add"]
    );

    let args = serde_json::json!({"a": 2, "b": 40});
    let called = tokio::time::timeout(
        LIMIT,
        client.call_tool(
            CallToolRequestParams::new("add").with_arguments(args.as_object().unwrap().clone()),
        ),
    )
    .await
    .expect("the call in time")
    .expect("the call");
    let called = serde_json::to_value(&called).unwrap();
    assert_eq!(called["content"][0]["text"], "42", "{called}");
    assert_eq!(called["isError"], false, "{called}");

    // A tool the toolbox does not have is its answer, naming the tools
    // there are, as `McpServer`'s own session answers it.
    let unknown = tokio::time::timeout(LIMIT, client.call_tool(CallToolRequestParams::new("sub")))
        .await
        .expect("the call in time")
        .expect("an answer, not an error");
    let unknown = serde_json::to_value(&unknown).unwrap();
    assert_eq!(unknown["isError"], true, "{unknown}");
    assert!(
        unknown["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("add"),
        "{unknown}"
    );

    // Over a pipe there is no stream to let go of.
    let let_go = tokio::time::timeout(
        LIMIT,
        client.call_tool(CallToolRequestParams::new("let_go")),
    )
    .await
    .expect("the call in time")
    .expect("the call");
    assert_eq!(let_go.content[0].as_text().unwrap().text, "closed: false");

    client.cancel().await.unwrap();
    tokio::time::timeout(LIMIT, serving)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

/// A result cut to its budget links the whole it left out
/// (`resource_link`, `artifact://<id>`), which `resources/read` gives
/// whole, or a slice at a time, without a tool call.
#[tokio::test]
async fn a_cut_results_link_reads_the_whole_as_a_resource() {
    let whole: String = (0..2_000).map(|n| format!("line {n}\n")).collect();
    let expected = whole.clone();
    let mut toolbox = Toolbox::new().budget(Budget::new().output_bytes(512));
    toolbox
        .register(tool::function("log", "A long log", move |_: NoArgs| whole.clone()).unwrap())
        .unwrap();
    let server = McpServer::new(toolbox).unwrap();
    let (ours, theirs) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(async move {
        let running = server.session().serve(ours).await?;
        running.waiting().await?;
        Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
    });
    let client = tokio::time::timeout(LIMIT, ().serve(theirs))
        .await
        .expect("the handshake in time")
        .expect("a session");
    let called = tokio::time::timeout(LIMIT, client.call_tool(CallToolRequestParams::new("log")))
        .await
        .expect("the call in time")
        .expect("the call");
    let called = serde_json::to_value(called).unwrap();
    assert!(
        called["content"][0]["text"].as_str().unwrap().len() <= 512,
        "{called}"
    );
    let link = called["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|block| block["type"] == "resource_link")
        .unwrap_or_else(|| panic!("no resource_link in {called}"));
    let uri = link["uri"].as_str().unwrap().to_owned();
    assert!(uri.starts_with("artifact://art_"), "{link}");

    let templates = tokio::time::timeout(LIMIT, client.list_all_resource_templates())
        .await
        .expect("the templates in time")
        .expect("the templates");
    assert_eq!(
        templates
            .iter()
            .map(|template| template.uri_template.as_str())
            .collect::<Vec<_>>(),
        ["artifact://{id}{?offset,length}"]
    );

    let read = |uri: String| {
        let client = &client;
        async move {
            let read = tokio::time::timeout(
                LIMIT,
                client.read_resource(ReadResourceRequestParams::new(uri)),
            )
            .await
            .expect("the read in time");
            serde_json::to_value(read.expect("the artifact")).unwrap()
        }
    };
    let all = read(uri.clone()).await;
    assert_eq!(all["contents"][0]["text"], expected.as_str());
    assert_eq!(all["contents"][0]["mimeType"], "text/plain");

    // Slice by slice, following `next`, gives back the same bytes.
    let mut offset = Some(0);
    let mut joined = String::new();
    while let Some(at) = offset {
        let slice = read(format!("{uri}?offset={at}&length=4000")).await;
        let contents = &slice["contents"][0];
        assert_eq!(contents["_meta"]["offset"], at, "{slice}");
        assert_eq!(contents["_meta"]["total"], expected.len(), "{slice}");
        joined.push_str(contents["text"].as_str().unwrap());
        offset = contents["_meta"]["next"].as_u64();
    }
    assert_eq!(joined, expected);

    let missing = tokio::time::timeout(
        LIMIT,
        client.read_resource(ReadResourceRequestParams::new("artifact://art_0123")),
    )
    .await
    .expect("the read in time")
    .expect_err("no such artifact");
    assert!(
        missing
            .to_string()
            .contains("no artifact `art_0123` is kept"),
        "{missing}"
    );

    client.cancel().await.unwrap();
    tokio::time::timeout(LIMIT, serving)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

/// A handler of one's own served over streamable HTTP by
/// `McpServer::streamable_http_for`: a call that closes its stream mid-call
/// (`McpServer::close_stream`) is answered on the stream the client
/// resumes with `GET` and `Last-Event-ID` (rmcp's client resumes it).
#[tokio::test]
async fn a_call_that_lets_go_of_its_stream_is_answered_on_the_resumed_one() {
    let mine = Mine {
        tools: McpServer::new(Toolbox::new()).unwrap(),
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let service = mine.tools.streamable_http_for(
        mine.clone(),
        rmcp::transport::streamable_http_server::StreamableHttpServerConfig::default()
            .with_sse_keep_alive(None),
    );
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let service = hyper_util::service::TowerToHyperService::new(service.clone());
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service)
                    .await;
            });
        }
    });
    let url = format!("http://{address}/mcp");
    let client = tokio::time::timeout(
        LIMIT,
        ().serve(rmcp::transport::StreamableHttpClientTransport::from_uri(
            url,
        )),
    )
    .await
    .expect("the handshake in time")
    .expect("a session");
    let let_go = tokio::time::timeout(
        LIMIT,
        client.call_tool(CallToolRequestParams::new("let_go")),
    )
    .await
    .expect("the call in time")
    .expect("the answer, on the resumed stream");
    assert_eq!(let_go.content[0].as_text().unwrap().text, "closed: true");
    client.cancel().await.unwrap();
}
