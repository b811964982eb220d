//! `RemoteTool`: a tool of an MCP server, called over its connection.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest, JsonObject,
    RequestId, ServerResult, Tool as McpTool,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient, ServiceError};
use schemars::Schema;
use serde_json::Value;

use super::connection::Connection;
use crate::canonical::PartLimit;
use crate::mcp::increasing::Increasing;
use crate::provider::ConvertError;
use crate::provider::Mcp;
use crate::tool::{Arguments, CallContext, Calling, Tool, ToolSafety};
use crate::toolbox::answers;
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
///   `notifications/cancelled` for the request; the server's progress for
///   the request goes to the call's
///   [`progress`](crate::tool::CallContext::progress), strictly increasing
///   (rmcp handles each notification in a task of its own, so a report
///   may overtake an earlier one, which is then dropped).
/// - A connection that fails or closes, a server that dies mid-call, is a
///   transient failure the retry policy reads (never a hang); a JSON-RPC
///   error from the server, or an answer that is not a tool result, is a
///   permanent one. The model reads what happened (for a JSON-RPC error,
///   its code), never the transport's or the server's error text, which
///   stays in the Rust channel's source.
pub struct RemoteTool {
    connection: Arc<Connection>,
    name: String,
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

    async fn remote(&self, arguments: JsonObject, cx: CallContext<'static>) -> Lowered {
        let peer = self.connection.service.peer();
        let params = CallToolRequestParams::new(self.name.clone()).with_arguments(arguments);
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let handle = match peer
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await
        {
            Ok(handle) => handle,
            Err(ServiceError::McpError(refusal)) => return refused(&self.name, refusal),
            Err(err) => return broken(&self.name, err),
        };
        let mut guard = CancelOnDrop {
            peer: Some(peer.clone()),
            id: handle.id.clone(),
        };
        let mut progress = self
            .connection
            .progress
            .follow(handle.progress_token.clone());
        // rmcp hands each notification to a task of its own: a report may
        // overtake an earlier one, which is then dropped.
        let mut increasing = Increasing::default();
        let answer = handle.await_response();
        tokio::pin!(answer);
        let lowered = loop {
            tokio::select! {
                answered = &mut answer => break self.read(answered),
                Some(report) = progress.reports.recv() => {
                    if increasing.admits(report.progress) {
                        cx.progress(report.progress, report.total, report.message.as_deref());
                    }
                }
                () = cx.cancelled() => break answers::cancelled(),
            }
        };
        if !cx.is_cancelled() {
            guard.peer = None;
        }
        lowered
    }

    fn read(&self, answered: Result<ServerResult, ServiceError>) -> Lowered {
        let result = match answered {
            Ok(ServerResult::CallToolResult(result)) => result,
            Ok(_) => {
                return ToolResult::<(), ToolError>::fail(
                    Failure::new(ToolError::new(format!(
                        "the mcp server answered `{}` with something other than a tool result",
                        self.name
                    )))
                    .permanent(),
                )
                .lower();
            }
            Err(ServiceError::McpError(refusal)) => return refused(&self.name, refusal),
            Err(err) => return broken(&self.name, err),
        };
        let structured = result.structured_content.is_some();
        let read = serde_json::to_vec(&result)
            .map_err(|source| ConvertError::Encode {
                what: "rmcp CallToolResult",
                source,
            })
            .and_then(|json| Mcp::read_result(json, PartLimit::default()));
        match read {
            Ok(read) => Lowered::from_record(
                read,
                structured && !result.is_error.unwrap_or(false),
                Default::default(),
            ),
            Err(err) => ToolResult::<(), ToolError>::fail(
                Failure::new(ToolError::new(format!(
                    "the mcp server's answer to `{}` is not a tool result this client can read",
                    self.name
                )))
                .with_source(err)
                .permanent(),
            )
            .lower(),
        }
    }
}

/// Sends `notifications/cancelled` for a request whose call stopped
/// before its answer (dropped by its timeout or its turn's cancellation,
/// or cancelled).
struct CancelOnDrop {
    peer: Option<Peer<RoleClient>>,
    id: RequestId,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(peer) = self.peer.take() else { return };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let id = self.id.clone();
        runtime.spawn(async move {
            let cancelled = CancelledNotificationParam::new(Some(id), Some("cancelled".to_owned()));
            let _ = peer.notify_cancelled(cancelled).await;
        });
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

/// The answer to a call whose connection failed: transient, so the retry
/// policy may try again (a reconnected client, a restarted server). What
/// failed is the source, not the model's to read: a transport's error may
/// name addresses and carry bodies.
fn broken(name: &str, err: ServiceError) -> Lowered {
    ToolResult::<(), ToolError>::fail(
        Failure::new(
            ToolError::new(format!("the mcp server of `{name}` did not answer"))
                .with_suggestion("try again later"),
        )
        .with_source(err)
        .transient(),
    )
    .lower()
}

/// The answer to a call the server refused with a JSON-RPC error: the
/// server's word, so permanent (asking again gets the same refusal). The
/// model reads the error's code and what it means; the server's message
/// and data stay in the source, as a tool's own error does.
fn refused(name: &str, refusal: rmcp::model::ErrorData) -> Lowered {
    let code = refusal.code.0;
    let meaning = match code {
        -32602 => "invalid params",
        -32601 => "method not found",
        -32600 => "invalid request",
        -32700 => "parse error",
        -32603 => "internal error",
        _ => "a server error",
    };
    let error = ToolError::new(format!(
        "the mcp server of `{name}` refused the call: JSON-RPC error {code} ({meaning})"
    ));
    ToolResult::<(), ToolError>::fail(
        Failure::new(error)
            .with_source(ServiceError::McpError(refusal))
            .permanent(),
    )
    .lower()
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
