//! A server's answer to a `tools/call`, read into the canonical result;
//! and the results of calls that got none.

use rmcp::model::{CallToolResult, ServerResult};
use rmcp::service::ServiceError;

use serde_json::{Map, Value};

use crate::canonical::{PartLimit, Request};
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

/// The `WWW-Authenticate` challenge of a server that refused a request for
/// want of scope (403 `insufficient_scope`), as rmcp's HTTP transport
/// reports it; `None` for any other failure.
pub(super) fn insufficient_scope(err: &ServiceError) -> Option<String> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(error) = cause {
        if let Some(challenge) = error.to_string().strip_prefix("insufficient scope: ") {
            return Some(challenge.to_owned());
        }
        cause = error.source();
    }
    None
}

/// The request `id` for an authorization a server's `challenge` asks for:
/// its `url` the protected resource's metadata the challenge names, its
/// `data` the challenge and the scope it names.
pub(super) fn authorization(id: String, challenge: &str) -> Request {
    let url = parameter(challenge, "resource_metadata").unwrap_or_default();
    let mut data = Map::from_iter([(
        "wwwAuthenticate".to_owned(),
        Value::String(challenge.to_owned()),
    )]);
    if let Some(scope) = parameter(challenge, "scope") {
        data.insert("scope".to_owned(), Value::String(scope));
    }
    Request::authorization(url)
        .with_id(id)
        .with_prompt("The server asks for more scope to continue")
        .with_data(data)
}

/// The value of the quoted `name="value"` parameter of a challenge.
fn parameter(challenge: &str, name: &str) -> Option<String> {
    challenge.split(',').find_map(|part| {
        let part = part.trim();
        let part = part.strip_prefix("Bearer ").unwrap_or(part).trim();
        let value = part.strip_prefix(name)?.trim_start().strip_prefix('=')?;
        Some(value.trim().trim_matches('"').to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_insufficient_scope_challenge_is_an_authorization_request() {
        let challenge = r#"Bearer scope="mcp:write", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", error="insufficient_scope""#;
        let asked = authorization("q1".into(), challenge);
        assert_eq!(asked.kind, Request::AUTHORIZATION);
        assert_eq!(
            asked.url.as_deref(),
            Some("http://127.0.0.1/.well-known/oauth-protected-resource/mcp")
        );
        let data = asked.data.unwrap();
        assert_eq!(data["scope"], "mcp:write");
        assert_eq!(data["wwwAuthenticate"], challenge);
        assert_eq!(
            parameter(challenge, "error").as_deref(),
            Some("insufficient_scope")
        );
        assert_eq!(parameter("Bearer realm=\"x\"", "scope"), None);
    }
}
