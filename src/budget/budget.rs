//! `Budget`: how much of a result the model is handed.

use crate::canonical::ContentPart;

use super::Tokenizer;

/// How much of one result the model is handed: at most so many bytes or
/// LLM tokens of `output`, and so many parts of so many bytes. What is over is
/// cut ([`apply`](Self::apply)), and the whole kept as an artifact the
/// model can read back.
///
/// A budget with no limit set (the default) leaves every result as it is.
///
/// ```
/// use toolresult::budget::{Budget, MemoryStore};
/// use toolresult::IntoToolResult;
///
/// let budget = Budget::new().output_bytes(16 * 1024).parts(4).part_bytes(8 << 20);
/// let small = budget.apply("a short answer".lower(), None, &MemoryStore::new());
/// assert_eq!(small.result.output, "a short answer");
///
/// // Too small a limit is raised to the least a cut result needs.
/// let tiny = Budget::new().output_bytes(10);
/// let cut = tiny.apply("x".repeat(2000).lower(), None, &MemoryStore::new());
/// assert!(cut.result.output.len() > 10 && cut.result.output.len() <= Budget::MIN_OUTPUT_BYTES);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    output_bytes: Option<usize>,
    output_tokens: Option<usize>,
    tokenizer: Tokenizer,
    parts: Option<usize>,
    part_bytes: Option<u64>,
}

impl Budget {
    /// The least `output` limit in bytes: room for a head, a tail and the
    /// marker line between them.
    pub const MIN_OUTPUT_BYTES: usize = 512;

    /// The least `output` limit in LLM tokens.
    pub const MIN_OUTPUT_TOKENS: usize = 128;

    /// No limits: every result is left as it is.
    pub fn new() -> Self {
        Self::default()
    }

    /// At most `max` bytes of `output` (at least [`MIN_OUTPUT_BYTES`](Self::MIN_OUTPUT_BYTES)).
    #[must_use]
    pub fn output_bytes(mut self, max: usize) -> Self {
        self.output_bytes = Some(max.max(Self::MIN_OUTPUT_BYTES));
        self
    }

    /// At most `max` LLM tokens of `output`, counted by the
    /// [`tokenizer`](Self::tokenizer) (at least
    /// [`MIN_OUTPUT_TOKENS`](Self::MIN_OUTPUT_TOKENS)).
    #[must_use]
    pub fn output_tokens(mut self, max: usize) -> Self {
        self.output_tokens = Some(max.max(Self::MIN_OUTPUT_TOKENS));
        self
    }

    /// How `output` is counted in LLM tokens; by default
    /// [`Tokenizer::Estimate`].
    #[must_use]
    pub fn tokenizer(mut self, tokenizer: Tokenizer) -> Self {
        self.tokenizer = tokenizer;
        self
    }

    /// At most `max` parts of the tool's own; the budget's notice and its
    /// link to the whole come after them.
    #[must_use]
    pub fn parts(mut self, max: usize) -> Self {
        self.parts = Some(max);
        self
    }

    /// At most `max` bytes of parts in all (decoded bytes, as
    /// [`ContentPart::byte_len`] counts them).
    #[must_use]
    pub fn part_bytes(mut self, max: u64) -> Self {
        self.part_bytes = Some(max);
        self
    }

    /// Whether `output` is within the output limits.
    pub(super) fn output_fits(&self, output: &str) -> bool {
        self.output_bytes.is_none_or(|max| output.len() <= max)
            && self.output_tokens.is_none_or(|max| {
                // A token covers at least one byte: no need to count.
                output.len() <= max || self.tokenizer.count(output) <= max
            })
    }

    /// Whether `lowered` is within budget (or a suspension, never cut):
    /// what [`apply`](Self::apply) returns untouched.
    pub(crate) fn fits(&self, lowered: &crate::Lowered) -> bool {
        let result = &lowered.result;
        (self.output_fits(&result.output) && self.parts_fit(&result.parts)) || result.is_pending()
    }

    /// Which of `parts` are kept: in order, each that still fits the count
    /// and the bytes.
    pub(super) fn keeps(&self, parts: &[ContentPart]) -> Vec<bool> {
        let (mut count, mut bytes) = (0usize, 0u64);
        parts
            .iter()
            .map(|part| {
                let size = u64::try_from(part.byte_len()).unwrap_or(u64::MAX);
                let fits = self.parts.is_none_or(|max| count < max)
                    && self
                        .part_bytes
                        .is_none_or(|max| bytes.saturating_add(size) <= max);
                if fits {
                    count += 1;
                    bytes = bytes.saturating_add(size);
                }
                fits
            })
            .collect()
    }

    /// Whether every part is kept, without listing them.
    pub(super) fn parts_fit(&self, parts: &[ContentPart]) -> bool {
        self.parts.is_none_or(|max| parts.len() <= max)
            && self.part_bytes.is_none_or(|max| {
                parts
                    .iter()
                    .map(|part| u64::try_from(part.byte_len()).unwrap_or(u64::MAX))
                    .fold(0u64, u64::saturating_add)
                    <= max
            })
    }

    /// A cut `output` that fits: `cut(limit)` cuts to a byte limit; the
    /// byte limit is this budget's, and for a token limit it is found by
    /// counting (a token covers at least one byte, so a limit of as many
    /// bytes as tokens always fits).
    pub(super) fn fit_cut<T>(
        &self,
        mut cut: impl FnMut(usize) -> T,
        text: impl Fn(&T) -> &str,
    ) -> T {
        let bytes = self.output_bytes.unwrap_or(usize::MAX);
        let Some(tokens) = self.output_tokens else {
            return cut(bytes);
        };
        let mut limit = bytes.min(tokens.saturating_mul(4));
        for _ in 0..8 {
            let output = cut(limit);
            let counted = self.tokenizer.count(text(&output));
            if counted <= tokens {
                return output;
            }
            // Aim under the limit by the ratio over it, and a tenth more.
            let scaled = (limit as u128) * (tokens as u128) * 9 / ((counted as u128) * 10);
            limit = usize::try_from(scaled)
                .unwrap_or(usize::MAX)
                .min(limit.saturating_sub(1));
        }
        cut(bytes.min(tokens))
    }
}
