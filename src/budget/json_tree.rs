//! A JSON document read lazily, as spans: a container's elements or
//! members are read when an elision first looks inside it, one at a time
//! and only as far as it looks (by skipping over each, brackets and
//! strings only), and kept for the next look. Skipping over a container
//! counts its elements or members too, so a 40,000-row list over budget is
//! skipped through once, to find its end and its count; only the rows an
//! elision looks at are kept, none taken apart.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// A document, with the containers looked into so far.
pub(super) struct Tree<'a> {
    text: &'a str,
    root: Node,
    kids: RefCell<HashMap<usize, Kids>>,
    /// Whether a container was found not to be JSON inside.
    broken: Cell<bool>,
}

/// One value: its span in the text and what it is.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) kind: Kind,
    /// A container's elements or members, as counted by the skip over it
    /// (its commas); 0 for anything else.
    kids: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Object,
    Array,
    String,
    Scalar,
}

/// An element of an array, or a member of an object with its key's span
/// (the quoted key as written).
#[derive(Clone, Copy, Debug)]
pub(super) struct Kid {
    pub(super) key: Option<(usize, usize)>,
    pub(super) node: Node,
}

/// The kids of one container read so far.
struct Kids {
    read: Vec<Kid>,
    /// Where reading goes on; `None` once the closing bracket is reached.
    next: Option<usize>,
}

impl Node {
    pub(super) fn len(&self) -> usize {
        self.end - self.start
    }
}

impl<'a> Tree<'a> {
    /// The document in `text`; `None` when it is not one value (what is
    /// inside is only checked as far as an elision reads it: see
    /// [`broken`](Self::broken), and the caller checks what it writes).
    pub(super) fn scan(text: &'a str) -> Option<Self> {
        let bytes = text.as_bytes();
        let start = skip_whitespace(bytes, 0);
        let root = node_at(bytes, start)?;
        (skip_whitespace(bytes, root.end) == bytes.len()).then(|| Self {
            text,
            root,
            kids: RefCell::new(HashMap::new()),
            broken: Cell::new(false),
        })
    }

    pub(super) fn root(&self) -> Node {
        self.root
    }

    /// Whether a container read so far is not JSON inside.
    pub(super) fn broken(&self) -> bool {
        self.broken.get()
    }

    /// The element or member `index` of a container; `None` past its last
    /// one, for anything else, and where it cannot be read (the text is
    /// not JSON there: the tree is then [`broken`](Self::broken)).
    pub(super) fn kid(&self, node: &Node, index: usize) -> Option<Kid> {
        if !matches!(node.kind, Kind::Object | Kind::Array) {
            return None;
        }
        let bytes = self.text.as_bytes();
        let mut all = self.kids.borrow_mut();
        let kids = all.entry(node.start).or_insert_with(|| Kids {
            read: Vec::new(),
            next: Some(node.start + 1),
        });
        while kids.read.len() <= index {
            let at = kids.next?;
            match read_kid(bytes, node, at, kids.read.is_empty()) {
                Some(Some((kid, next))) => {
                    kids.read.push(kid);
                    kids.next = next;
                }
                Some(None) => kids.next = None,
                None => {
                    self.broken.set(true);
                    kids.next = None;
                }
            }
        }
        kids.read.get(index).copied()
    }

    /// How many elements or members a container has (0 for anything
    /// else), as the skip over it counted them: the ones not read yet are
    /// not read for it.
    pub(super) fn kid_count(&self, node: &Node) -> usize {
        node.kids
    }

    pub(super) fn span(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or_default()
    }
}

/// The value starting at `at`, skipped over to find its end.
fn node_at(bytes: &[u8], at: usize) -> Option<Node> {
    let kind = match bytes.get(at)? {
        b'{' => Kind::Object,
        b'[' => Kind::Array,
        b'"' => Kind::String,
        _ => Kind::Scalar,
    };
    let (end, kids) = match kind {
        Kind::String => (skip_string(bytes, at)?, 0),
        Kind::Object | Kind::Array => skip_container(bytes, at)?,
        Kind::Scalar => (skip_scalar(bytes, at)?, 0),
    };
    Some(Node {
        start: at,
        end,
        kind,
        kids,
    })
}

/// The kid of a container that starts at `at` (`first`: just after the
/// opening bracket), with where the next one starts (`None` when the
/// closing bracket follows it); `Some(None)` when the container closes
/// there (only for the first); `None` when it is not JSON there.
#[allow(clippy::option_option)]
fn read_kid(
    bytes: &[u8],
    node: &Node,
    at: usize,
    first: bool,
) -> Option<Option<(Kid, Option<usize>)>> {
    let object = node.kind == Kind::Object;
    let close = if object { b'}' } else { b']' };
    let mut at = skip_whitespace(bytes, at);
    if first && bytes.get(at) == Some(&close) {
        return Some(None);
    }
    let key = if object {
        let end = skip_string(bytes, at)?;
        let key = (at, end);
        at = skip_whitespace(bytes, end);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        at = skip_whitespace(bytes, at + 1);
        Some(key)
    } else {
        None
    };
    let kid = node_at(bytes, at)?;
    at = skip_whitespace(bytes, kid.end);
    let next = match bytes.get(at)? {
        b',' => Some(at + 1),
        &b if b == close => None,
        _ => return None,
    };
    Some(Some((Kid { key, node: kid }, next)))
}

fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(at) {
        at += 1;
    }
    at
}

/// Eight copies of a byte, for looking at eight bytes at once.
const fn eight(byte: u8) -> u64 {
    u64::from_ne_bytes([byte; 8])
}

