//! Why a result could not be rendered for a provider.

/// Why a result could not be rendered for a provider.
///
/// ```
/// use toolresult::canonical::{ContentPart, ToolResult};
/// use toolresult::provider::{CallRef, OpenAiResponses, PartPolicy, Provider};
///
/// let wav = ContentPart::from_bytes(vec![0u8; 41984], "audio/wav")?;
/// let result = ToolResult::ok(wav.describe()).with_parts([wav]);
/// let answer = (CallRef::new("call_1", "speak"), &result);
/// let err = OpenAiResponses::render(&answer, PartPolicy::Strict)
///     .unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "OpenAI Responses cannot carry part 0 of the result of call `call_1`, \
///      audio (audio/wav, 41984 bytes): a function call output has no audio input"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// A part the provider has no block for, under [`PartPolicy::Strict`](super::PartPolicy::Strict).
    #[error(
        "{style} cannot carry part {index} of the result of call `{call_id}`, {part}: {reason}"
    )]
    UnsupportedPart {
        /// The provider style, e.g. `OpenAI Chat Completions`.
        style: &'static str,
        /// The id of the call whose result holds the part (cut to 64
        /// characters: an id comes from the provider's message).
        call_id: String,
        /// The part's index in the result's `parts`.
        index: usize,
        /// The part's description, e.g. `audio (audio/wav, 41984 bytes)`.
        part: String,
        /// Why the provider cannot carry it.
        reason: &'static str,
    },
}
