//! `RemoteTool`: a tool of an MCP server, called over its connection.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rmcp::model::{JsonObject, Tool as McpTool};
use schemars::Schema;
use serde_json::Value;

use super::connection::Connection;
use crate::tool::{Arguments, CallContext, Calling, Tool, ToolSafety};
use crate::{Failure, IntoToolResult, Lowered, ToolError, ToolResult};

/// A tool of an MCP server ([`McpClient::tools`](super::McpClient::tools)),
/// an ordinary [`Tool`]: its declaration is the one the server listed, a
/// call is a `tools/call` on the server.
///
/// - The answer is read into the canonical result as
///   [`Mcp::read_result`](crate::provider::Mcp::read_result) reads one:
///   `structuredContent` kept (the toolbox passes it on when it serves the
///   tool again), `isError` an error result.
/// - The call's cancellation (its turn cancelled, its timeout) sends
///   `notifications/cancelled` for the request. Every progress report the
///   server sent for the request before its answer goes to the call's
///   [`progress`](crate::tool::CallContext::progress), in order (one that
///   does not go forward is dropped); its log messages at or above the
///   level set with [`McpClient::set_log_level`](super::McpClient::set_log_level)
///   to the call's [`log`](crate::tool::CallContext::log).
/// - A question the server asks (an `elicitation/create` at 2025-11-25,
///   an input-required result at 2026-07-28) parks the call: its result
///   is pending on a [`Request`](crate::canonical::Request) of kind
///   `input` (a form's schema in `data.requestedSchema`, a URL elicitation's
///   `url`), or of the kind and with the data the crate's server shows
///   (`McpServer::REQUEST_META`, feature `mcp-server`:
///   a remote approval is a request of kind `approval` whose data holds
///   the remote `tool`, `arguments` and `reason`, what the server says).
///   A toolbox that seals requests
///   ([`Toolbox::seal_requests`](crate::toolbox::Toolbox::seal_requests))
///   seals it as any request a call parks on, and refuses an answer
///   without its seal, or with another call's, before anything goes to
///   the server. Resumed with the [`Answer`](crate::canonical::Answer)
///   ([`Turn::resume`](crate::toolbox::Turn::resume)), the answer goes back
///   (granted: accepted with its `data`, but the seal, as the content;
///   declined: declined, or cancelled when its reason is `cancel`), as the
///   elicitation's reply to the call still in flight, or as the call sent
///   again with its `inputResponses` and `requestState`. A parked call
///   waits in its client's memory (the 64 most recent per connection; an
///   older one is cancelled on its server).
/// - A call the server refuses for want of scope (HTTP 403
///   `insufficient_scope`, over a transport authorized with rmcp's
///   `AuthClient`) parks on a [`Request`](crate::canonical::Request) of kind
///   `authorization`: its `url` the protected resource's metadata, its
///   `data` the `scope` asked for and the `wwwAuthenticate` challenge. The
///   caller authorizes again (the same client, more scope) and resumes it
///   granted: the call is sent again; declined, it fails, permanently.
/// - A call the server runs as a task (the tasks extension, which the
///   client declares) is polled (`tasks/get`, at the interval the server
///   suggests) to its end: its result read as above; a task the server
///   fails or cancels a permanent failure; its input requests asked of the
///   caller as above and sent back (`tasks/update`); each new status message goes to
///   the call's [`log`](crate::tool::CallContext::log) at `info`. The local
///   call cancelled (its turn, its timeout), the task is cancelled on its
///   server (`tasks/cancel`), even when the local call ends before the
///   task's creation is heard: a call let go before its answer, on a
///   server that runs tasks, is listened to for up to two seconds more
///   for the task to cancel, and only then sent `notifications/cancelled`
///   (at once, to a server that runs none).
/// - A tool of a server of 2025-11-25 that requires a task (its
///   experimental tasks) is called as one, and run as above: `tools/call`
///   with a `task`, `tasks/get` until it ends, its result read with
///   `tasks/result`, `tasks/cancel` when the local call is cancelled. (rmcp
///   drops a listed tool's `execution`: the server's refusal of a call
///   without a task, `-32601`, says that the tool requires one, and the
///   call, which never ran, is sent again as a task, as every later call
///   of the tool is.) A task waiting for input is asked for its result,
///   through which its server asks its questions (`elicitation/create`),
///   asked of the caller and answered as a call's elicitations are.
/// - A connection that fails or closes, a server that dies mid-call, is a
///   transient failure the retry policy reads (never a hang); a JSON-RPC
///   error from the server, or an answer that is not a tool result, is a
///   permanent one. The model reads what happened (for a JSON-RPC error,
///   its code), never the transport's or the server's error text, which
///   stays in the Rust channel's source.
pub struct RemoteTool {
    pub(super) connection: Arc<Connection>,
    pub(super) name: String,
    /// The tool requires a task of 2025-11-25: its server said so.
    pub(super) tasked: AtomicBool,
    title: Option<String>,
    description: String,
    input: Schema,
    output: Schema,
    anything: Schema,
    annotated: ToolSafety,
    safety: ToolSafety,
}

