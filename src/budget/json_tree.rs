//! A JSON document read lazily, as spans: a container's elements or
//! members are found when an elision first looks inside it, by skipping
//! over each (brackets and strings only), and kept for the next look. A
//! 40,000-row list over budget is skipped through once, its rows never
//! taken apart.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A document, with the containers looked into so far.
pub(super) struct Tree<'a> {
    text: &'a str,
    root: Node,
    kids: RefCell<HashMap<usize, Rc<[Kid]>>>,
}

/// One value: its span in the text and what it is.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) kind: Kind,
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

impl Node {
    pub(super) fn len(&self) -> usize {
        self.end - self.start
    }
}

impl<'a> Tree<'a> {
    /// The document in `text`; `None` when it is not one value (what is
    /// inside is only checked as far as an elision reads it: the caller
    /// checks what it writes).
    pub(super) fn scan(text: &'a str) -> Option<Self> {
        let bytes = text.as_bytes();
        let start = skip_whitespace(bytes, 0);
        let root = node_at(bytes, start)?;
        (skip_whitespace(bytes, root.end) == bytes.len()).then(|| Self {
            text,
            root,
            kids: RefCell::new(HashMap::new()),
        })
    }

    pub(super) fn root(&self) -> Node {
        self.root
    }

    /// The elements or members of a container (none of anything else);
    /// `None` when they cannot be read (the text is not JSON there).
    pub(super) fn kids(&self, node: &Node) -> Option<Rc<[Kid]>> {
        if let Some(kids) = self.kids.borrow().get(&node.start) {
            return Some(Rc::clone(kids));
        }
        let kids: Rc<[Kid]> = match node.kind {
            Kind::Object | Kind::Array => read_kids(self.text.as_bytes(), node)?.into(),
            Kind::String | Kind::Scalar => Rc::from(Vec::new()),
        };
        self.kids.borrow_mut().insert(node.start, Rc::clone(&kids));
        Some(kids)
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
    let end = match kind {
        Kind::String => skip_string(bytes, at)?,
        Kind::Object | Kind::Array => skip_container(bytes, at)?,
        Kind::Scalar => skip_scalar(bytes, at)?,
    };
    Some(Node {
        start: at,
        end,
        kind,
    })
}

/// One level of a container: each element, or each key and value.
fn read_kids(bytes: &[u8], node: &Node) -> Option<Vec<Kid>> {
    let object = node.kind == Kind::Object;
    let close = if object { b'}' } else { b']' };
    let mut kids = Vec::new();
    let mut at = skip_whitespace(bytes, node.start + 1);
    if bytes.get(at) == Some(&close) {
        return Some(kids);
    }
    loop {
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
        kids.push(Kid { key, node: kid });
        at = skip_whitespace(bytes, kid.end);
        match bytes.get(at)? {
            b',' => at = skip_whitespace(bytes, at + 1),
            &b if b == close => return Some(kids),
            _ => return None,
        }
    }
}

fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(at) {
        at += 1;
    }
    at
}

/// The end of the string starting at `at` (after its closing quote).
fn skip_string(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut at = at + 1;
    loop {
        let rest = bytes.get(at..)?;
        let found = rest.iter().position(|&b| b == b'"' || b == b'\\')?;
        at += found;
        if bytes.get(at) == Some(&b'"') {
            return Some(at + 1);
        }
        at += 2;
    }
}

/// The end of the array or object starting at `at`.
fn skip_container(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut depth = 0usize;
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
                    return Some(at + 1);
                }
            }
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
        let members = tree.kids(&root).unwrap();
        assert_eq!(members.len(), 2);
        let (start, end) = members[0].key.unwrap();
        assert_eq!(tree.span(start, end), r#""a""#);
        let array = members[0].node;
        assert_eq!(
            tree.span(array.start, array.end),
            r#"[1, "x\"y]", {"b":null}]"#
        );
        let elements = tree.kids(&array).unwrap();
        assert_eq!(elements.len(), 3);
        assert_eq!(elements[1].node.kind, Kind::String);
        assert_eq!(
            tree.span(elements[1].node.start, elements[1].node.end),
            r#""x\"y]""#
        );
        assert_eq!(tree.kids(&elements[1].node).unwrap().len(), 0);
        let broken = Tree::scan(r#"[{"a" 1}]"#).unwrap();
        let row = broken.kids(&broken.root()).unwrap()[0].node;
        assert!(broken.kids(&row).is_none());
    }

    #[test]
    fn not_one_value_is_refused() {
        for text in ["", "{", "[1] [2]", "\"abc", "[1]]", "}"] {
            assert!(Tree::scan(text).is_none(), "{text:?}");
        }
    }
}
