//! What to do with a part a provider cannot carry.

use crate::canonical::ContentPart;

use super::encode::ARTIFACT_LINK;
use super::{CallRef, RenderError};

/// What a rendering does with a part its provider cannot carry.
///
/// ```
/// use toolresult::canonical::{ContentPart, ToolResult};
/// use toolresult::provider::{Anthropic, CallRef, PartPolicy, Provider};
///
/// let wav = ContentPart::from_bytes(vec![0u8; 16], "audio/wav")?;
/// let result = ToolResult::ok(wav.describe()).with_parts([wav]);
/// let call = CallRef::new("toolu_1", "speak");
///
/// let answer = (call, &result);
/// let block = Anthropic::render(&answer, PartPolicy::Placeholder)?;
/// let json = serde_json::to_value(&block)?;
/// assert_eq!(json["content"][1]["text"], "[unsupported audio part (audio/wav, 16 bytes)]");
///
/// assert!(Anthropic::render(&(call, &result), PartPolicy::Strict).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PartPolicy {
    /// Replace the part with the text
    /// `[unsupported <type> part (<mime>, <n> bytes)]`
    /// ([`ContentPart::unsupported_placeholder`]). Under either policy, a
    /// budget's link to the whole of a result it cut (an `artifact://`
    /// URL) is the line `[<name>: <url>]`.
    #[default]
    Placeholder,
    /// Fail the rendering with [`RenderError::UnsupportedPart`].
    Strict,
}

impl PartPolicy {
    /// The placeholder text for `part`, or the error under
    /// [`PartPolicy::Strict`]; a budget's `artifact://` link is a line
    /// naming it under either.
    pub(crate) fn unsupported(
        self,
        style: &'static str,
        call: CallRef<'_>,
        index: usize,
        part: &ContentPart,
        reason: &'static str,
    ) -> Result<String, RenderError> {
        // A budget's reference to the whole of a result it cut: a line
        // naming it, under any policy (only MCP carries it as a link).
        if reason == ARTIFACT_LINK {
            return Ok(format!(
                "[{}: {}]",
                part.name().unwrap_or(part.kind().as_str()),
                part.url().unwrap_or_default()
            ));
        }
        match self {
            PartPolicy::Placeholder => Ok(part.unsupported_placeholder()),
            PartPolicy::Strict => Err(RenderError::UnsupportedPart {
                style,
                call_id: crate::canonical::shorten(call.id),
                index,
                part: part.describe(),
                reason,
            }),
        }
    }
}
