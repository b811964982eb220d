//! A server's answer to a `tools/call`, read into the canonical result;
//! and the results of calls that got none.

use rmcp::model::{CallToolResult, ServerResult};
use rmcp::service::ServiceError;

use crate::canonical::PartLimit;
use crate::provider::{ConvertError, Mcp};
use crate::{Failure, IntoToolResult, Lowered, ToolError, ToolResult};

/// The canonical result of the tool `name`'s answer.
pub(super) fn read(name: &str, answered: Result<ServerResult, ServiceError>) -> Lowered {
    match answered {
        Ok(ServerResult::CallToolResult(result)) => tool_result(name, &result),
        Ok(_) => permanent(format!(
            "the mcp server answered `{name}` with something other than a tool result"
        )),
        Err(ServiceError::McpError(refusal)) => refused(name, refusal),
        Err(err) => broken(name, err),
    }
}

/// The canonical result of a tool result.
pub(super) fn tool_result(name: &str, result: &CallToolResult) -> Lowered {
    let structured = result.structured_content.is_some();
    let read = serde_json::to_vec(result)
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
                "the mcp server's answer to `{name}` is not a tool result this client can read"
            )))
            .with_source(err)
            .permanent(),
        )
        .lower(),
    }
}

/// A permanent failure saying `message`.
pub(super) fn permanent(message: String) -> Lowered {
    ToolResult::<(), ToolError>::fail(Failure::new(ToolError::new(message)).permanent()).lower()
}

/// The answer to a call whose connection failed: transient, so the retry
/// policy may try again (a reconnected client, a restarted server). What
/// failed is the source, not the model's to read: a transport's error may
/// name addresses and carry bodies.
pub(super) fn broken(name: &str, err: ServiceError) -> Lowered {
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
pub(super) fn refused(name: &str, refusal: rmcp::model::ErrorData) -> Lowered {
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
