//! Text over budget: its head and its tail, with one marker line between.

/// Where a text was cut: `text[..head]` and `text[tail..]` are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TextCut {
    pub(super) head: usize,
    pub(super) tail: usize,
}

/// `text` cut to at most `max_bytes`: its head, the marker line for the
/// bytes left out, its tail. Cuts fall on character boundaries, and on a
/// line's end when one is near. `marker(cut)` writes the marker line; it
/// must not grow as the numbers in it shrink (they only do).
pub(super) fn cut_text(text: &str, max_bytes: usize, marker: impl Fn(TextCut) -> String) -> String {
    // The longest the marker gets: for the most that can be left out.
    let widest = marker(TextCut {
        head: text.len(),
        tail: text.len().saturating_mul(2).max(1),
    })
    .len();
    let room = max_bytes.saturating_sub(widest + 2);
    let head = line_end_before(text, floor_boundary(text, room / 2));
    let tail = line_start_after(
        text,
        ceil_boundary(text, text.len() - (room - room / 2).min(text.len())),
    );
    let tail = tail.max(head);
    let cut = TextCut { head, tail };
    let (kept_head, kept_tail) = (&text[..head], &text[tail..]);
    let line = marker(cut);
    let mut out = String::with_capacity(head + line.len() + 2 + kept_tail.len());
    out.push_str(kept_head);
    if !kept_head.is_empty() && !kept_head.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&line);
    if !kept_tail.is_empty() {
        out.push('\n');
    }
    out.push_str(kept_tail);
    out
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// `at`, moved back to just after a newline in the last quarter before it.
fn line_end_before(text: &str, at: usize) -> usize {
    let window = at - at / 4;
    text[..at]
        .rfind('\n')
        .filter(|&nl| nl >= window)
        .map_or(at, |nl| nl + 1)
}

/// `at`, moved on to just after a newline in the first quarter of what is
/// after it.
fn line_start_after(text: &str, at: usize) -> usize {
    let window = (text.len() - at) / 4;
    text[at..]
        .find('\n')
        .filter(|&nl| nl < window)
        .map_or(at, |nl| at + nl + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(cut: TextCut) -> String {
        format!("[… {} bytes left out]", cut.tail - cut.head)
    }

    #[test]
    fn head_and_tail_around_one_marker_line() {
        let text: String = (0..1000).map(|n| format!("line {n}\n")).collect();
        let out = cut_text(&text, 300, marker);
        assert!(out.len() <= 300, "{}", out.len());
        let marker_at = out.find("[…").unwrap();
        let (head, rest) = out.split_at(marker_at);
        let (line, tail) = rest.split_once('\n').unwrap();
        assert!(text.starts_with(head) && head.ends_with('\n'));
        assert!(text.ends_with(tail) && tail.starts_with("line "));
        let left_out = text.len() - head.len() - tail.len();
        assert_eq!(line, format!("[… {left_out} bytes left out]"));
    }

    #[test]
    fn cuts_never_split_a_character() {
        let text = "日本語のテキスト".repeat(100);
        for max in [40, 41, 42, 43, 100, 333] {
            let out = cut_text(&text, max, marker);
            assert!(out.len() <= max);
        }
    }
}
