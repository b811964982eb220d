//! A stream read to its end: the calls to run, why it ended, and the
//! assembled message for the transcript.

use std::fmt;

use serde::{Serialize, Serializer};

use super::{Dialect, StreamEnd};
use crate::provider::Call;

/// A provider's stream read to its end ([`CallStream::finish`](super::CallStream::finish)).
///
/// Serialised, it is the assembled assistant message in the provider's own
/// JSON, what its `read_calls` reads and what the next request's history
/// carries: Chat's `message` (`content`, `refusal`, `tool_calls`), the
/// Responses `output` array (every item as its `output_item.done` gave it:
/// reasoning with its `encrypted_content`, messages, function calls), the
/// Anthropic message (text with its citations, thinking with its
/// `signature`, redacted thinking, server tool blocks, `tool_use`), and the
/// Gemini `content` (text and thoughts, each `thoughtSignature` on the part
/// it came with; a text part joins the one before it when both are of the
/// same kind and the one before has no signature). A call the stream never
/// finished is not in it. An Anthropic `tool_use` whose input never became
/// JSON is written `{"INVALID_JSON": "<the text>"}`, as Anthropic asks.
///
/// Its calls equal what `read_calls` reads from that message, except an
/// Anthropic input that never became JSON: the call keeps the text
/// ([`Arguments::Text`](crate::tool::Arguments::Text)), so the tool answers with its
/// not-JSON error.
///
/// ```
/// use toolresult::provider::{CallStream, Gemini, Provider};
///
/// let mut stream = CallStream::<Gemini>::new();
/// stream.push(r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me look."}]}}]}"#)?;
/// let calls: Vec<_> = stream
///     .push(r#"{"candidates":[{"content":{"role":"model","parts":[
///         {"functionCall":{"name":"find","args":{"q":"rust"}},"thoughtSignature":"c2ln"}]},
///         "finishReason":"STOP"}]}"#)?
///     .collect();
/// assert_eq!(calls[0].name, "find");
/// let turn = stream.finish()?;
/// assert_eq!(
///     serde_json::to_string(&turn)?,
///     r#"{"role":"model","parts":[{"text":"Let me look."},{"functionCall":{"name":"find","args":{"q":"rust"}},"thoughtSignature":"c2ln"}]}"#
/// );
/// assert_eq!(Gemini::read_calls(&serde_json::to_string(&turn)?)?, turn.calls());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub struct Streamed<P: Dialect> {
    end: StreamEnd,
    calls: Vec<Call>,
    message: P::Message,
}

impl<P: Dialect> Streamed<P> {
    pub(crate) fn new(end: StreamEnd, calls: Vec<Call>, message: P::Message) -> Self {
        Self {
            end,
            calls,
            message,
        }
    }

    /// Why the stream ended.
    #[must_use]
    pub fn end(&self) -> &StreamEnd {
        &self.end
    }

    /// The calls to run, in order: every call of the message when it
    /// finished ([`StreamEnd::Finished`]), none otherwise (the message
    /// still holds them, for the transcript).
    #[must_use]
    pub fn calls(&self) -> &[Call] {
        match self.end {
            StreamEnd::Finished => &self.calls,
            _ => &[],
        }
    }
}

impl<P: Dialect> Serialize for Streamed<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        P::write(&self.calls, &self.message, serializer)
    }
}

impl<P: Dialect> Clone for Streamed<P> {
    fn clone(&self) -> Self {
        Self::new(self.end.clone(), self.calls.clone(), self.message.clone())
    }
}

impl<P: Dialect> PartialEq for Streamed<P> {
    fn eq(&self, other: &Self) -> bool {
        self.end == other.end && self.calls == other.calls && self.message == other.message
    }
}

impl<P: Dialect> fmt::Debug for Streamed<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Streamed")
            .field("end", &self.end)
            .field("calls", &self.calls)
            .field("message", &self.message)
            .finish()
    }
}
