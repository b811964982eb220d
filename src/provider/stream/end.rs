//! Why a stream ended.

use std::fmt;

/// Why a provider's stream ended. Only [`Finished`](Self::Finished) lets
/// the message's calls run.
///
/// ```
/// use toolresult::provider::{Anthropic, CallStream, StreamEnd};
///
/// let mut stream = CallStream::<Anthropic>::new();
/// stream.push(r#"{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}"#)?;
/// let turn = stream.finish()?;
/// assert_eq!(turn.end(), &StreamEnd::Length);
/// assert_eq!(turn.end().to_string(), "the message was cut at the output limit");
/// assert!(turn.calls().is_empty());
/// # Ok::<(), toolresult::provider::ReadCallsError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamEnd {
    /// The model finished its message (Chat's `stop` or `tool_calls`,
    /// Responses' `response.completed`, Anthropic's `end_turn`, `tool_use`
    /// or `stop_sequence`, Gemini's `STOP`): its calls may run.
    Finished,
    /// Cut at the output limit (`length`, `max_tokens`,
    /// `max_output_tokens`, `MAX_TOKENS`, Anthropic's
    /// `model_context_window_exceeded`).
    Length,
    /// Stopped by a content filter or a refusal (`content_filter`,
    /// `refusal`, Gemini's `SAFETY`, `RECITATION`, `BLOCKLIST`,
    /// `PROHIBITED_CONTENT`, `SPII`, a blocked prompt).
    Filtered,
    /// The provider sent an error (an `error` event, `response.failed`):
    /// its message, cut to 64 characters.
    Failed(String),
    /// The events stopped before the provider's finish.
    Unfinished,
    /// A finish the crate does not know (Anthropic's `pause_turn`,
    /// Gemini's `MALFORMED_FUNCTION_CALL`): the provider's word for it, cut
    /// to 64 characters.
    Other(String),
}

impl fmt::Display for StreamEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Finished => f.write_str("the message finished"),
            Self::Length => f.write_str("the message was cut at the output limit"),
            Self::Filtered => f.write_str("the message was stopped by a content filter"),
            Self::Failed(message) => write!(f, "the provider sent an error: {message}"),
            Self::Unfinished => f.write_str("the stream ended before the message finished"),
            Self::Other(reason) => {
                write!(f, "the message ended for a reason not known: {reason:?}")
            }
        }
    }
}
