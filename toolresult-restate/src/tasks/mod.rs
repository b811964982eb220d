//! MCP tasks on Restate: a task's call is a Restate invocation of a turn
//! ([`TaskRunner`], as [`run_turn`](crate::run_turn) runs it: journaled
//! attempts, durable timers), its record a virtual object
//! ([`TaskRecords`]), and [`RestateTasks`] the
//! [`TaskStore`](toolresult::mcp::TaskStore) every replica of an MCP server
//! is given: any of them answers `tasks/get`, `tasks/update` and
//! `tasks/cancel` for a task another started, and the task outlives the
//! replica that started it.

// The clients Restate's macros generate (`TaskRecordsClient`,
// `TaskRunnerClient`) have methods without docs.
#![allow(missing_docs)]

mod records;
mod runner;
mod store;

use std::time::SystemTime;

use toolresult::canonical::Request;

pub use records::TaskRecords;
pub use runner::TaskRunner;
pub use store::RestateTasks;

/// The state key of a task's record.
const RECORD: &str = "record";
/// The state key of the call a task's call is parked on
/// ([`ParkedCall`]).
const PARKED: &str = "parked";

/// A task's call parked on a request: what `TaskRecords/park` takes, and
/// keeps beside the task's record until it is answered.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct ParkedCall {
    /// The request, as [`Parked`] holds it (its seal, if any, included).
    request: Request,
    /// The awakeable its answer resolves.
    awakeable: String,
    /// When it parked (RFC 3339); not kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<String>,
}

type Failed = Box<dyn std::error::Error + Send + Sync>;

/// `time` as RFC 3339 in UTC, to the millisecond, as the MCP server
/// writes a task's times.
fn timestamp(time: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A task id as the server makes it: letters, digits and dashes, which
/// go into a URL and a query as they are.
fn checked(id: &str) -> Result<&str, Failed> {
    if !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        Ok(id)
    } else {
        Err(format!("`{id}` is no task id of this server").into())
    }
}
