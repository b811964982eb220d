//! `TaskSupport`: whether a call of a tool may, must, or must not run as a
//! task, answered at once and read later (MCP's tasks extension).

/// Whether a tool's calls run as tasks: answered at once with a task the
/// client reads later (MCP's `io.modelcontextprotocol/tasks` extension,
/// served by [`McpServer`](crate::mcp::McpServer) with the `mcp-server`
/// feature), for a call that runs longer than a request may stay open.
///
/// Declared with the tool (`with_task_support`, `#[tool(task = Optional)]`,
/// [`Tool::task_support`](super::Tool::task_support)) and overridden per
/// toolbox with `ToolOptions::task_support`. The default,
/// [`Forbidden`](Self::Forbidden), answers every call in its request.
///
/// ```
/// use toolresult::tool::{self, TaskSupport, Tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Repo { url: String }
///
/// let build = tool::function("build", "Build a repository", |r: Repo| r.url)?
///     .with_task_support(TaskSupport::Required);
/// assert_eq!(build.task_support(), TaskSupport::Required);
/// assert_eq!(TaskSupport::default(), TaskSupport::Forbidden);
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Every call is answered in its request (the default).
    #[default]
    Forbidden,
    /// A call from a client that takes tasks runs as one; any other is
    /// answered in its request.
    Optional,
    /// Every call runs as a task; a client that does not take tasks is
    /// refused with the error the extension names (`-32021`).
    Required,
}
