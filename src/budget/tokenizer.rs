//! `Tokenizer`: how the LLM tokens of a text are counted for a budget (a
//! cheap estimate, or a real tokenizer behind a feature).

/// How the LLM tokens of a text (what a model's context is measured in)
/// are counted for a budget.
///
/// - [`Estimate`](Self::Estimate) (the default): one token per four bytes
///   of UTF-8, rounded up, `text.len().div_ceil(4)`; the formula
///   [`canonical::ToolResult::estimated_tokens`](crate::canonical::ToolResult::estimated_tokens)
///   uses for `output`. Free, but only an estimate: it over-counts plain
///   English a little (`hello world`: 3 for 2) and under-counts text dense
///   in digits and symbols.
/// - `O200kBase`, with the `tiktoken` feature: the exact count of OpenAI's
///   `o200k_base` encoding, by `tiktoken-rs`. Its tables load once, on
///   first use.
///
/// Parts are not text: their estimate stays
/// [`ContentPart::estimated_tokens`](crate::canonical::ContentPart::estimated_tokens),
/// `max(85, floor(bytes / 750))`.
///
/// ```
/// use toolresult::budget::Tokenizer;
///
/// assert_eq!(Tokenizer::default(), Tokenizer::Estimate);
/// assert_eq!(Tokenizer::Estimate.count("hello world"), 3); // 11 bytes
/// assert_eq!(Tokenizer::Estimate.count(""), 0);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tokenizer {
    /// One token per four bytes, rounded up.
    #[default]
    Estimate,
    /// OpenAI's `o200k_base` encoding.
    ///
    /// Text that spells a special token (`<|endoftext|>`) is counted as the
    /// ordinary text it is, never as the special token: a tool's output
    /// cannot smuggle one in.
    ///
    /// ```
    /// use toolresult::budget::Tokenizer;
    ///
    /// assert_eq!(Tokenizer::O200kBase.count("hello world"), 2);
    /// assert_eq!(Tokenizer::O200kBase.count("<|endoftext|>"), 7);
    /// ```
    #[cfg(feature = "tiktoken")]
    O200kBase,
}

impl Tokenizer {
    /// The number of LLM tokens in `text`.
    #[must_use]
    pub fn count(&self, text: &str) -> usize {
        match self {
            Self::Estimate => crate::canonical::estimate_text_tokens(text),
            #[cfg(feature = "tiktoken")]
            Self::O200kBase => o200k_base::count(text),
        }
    }
}

/// `o200k_base` counts that never panic.
#[cfg(feature = "tiktoken")]
mod o200k_base {
    use std::collections::HashSet;

    /// The longest piece a text the tokenizer refuses whole is counted in.
    const PIECE: usize = 4096;

    /// The tokens of `text`, special-token text counted as ordinary text.
    ///
    /// `tiktoken-rs`'s `encode_ordinary` panics when its regex gives up on
    /// a pathological text (a million spaces and a letter); `encode` with
    /// no special tokens allowed counts the same and returns that error
    /// instead. Such a text is counted in pieces of at most [`PIECE`]
    /// bytes, which can differ from the exact count by a token or so a
    /// piece; a piece refused too falls back to the estimate.
    pub(super) fn count(text: &str) -> usize {
        exact(text).unwrap_or_else(|| {
            pieces(text)
                .map(|piece| {
                    exact(piece).unwrap_or_else(|| crate::canonical::estimate_text_tokens(piece))
                })
                .sum()
        })
    }

    fn exact(text: &str) -> Option<usize> {
        let no_specials = HashSet::new();
        tiktoken_rs::o200k_base_singleton()
            .encode(text, &no_specials)
            .ok()
            .map(|(tokens, _)| tokens.len())
    }

    /// `text` in pieces of at most [`PIECE`] bytes (or one character), cut
    /// on character boundaries.
    fn pieces(text: &str) -> impl Iterator<Item = &str> {
        let mut rest = text;
        std::iter::from_fn(move || {
            if rest.is_empty() {
                return None;
            }
            let mut end = PIECE.min(rest.len());
            while !rest.is_char_boundary(end) {
                end -= 1;
            }
            if end == 0 {
                end = rest.chars().next().map_or(rest.len(), char::len_utf8);
            }
            let (piece, after) = rest.split_at(end);
            rest = after;
            Some(piece)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Tokenizer;

    #[test]
    fn estimate_is_four_bytes_a_token_rounded_up() {
        let long = "x".repeat(4_001);
        let cases = [
            ("", 0),
            ("a", 1),
            ("abcd", 1),
            ("abcde", 2),
            ("hello world", 3),
            ("é", 1),      // 2 bytes
            ("日本語", 3), // 9 bytes
            ("🎉🎉", 2),   // 8 bytes
            (long.as_str(), 1_001),
        ];
        for (text, tokens) in cases {
            assert_eq!(Tokenizer::Estimate.count(text), tokens, "{text:?}");
        }
    }

    #[test]
    fn estimate_agrees_with_the_output_estimate() {
        for text in [
            "",
            "a",
            "hello world",
            "日本語のテキスト",
            "{\"rows\":[1,2,3]}",
        ] {
            assert_eq!(
                Tokenizer::Estimate.count(text),
                crate::canonical::ToolResult::ok(text).estimated_tokens()
            );
        }
    }

    /// Counts from the Python `tiktoken` package (0.14.0,
    /// `len(get_encoding("o200k_base").encode_ordinary(text))`), an
    /// implementation independent of `tiktoken-rs`, over the same published
    /// `o200k_base.tiktoken` ranks (sha256 `446a9538…1a2d`, checked by the
    /// Python loader).
    #[cfg(feature = "tiktoken")]
    #[test]
    fn o200k_base_matches_python_tiktoken() {
        let cases = [
            ("", 0),
            ("hello world", 2),
            ("Hello, world!", 4),
            ("tiktoken is great!", 6),
            ("The quick brown fox jumps over the lazy dog.", 10),
            ("日本語のテキスト", 6),
            ("naïve café 🎉", 6),
            ("fn main() {\n    println!(\"hi\");\n}\n", 10),
            ("{\"rows\":[1,2,3]}", 9),
            // Special-token text counts as ordinary text (1 if special).
            ("<|endoftext|>", 7),
        ];
        for (text, tokens) in cases {
            assert_eq!(Tokenizer::O200kBase.count(text), tokens, "{text:?}");
        }
    }

    /// `tiktoken-rs`'s own `encode_ordinary` panics on this text (its
    /// regex gives up); the count goes on in pieces.
    #[cfg(feature = "tiktoken")]
    #[test]
    fn o200k_base_counts_text_its_regex_gives_up_on() {
        let text = format!("{}x", " ".repeat(1_000_000));
        let tokens = Tokenizer::O200kBase.count(&text);
        assert!((7_000..9_000).contains(&tokens), "{tokens}");
    }
}
