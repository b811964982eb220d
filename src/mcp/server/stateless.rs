//! What a request says of itself at MCP 2026-07-28, where each request
//! stands alone: its protocol version, the client's capabilities and the
//! log level, all in its `_meta`, nothing from an earlier request.

#![allow(deprecated)] // MCP's logging utility, deprecated by SEP-2577, is still the 2025 revisions'.

use rmcp::model::ProtocolVersion;
use rmcp::service::{RequestContext, RoleServer};

use super::level::SessionLevel;
use crate::mcp::log_level::from_rmcp;

/// Whether `context`'s request is one of MCP 2026-07-28 or later: a
/// request that carries its protocol version in its `_meta`, answered
/// statelessly (no `initialize`, no `logging/setLevel`, no request to the
/// client). A request of a 2025 session, whose version its handshake set,
/// is not.
pub(super) fn is_stateless(context: &RequestContext<RoleServer>) -> bool {
    context
        .meta
        .protocol_version()
        .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28)
}

/// The level a stateless request's log messages are held against: the
/// `io.modelcontextprotocol/logLevel` of its `_meta`; none (no log message
/// at all) when it sets none.
pub(super) fn log_level(context: &RequestContext<RoleServer>) -> Option<SessionLevel> {
    context
        .meta
        .log_level()
        .map(|level| SessionLevel::new(from_rmcp(&level)))
}
