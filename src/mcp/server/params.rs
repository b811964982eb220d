//! A request for a method the server serves whose params rmcp could not
//! read: `invalid_params`, naming the method and what did not fit; a
//! method the request's protocol version does not have: `method_not_found`.

#![allow(deprecated)] // MCP's logging utility, deprecated by SEP-2577, is still the 2025 revisions'.

use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CustomRequest, InitializeRequestParams, PaginatedRequestParams,
    SetLevelRequestParams,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::canonical::clip_echoes;

/// The error answering `request`, a request rmcp read as a method of no
/// MCP shape: for a method this server serves (`initialize`, `ping`,
/// `tools/list`, `tools/call`, `logging/setLevel`), its params did not fit
/// and the error is `invalid_params` (``invalid params for `tools/call`:
/// <serde's words>``, each value they quote cut to 64 characters); for any
/// other, `method_not_found` with the method as its message, as rmcp
/// answers it. A request of 2026-07-28 (`stateless`), which removed
/// `initialize`, `ping` and `logging/setLevel`, gets `method_not_found`
/// for those (HTTP 404 over streamable HTTP).
pub(super) fn refused(request: &CustomRequest, stateless: bool) -> ErrorData {
    let method = request.method.as_str();
    let params = request.params.clone().unwrap_or(Value::Null);
    let misfit = match method {
        "tools/call" => misfit::<CallToolRequestParams>(params),
        "tools/list" => misfit::<Option<PaginatedRequestParams>>(params),
        "logging/setLevel" | "initialize" | "ping" if stateless => return not_found(method),
        "logging/setLevel" => misfit::<SetLevelRequestParams>(params),
        "initialize" => misfit::<InitializeRequestParams>(params),
        "ping" => None,
        _ => return not_found(method),
    };
    let message = match misfit {
        Some(words) => format!("invalid params for `{method}`: {}", clip_echoes(&words)),
        None => format!("invalid params for `{method}`"),
    };
    ErrorData::invalid_params(message, None)
}

/// `method_not_found`, with the method as its message, as rmcp answers it.
pub(super) fn not_found(method: &str) -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        method.to_owned(),
        None,
    )
}

/// serde's words for `params` as a `P`, if they do not fit one.
fn misfit<P: DeserializeOwned>(params: Value) -> Option<String> {
    serde_json::from_value::<P>(params)
        .err()
        .map(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ErrorCode;
    use serde_json::json;

    fn custom(method: &str, params: Value) -> CustomRequest {
        CustomRequest::new(method, Some(params))
    }

    #[test]
    fn a_served_method_whose_params_do_not_fit_is_invalid_params() {
        let error = refused(
            &custom("tools/call", json!({"name": "add", "arguments": [1, 2]})),
            false,
        );
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(
            error.message,
            "invalid params for `tools/call`: invalid type: sequence, expected a map"
        );
        let error = refused(&custom("logging/setLevel", json!({"level": "loud"})), false);
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            error
                .message
                .starts_with("invalid params for `logging/setLevel`: unknown variant `loud`"),
            "{}",
            error.message
        );
    }

    #[test]
    fn a_value_echoed_is_cut() {
        let name = "n".repeat(1000);
        let error = refused(&custom("logging/setLevel", json!({"level": name})), false);
        assert!(error.message.chars().count() < 300, "{}", error.message);
        assert!(error.message.contains(&format!("`{}…`", "n".repeat(64))));
    }

    #[test]
    fn any_other_method_is_not_found() {
        let error = refused(&custom("tools/sing", json!({})), false);
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
        assert_eq!(error.message, "tools/sing");
    }

    #[test]
    fn the_methods_2026_removed_are_not_found_there() {
        for method in ["initialize", "ping", "logging/setLevel"] {
            let request = custom(method, json!({"_meta": {}}));
            let error = refused(&request, true);
            assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND, "{method}");
            assert_eq!(error.message, method);
            let error = refused(&request, false);
            assert_eq!(
                error.code,
                ErrorCode::INVALID_PARAMS,
                "{method} of a 2025 session"
            );
        }
        let error = refused(&custom("tools/call", json!({"arguments": 1})), true);
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    }
}