impl RemoteTool {
    pub(super) fn new(connection: Arc<Connection>, tool: McpTool) -> Self {
        let annotated = tool
            .annotations
            .as_ref()
            .map_or(ToolSafety::Destructive, |hints| {
                safety_of(
                    hints.read_only_hint,
                    hints.destructive_hint,
                    hints.idempotent_hint,
                )
            });
        Self {
            connection,
            name: tool.name.into_owned(),
            tasked: AtomicBool::new(false),
            title: tool.title,
            description: tool.description.map(|d| d.into_owned()).unwrap_or_default(),
            input: Schema::from((*tool.input_schema).clone()),
            output: tool.output_schema.map_or_else(
                || Schema::from(true),
                |schema| Schema::from((*schema).clone()),
            ),
            anything: Schema::from(true),
            annotated,
            safety: ToolSafety::Destructive,
        }
    }

    /// The same tool, whose safety is `safety` (what the retry policy
    /// reads): yours to say, for a server you know.
    #[must_use]
    pub fn with_safety(mut self, safety: ToolSafety) -> Self {
        self.safety = safety;
        self
    }

    /// The same tool, whose safety is what the server's annotations say
    /// (`readOnlyHint`, `destructiveHint`, `idempotentHint`, MCP's
    /// defaults where one is missing). Only for a server you trust: a
    /// server that claims a destructive tool is idempotent has it retried.
    #[must_use]
    pub fn trusting_annotations(mut self) -> Self {
        self.safety = self.annotated;
        self
    }
}

/// A tool's safety from MCP's hints, MCP's defaults where one is missing
/// (not read-only, destructive, not idempotent).
fn safety_of(
    read_only: Option<bool>,
    destructive: Option<bool>,
    idempotent: Option<bool>,
) -> ToolSafety {
    if read_only.unwrap_or(false) {
        return ToolSafety::ReadOnly;
    }
    match (destructive.unwrap_or(true), idempotent.unwrap_or(false)) {
        (false, true) => ToolSafety::Idempotent,
        (false, false) => ToolSafety::Additive,
        (true, true) => ToolSafety::IdempotentDestructive,
        (true, false) => ToolSafety::Destructive,
    }
}

/// The call's arguments as the JSON object MCP sends, or the error result
/// for arguments that are not one.
fn object(arguments: &Arguments, name: &str) -> Result<JsonObject, Lowered> {
    let value = match arguments {
        Arguments::Json(value) => value.clone(),
        Arguments::Text(text) if text.trim().is_empty() => Value::Null,
        Arguments::Text(text) => {
            serde_json::from_str(text).map_err(|err| bad_arguments(name, &err.to_string()))?
        }
    };
    match value {
        Value::Object(object) => Ok(object),
        Value::Null => Ok(JsonObject::new()),
        other => Err(bad_arguments(
            name,
            &format!("expected an object, found {other}"),
        )),
    }
}

fn bad_arguments(name: &str, why: &str) -> Lowered {
    ToolResult::<(), ToolError>::fail(
        Failure::new(
            ToolError::new(format!("invalid arguments: {why}")).with_suggestion(format!(
                "call `{name}` again with a JSON object of arguments"
            )),
        )
        .permanent(),
    )
    .lower()
}

impl Tool for RemoteTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    fn input_schema(&self) -> &Schema {
        &self.input
    }

    fn output_schema(&self) -> &Schema {
        &self.output
    }

    fn model_facing_schema(&self) -> &Schema {
        &self.anything
    }

    fn safety(&self) -> ToolSafety {
        self.safety
    }

    fn call<'a>(&'a self, args: &Arguments, cx: &CallContext<'_>) -> Calling<'a> {
        match object(args, &self.name) {
            Ok(arguments) => Calling::new(self.remote(arguments, cx.clone().into_owned())),
            Err(refused) => Calling::ready(refused),
        }
    }
}

impl std::fmt::Debug for RemoteTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteTool")
            .field("name", &self.name)
            .field("safety", &self.safety)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safety_reads_mcp_hints_with_mcp_defaults() {
        assert_eq!(safety_of(None, None, None), ToolSafety::Destructive);
        assert_eq!(
            safety_of(Some(true), Some(true), None),
            ToolSafety::ReadOnly
        );
        assert_eq!(
            safety_of(None, Some(false), Some(true)),
            ToolSafety::Idempotent
        );
        assert_eq!(safety_of(None, Some(false), None), ToolSafety::Additive);
        assert_eq!(
            safety_of(None, None, Some(true)),
            ToolSafety::IdempotentDestructive
        );
    }

    #[test]
    fn arguments_must_be_an_object() {
        assert_eq!(
            object(&Arguments::Text(String::new()), "t").unwrap(),
            JsonObject::new()
        );
        let refused = object(&Arguments::Json(serde_json::json!([1])), "t").unwrap_err();
        assert_eq!(
            refused.result.output,
            r#"{"error":{"message":"invalid arguments: expected an object, found [1]","suggestion":"call `t` again with a JSON object of arguments"}}"#
        );
    }
}