/// The end of the string starting at `at` (after its closing quote).
///
/// Eight bytes are looked at at once for a quote or a backslash (a word
/// has one where `word ^ eight(b)` has a zero byte; the lowest flag is
/// exact), then the one found is looked at alone.
fn skip_string(bytes: &[u8], at: usize) -> Option<usize> {
    const LOW: u64 = eight(0x01);
    const HIGH: u64 = eight(0x80);
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut at = at + 1;
    loop {
        while let Some(word) = bytes
            .get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
        {
            let word = u64::from_le_bytes(word);
            let quote = word ^ eight(b'"');
            let backslash = word ^ eight(b'\\');
            let found = ((quote.wrapping_sub(LOW) & !quote)
                | (backslash.wrapping_sub(LOW) & !backslash))
                & HIGH;
            if found != 0 {
                at += (found.trailing_zeros() / 8) as usize;
                break;
            }
            at += 8;
        }
        match bytes.get(at)? {
            b'"' => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
}

/// The end of the array or object starting at `at` (after its closing
/// bracket), and how many elements or members it has.
fn skip_container(bytes: &[u8], start: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut commas = 0;
    let mut at = start;
    loop {
        match bytes.get(at)? {
            b'"' => {
                at = skip_string(bytes, at)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let empty = skip_whitespace(bytes, start + 1) == at;
                    return Some((at + 1, if empty { 0 } else { commas + 1 }));
                }
            }
            b',' if depth == 1 => commas += 1,
            _ => {}
        }
        at += 1;
    }
}

/// The end of the number, `true`, `false` or `null` starting at `at`.
fn skip_scalar(bytes: &[u8], mut at: usize) -> Option<usize> {
    let start = at;
    while let Some(b) = bytes.get(at) {
        if matches!(b, b',' | b']' | b'}' | b':' | b' ' | b'\n' | b'\r' | b'\t') {
            break;
        }
        at += 1;
    }
    (at > start).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_of_members_and_elements() {
        let tree = Tree::scan(r#" {"a": [1, "x\"y]", {"b":null}], "c":true} "#).unwrap();
        let root = tree.root();
        assert_eq!(root.kind, Kind::Object);
        assert_eq!(tree.kid_count(&root), 2);
        let first = tree.kid(&root, 0).unwrap();
        let (start, end) = first.key.unwrap();
        assert_eq!(tree.span(start, end), r#""a""#);
        let array = first.node;
        assert_eq!(
            tree.span(array.start, array.end),
            r#"[1, "x\"y]", {"b":null}]"#
        );
        let second = tree.kid(&array, 1).unwrap();
        assert_eq!(second.node.kind, Kind::String);
        assert_eq!(tree.span(second.node.start, second.node.end), r#""x\"y]""#);
        assert!(tree.kid(&array, 3).is_none());
        assert_eq!(tree.kid_count(&array), 3);
        assert_eq!(tree.kid_count(&second.node), 0);
        assert!(!tree.broken());
        let broken = Tree::scan(r#"[{"a" 1}]"#).unwrap();
        let row = broken.kid(&broken.root(), 0).unwrap().node;
        assert!(broken.kid(&row, 0).is_none());
        assert!(broken.broken());
    }

    #[test]
    fn kids_are_read_only_as_far_as_asked_and_counted_without_being_kept() {
        let text = format!(
            "[{}]",
            (0..1000)
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let tree = Tree::scan(&text).unwrap();
        let root = tree.root();
        let third = tree.kid(&root, 2).unwrap().node;
        assert_eq!(tree.span(third.start, third.end), "2");
        assert_eq!(tree.kids.borrow()[&root.start].read.len(), 3);
        assert_eq!(tree.kid_count(&root), 1000);
        let last = tree.kid(&root, 999).unwrap().node;
        assert_eq!(tree.span(last.start, last.end), "999");
        assert!(tree.kid(&root, 1000).is_none());
        let empty = Tree::scan("[ ]").unwrap();
        assert_eq!(empty.kid_count(&empty.root()), 0);
        assert!(!empty.broken());
        let trailing = Tree::scan("[1, ]").unwrap();
        assert!(trailing.kid(&trailing.root(), 1).is_none());
        assert!(trailing.broken());
    }

    #[test]
    fn a_string_ends_at_its_closing_quote_wherever_the_escapes_fall() {
        // A byte at a time, as the word-at-a-time scan must agree with.
        fn naive(bytes: &[u8]) -> Option<usize> {
            let mut at = 1;
            loop {
                match bytes.get(at)? {
                    b'"' => return Some(at + 1),
                    b'\\' => at += 2,
                    _ => at += 1,
                }
            }
        }
        for len in 0..24 {
            for escape_at in 0..=len {
                for escape in [r#"\""#, r"\\", "é", "😀"] {
                    let mut content = "a".repeat(len);
                    content.insert_str(escape_at, escape);
                    let text = format!("\"{content}\"tail, \"x\"");
                    assert_eq!(
                        skip_string(text.as_bytes(), 0),
                        naive(text.as_bytes()),
                        "{text}"
                    );
                    assert_eq!(skip_string(text.as_bytes(), 0), Some(content.len() + 2));
                }
            }
            let open = format!("\"{}\\\"", "b".repeat(len));
            assert_eq!(skip_string(open.as_bytes(), 0), None, "{open}");
        }
    }

    #[test]
    fn not_one_value_is_refused() {
        for text in ["", "{", "[1] [2]", "\"abc", "[1]]", "}"] {
            assert!(Tree::scan(text).is_none(), "{text:?}");
        }
    }
}
