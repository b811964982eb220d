//! `CallOutcome`: one call of a turn, answered; `Attempt`: one attempt of
//! it, as a journal keeps it.

use std::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use super::ResumeError;
use crate::canonical::ToolResult;
use crate::provider::{Answered, Call, CallRef};
use crate::retry::{Decision, StopReason};
use crate::{Diagnostics, Lowered};

/// The answer to one call of a turn: the call as the model made it, the
/// lowered result (the canonical result for the model, diagnostics for
/// Rust), how many attempts it took and why the retry policy stopped.
///
/// A turn gives exactly one per call, in call order, under the call's id,
/// whatever the tools did. Render a turn's outcomes for the provider with
/// its `reply` (for example [`Anthropic::reply`](crate::provider::Provider::reply)).
#[derive(Debug)]
#[non_exhaustive]
pub struct CallOutcome {
    /// The call answered.
    pub call: Call,
    /// Its lowered result.
    pub lowered: Lowered,
    /// The attempts started, over the call's first run and every run
    /// resumed with an answer: 1 without retries (also for bad arguments:
    /// the tool was called and refused them), 0 when no tool was called (an
    /// unknown name, a turn cancelled before the call started).
    pub attempts: u32,
    /// Why the retry policy stopped after the last attempt
    /// ([`StopReason::Suspended`] for a call parked on a request,
    /// [`StopReason::Cancelled`] for a cancelled one).
    pub stop: StopReason,
    /// Why a call parked on a [`Driver`](super::Driver) that waits for
    /// answers was answered with its pending request instead of resumed:
    /// the answer the driver gave back is for another request
    /// ([`ResumeError::OtherRequest`]: refused, never given to the tool),
    /// its seal is refused (a toolbox that seals requests, for an answer a
    /// driver or a [`Turn`](super::Turn) brings: [`ResumeError::Unsealed`],
    /// [`Forged`](ResumeError::Forged), [`OtherCall`](ResumeError::OtherCall)),
    /// or the call was resumed as often as one turn allows
    /// ([`ResumeError::TooManyResumes`]). The call is still pending, and a
    /// later turn can resume it ([`Turn::resume`](super::Turn::resume)).
    /// `None` otherwise. Boxed: the outcome of every call is moved through
    /// the turn, and most are never refused.
    pub not_resumed: Option<Box<ResumeError>>,
}

impl CallOutcome {
    /// Whether the call is parked on a pending request, waiting for an
    /// [`Answer`](crate::canonical::Answer) (see
    /// [`Turn::resume`](super::Turn::resume)).
    #[must_use]
    pub fn is_pending(&self) -> bool {
        self.lowered.result.is_pending()
    }
}

impl Answered for CallOutcome {
    fn call(&self) -> CallRef<'_> {
        CallRef::new(&self.call.id, &self.call.name)
    }

    fn result(&self) -> &ToolResult {
        &self.lowered.result
    }

    fn structured_content(&self) -> Option<&RawValue> {
        self.lowered.structured_content()
    }

    fn structured_content_withheld(&self) -> bool {
        self.lowered.structured_content_withheld()
    }
}

/// One attempt of a call: its lowered result and what the retry policy
/// decided after it. A [`Driver`](super::Driver) gets each one to keep.
///
/// It serialises as a durable engine journals it, **never with the source
/// error's text** (which may hold an address, a token, a customer's data):
/// the canonical result, whether its output is MCP `structuredContent`, a
/// summary of the Rust channel (the transient hint, the retry-after, the
/// source's type name) and the decision. Read back, it is the same attempt
/// without its source, whatever its parts weigh (the journal is the
/// toolbox's own record: no part size limit applies to it).
///
/// ```
/// use toolresult::toolbox::Attempt;
///
/// let journaled = r#"{"result":{"output":"{\"error\":{\"message\":\"busy\"}}","isError":true},"structured":false,"channel":{"transient":true,"retryAfterMs":1500,"sourceType":"std::io::Error"},"decision":{"retry":{"delayMs":1500}}}"#;
/// let attempt: Attempt = serde_json::from_str(journaled)?;
/// assert_eq!(attempt.lowered.diagnostics.is_transient(), Some(true));
/// assert_eq!(attempt.lowered.diagnostics.source_type_name(), Some("std::io::Error"));
/// assert!(attempt.lowered.diagnostics.source().is_none());
/// assert_eq!(serde_json::to_string(&attempt)?, journaled);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct Attempt {
    /// The attempt's lowered result.
    pub lowered: Lowered,
    /// Call again after a delay, or stop with this result as the answer.
    pub decision: Decision,
}

