//! What one attempt of a call leaves in the Restate journal.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::{Deserialize, Serialize};
use toolresult::canonical::ToolResult;
use toolresult::retry::Decision;
use toolresult::toolbox::Attempt;
use toolresult::{Diagnostics, Lowered};

/// A summary of an attempt's Rust channel, safe to journal: the transient
/// hint, the retry-after and the source error's type name, **never the
/// source's text** (which may hold an address, a token, a customer's data).
///
/// It is journaled with each attempt (as JSON, the keys below) and kept on
/// the call's [`DurableOutcome`](crate::DurableOutcome) for the last one.
///
/// ```
/// use toolresult_restate::ChannelSummary;
///
/// let summary: ChannelSummary =
///     serde_json::from_str(r#"{"transient":true,"retryAfterMs":1500,"sourceType":"std::io::Error"}"#)?;
/// assert_eq!(summary.transient, Some(true));
/// assert_eq!(summary.retry_after_ms, Some(1500));
/// assert_eq!(summary.source_type.as_deref(), Some("std::io::Error"));
/// assert_eq!(serde_json::to_string(&ChannelSummary::default())?, "{}");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ChannelSummary {
    /// The failure's transient hint: `Some(true)` retry, `Some(false)`
    /// never, `None` no hint (and for a success).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transient: Option<bool>,
    /// How long the failure asked to wait before the next call, in
    /// milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// The type name of the failure's source error, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_type: Option<String>,
}

impl From<&Diagnostics> for ChannelSummary {
    fn from(diagnostics: &Diagnostics) -> Self {
        Self {
            transient: diagnostics.is_transient(),
            retry_after_ms: diagnostics.retry_after().map(millis),
            source_type: diagnostics.source_type_name().map(str::to_owned),
        }
    }
}

/// What the retry policy decided after an attempt, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum JournaledDecision {
    /// Call again after this many milliseconds (jitter included).
    #[serde(rename_all = "camelCase")]
    Retry { delay_ms: u64 },
    /// Stop: the attempt's result answers the call. The reason is
    /// [`StopReason::as_str`](toolresult::retry::StopReason::as_str).
    Stop { reason: String },
}

/// The journal entry of one attempt: everything the turn needs to go on
/// after a replay without running the tool again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JournaledAttempt {
    /// The canonical result, as the model will read it.
    pub(crate) result: ToolResult,
    /// Whether `output` is MCP `structuredContent` (the JSON object of a
    /// typed success).
    pub(crate) structured: bool,
    /// The Rust channel, summarised.
    pub(crate) channel: ChannelSummary,
    /// What the policy said after it.
    pub(crate) decision: JournaledDecision,
}

impl From<Attempt> for JournaledAttempt {
    fn from(attempt: Attempt) -> Self {
        let Attempt {
            lowered, decision, ..
        } = attempt;
        let structured = lowered.structured_content().is_some();
        let channel = ChannelSummary::from(&lowered.diagnostics);
        let decision = match decision {
            Decision::Retry(delay) => JournaledDecision::Retry {
                delay_ms: millis(delay),
            },
            Decision::Stop(reason) => JournaledDecision::Stop {
                reason: reason.as_str().to_owned(),
            },
        };
        Self {
            result: into_result(lowered),
            structured,
            channel,
            decision,
        }
    }
}

/// The canonical result; the diagnostics, whose source is the tool's own
/// error (its `Drop` may panic), dropped where a panic cannot escape.
fn into_result(lowered: Lowered) -> ToolResult {
    let (result, diagnostics) = lowered.into_parts();
    let _ = catch_unwind(AssertUnwindSafe(move || drop(diagnostics)));
    result
}

fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_journal_entry_is_this_json() {
        let entry = JournaledAttempt {
            result: ToolResult::error(r#"{"error":{"message":"busy"}}"#),
            structured: false,
            channel: ChannelSummary {
                transient: Some(true),
                retry_after_ms: Some(1500),
                source_type: Some("std::io::Error".to_owned()),
            },
            decision: JournaledDecision::Retry { delay_ms: 1500 },
        };
        let json = serde_json::to_string(&entry).unwrap();
        assert_eq!(
            json,
            r#"{"result":{"output":"{\"error\":{\"message\":\"busy\"}}","isError":true},"structured":false,"channel":{"transient":true,"retryAfterMs":1500,"sourceType":"std::io::Error"},"decision":{"retry":{"delayMs":1500}}}"#
        );
        assert_eq!(
            serde_json::from_str::<JournaledAttempt>(&json).unwrap(),
            entry
        );
        let stop = JournaledDecision::Stop {
            reason: "permanent".to_owned(),
        };
        assert_eq!(
            serde_json::to_string(&stop).unwrap(),
            r#"{"stop":{"reason":"permanent"}}"#
        );
    }
}
