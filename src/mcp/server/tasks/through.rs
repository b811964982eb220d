//! A handler of one's own whose `tools/call` runs the server's tasks'
//! calls: what it answers in a task is the task's.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, CallToolResponse};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::super::McpServer;

/// A `tools/call`'s answer, boxed.
pub(super) type Answering =
    Pin<Box<dyn Future<Output = Result<CallToolResponse, ErrorData>> + Send>>;

/// The `tools/call` of a handler, its type erased.
pub(super) type Through =
    Arc<dyn Fn(CallToolRequestParams, RequestContext<RoleServer>) -> Answering + Send + Sync>;

impl McpServer {
    /// The same server, running each task's call through `handler`'s
    /// `tools/call` (a handler of one's own that hands its tools to this
    /// server, see [`list_tools`](Self::list_tools)) rather than its own:
    /// what the handler answers in a task is the task's. An
    /// `InputRequiredResult` makes the task wait for input with its input
    /// requests, as many as it asks at once (a toolbox
    /// [`Request`](crate::canonical::Request) is one elicitation; a
    /// handler may ask several, of any kind); once `tasks/update` brought
    /// a response to each ([`update_task`](Self::update_task)), the call
    /// runs through the handler again with them all as its
    /// `inputResponses` and its `requestState`; a result completes the
    /// task, an error fails it.
    ///
    /// Inside a task the request's context names it
    /// ([`task_of`](Self::task_of)): the handler answers there what it
    /// answers itself, and hands the rest to
    /// [`call_tool`](Self::call_tool), which runs the call (it starts no
    /// second task). Outside one, the handler hands a call of a tool that
    /// runs as a task to `call_tool`, which starts the task.
    ///
    /// `handler` holds this server as it is before this call (without
    /// `handler`); the server given this method's result is the one that
    /// serves, and both share their tasks. A store that runs its tasks'
    /// calls itself ([`TaskStore::run`](super::TaskStore::run)) runs them
    /// its own way: the handler is for the calls this process runs.
    ///
    /// ```
    /// use rmcp::model::{
    ///     CallToolRequestParams, CallToolResponse, ServerCapabilities, ServerConfig,
    /// };
    /// use rmcp::service::RequestContext;
    /// use rmcp::{ErrorData, RoleServer, ServerHandler};
    /// use toolresult::mcp::McpServer;
    /// use toolresult::toolbox::Toolbox;
    ///
    /// #[derive(Clone)]
    /// struct Mine {
    ///     tools: McpServer,
    /// }
    ///
    /// impl ServerHandler for Mine {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tasks().build())
    ///     }
    ///     async fn call_tool(
    ///         &self,
    ///         request: CallToolRequestParams,
    ///         context: RequestContext<RoleServer>,
    ///     ) -> Result<CallToolResponse, ErrorData> {
    ///         if request.name == "survey" && McpServer::task_of(&context).is_some() {
    ///             // Its task's call: ask the client several things at once
    ///             // (an `InputRequiredResult` of many input requests), and
    ///             // answer once `request.input_responses` holds them all.
    ///         }
    ///         self.tools.call_tool(request, context).await
    ///     }
    ///     // ... `list_tools`, `get_tool` and the task methods handed to
    ///     // `self.tools` as well
    /// }
    ///
    /// let tools = McpServer::new(Toolbox::new())?;
    /// let inner = Mine { tools: tools.clone() };
    /// let served = Mine { tools: tools.tasks_through(inner) };
    /// # drop(served);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tasks_through<H>(mut self, handler: H) -> Self
    where
        H: ServerHandler + Clone + Send + Sync + 'static,
    {
        let through: Through = Arc::new(move |request, context| {
            let handler = handler.clone();
            Box::pin(async move { handler.call_tool(request, context).await })
        });
        self.tasks.through = Some(through);
        self
    }
}
