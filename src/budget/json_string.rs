//! A JSON string as written (quoted, escapes and all), measured and cut
//! without being decoded: on characters, never inside an escape.

use std::borrow::Cow;

/// The mark a cut string ends with.
pub(super) const ELLIPSIS: &str = "…";

/// A string (quoted, as written) cut to about `cap` bytes with its `…`:
/// the kept and the left-out raw content; `None` when cutting would not
/// make it shorter. Escapes and characters are never split, and at least
/// `min_chars` characters remain, the `…` counted.
pub(super) fn cut_string(quoted: &str, cap: usize, min_chars: usize) -> Option<(&str, &str)> {
    let content = quoted.get(1..quoted.len().checked_sub(1)?)?;
    let limit = cap.saturating_sub(2 + ELLIPSIS.len());
    let must_keep = min_chars.saturating_sub(1);
    let bytes = content.as_bytes();
    let (mut at, mut chars) = (0, 0);
    while at < bytes.len() {
        let unit = unit_len(bytes, at);
        if at + unit > limit && chars >= must_keep {
            break;
        }
        at += unit;
        chars += 1;
    }
    let kept = content.get(..at)?;
    let left_out = content.get(at..)?;
    (!left_out.is_empty() && kept.len() + ELLIPSIS.len() < content.len())
        .then_some((kept, left_out))
}

/// The bytes of the character or escape at `at` of a string's raw content:
/// `\uD83D\uDE00`, a surrogate pair, is one character.
fn unit_len(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b'\\') => match bytes.get(at + 1) {
            Some(b'u') => {
                let high = bytes
                    .get(at + 2..at + 6)
                    .and_then(|hex| std::str::from_utf8(hex).ok())
                    .and_then(|hex| u16::from_str_radix(hex, 16).ok());
                match high {
                    Some(0xD800..=0xDBFF) if bytes.get(at + 6..at + 8) == Some(b"\\u") => 12,
                    _ => 6,
                }
            }
            _ => 2,
        },
        Some(&lead) if lead >= 0xF0 => 4,
        Some(&lead) if lead >= 0xE0 => 3,
        Some(&lead) if lead >= 0xC0 => 2,
        _ => 1,
    }
}

/// The characters of a string's raw content, an escape counted as one.
pub(super) fn count_chars(raw: &str) -> usize {
    let bytes = raw.as_bytes();
    let (mut at, mut chars) = (0, 0);
    while at < bytes.len() {
        at += unit_len(bytes, at);
        chars += 1;
    }
    chars
}

/// An object key as written, unescaped.
pub(super) fn unquote(quoted: &str) -> Cow<'_, str> {
    match quoted.get(1..quoted.len().saturating_sub(1)) {
        Some(plain) if !plain.contains('\\') => Cow::Borrowed(plain),
        _ => serde_json::from_str::<String>(quoted).map_or(Cow::Borrowed(""), Cow::Owned),
    }
}