impl Attempt {
    pub(crate) fn new(lowered: Lowered, decision: Decision) -> Self {
        Self { lowered, decision }
    }
}

/// The journal's form of an [`Attempt`].
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Record<R> {
    #[serde(
        deserialize_with = "unbounded",
        bound(deserialize = "R: From<ToolResult>")
    )]
    result: R,
    structured: bool,
    channel: Channel,
    decision: DecisionRecord,
}

/// The journal's summary of the Rust channel.
#[derive(Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Channel {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    transient: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retry_after_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    source_type: Option<String>,
}

/// The journal's form of a [`Decision`]: `{"retry":{"delayMs":..}}` or
/// `{"stop":{"reason":"permanent"}}` (with `attempts` or `retryAfterMs`
/// for the reasons that carry them).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
enum DecisionRecord {
    #[serde(rename_all = "camelCase")]
    Retry { delay_ms: u64 },
    #[serde(rename_all = "camelCase")]
    Stop {
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attempts: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after_ms: Option<u64>,
    },
}

impl From<&Decision> for DecisionRecord {
    fn from(decision: &Decision) -> Self {
        match *decision {
            Decision::Retry(delay) => Self::Retry {
                delay_ms: millis(delay),
            },
            Decision::Stop(reason) => Self::Stop {
                reason: reason.as_str().to_owned(),
                attempts: match reason {
                    StopReason::AttemptsExhausted { attempts } => Some(attempts),
                    _ => None,
                },
                retry_after_ms: match reason {
                    StopReason::RetryAfterTooLong { retry_after } => Some(millis(retry_after)),
                    _ => None,
                },
            },
        }
    }
}

impl DecisionRecord {
    fn into_decision(self) -> Result<Decision, String> {
        let (reason, attempts, retry_after_ms) = match self {
            Self::Retry { delay_ms } => {
                return Ok(Decision::Retry(Duration::from_millis(delay_ms)));
            }
            Self::Stop {
                reason,
                attempts,
                retry_after_ms,
            } => (reason, attempts, retry_after_ms),
        };
        // The names are `StopReason::as_str`'s, written there once.
        let stop = [
            StopReason::Succeeded,
            StopReason::Suspended,
            StopReason::Cancelled,
            StopReason::Permanent,
            StopReason::Unknown,
            StopReason::NotIdempotent,
            StopReason::AttemptsExhausted {
                attempts: attempts.unwrap_or_default(),
            },
            StopReason::RetryAfterTooLong {
                retry_after: Duration::from_millis(retry_after_ms.unwrap_or_default()),
            },
        ]
        .into_iter()
        .find(|stop| stop.as_str() == reason)
        .ok_or_else(|| {
            format!(
                "unknown stop reason `{}`",
                crate::canonical::shorten(&reason)
            )
        })?;
        Ok(Decision::Stop(stop))
    }
}

impl Serialize for Attempt {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let diagnostics = &self.lowered.diagnostics;
        Record {
            result: &self.lowered.result,
            structured: self.lowered.structured_content().is_some(),
            channel: Channel {
                transient: diagnostics.is_transient(),
                retry_after_ms: diagnostics.retry_after().map(millis),
                source_type: diagnostics.source_type_name().map(str::to_owned),
            },
            decision: DecisionRecord::from(&self.decision),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Attempt {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let record = Record::<ToolResult>::deserialize(deserializer)?;
        let decision = record.decision.into_decision().map_err(D::Error::custom)?;
        let diagnostics = Diagnostics::from_record(
            record.channel.transient,
            record.channel.retry_after_ms.map(Duration::from_millis),
            record.channel.source_type,
        );
        Ok(Self {
            lowered: Lowered::from_record(record.result, record.structured, diagnostics),
            decision,
        })
    }
}

/// The journal's own record: read back whatever part sizes it was
/// written with.
fn unbounded<'de, D: Deserializer<'de>, R: From<ToolResult>>(
    deserializer: D,
) -> Result<R, D::Error> {
    use serde::de::DeserializeSeed as _;
    crate::canonical::PartLimit::new(u64::MAX)
        .deserialize(deserializer)
        .map(R::from)
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
