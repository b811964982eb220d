//! A JSON document scanned once into spans: where each value, array element
//! and object member is in the text, so an elision can copy what it keeps
//! without parsing or serialising it again.

/// How deep a document may nest before it is not elided inside (it is cut
/// as text instead): the scan is recursive.
const MAX_DEPTH: usize = 256;

/// A scanned document: its values in an arena, the root first.
pub(super) struct Tree<'a> {
    pub(super) text: &'a str,
    pub(super) nodes: Vec<Node>,
    kids: Vec<Kid>,
}

static NO_NODE: Node = Node {
    start: 0,
    end: 0,
    kind: Kind::Scalar,
    kids_start: 0,
    kids_len: 0,
};

/// One value: its span in the text, and its elements or members.
pub(super) struct Node {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) kind: Kind,
    kids_start: usize,
    kids_len: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Object,
    Array,
    String,
    Scalar,
}

/// An element of an array, or a member of an object with its key's span
/// (the quoted key as written).
#[derive(Clone, Copy)]
pub(super) struct Kid {
    pub(super) key: Option<(usize, usize)>,
    pub(super) node: usize,
}

impl Node {
    pub(super) fn len(&self) -> usize {
        self.end - self.start
    }
}

impl<'a> Tree<'a> {
    /// Scans `text`; `None` when it is not one JSON value (or nests deeper
    /// than the scan goes).
    pub(super) fn scan(text: &'a str) -> Option<Self> {
        let mut scanner = Scanner {
            bytes: text.as_bytes(),
            at: 0,
            nodes: Vec::new(),
            kids: Vec::new(),
            pending: Vec::new(),
        };
        scanner.skip_whitespace();
        scanner.value(0)?;
        scanner.skip_whitespace();
        if scanner.at != text.len() {
            return None;
        }
        Some(Self {
            text,
            nodes: scanner.nodes,
            kids: scanner.kids,
        })
    }

    pub(super) fn root(&self) -> &Node {
        self.node(0)
    }

    pub(super) fn kids(&self, node: &Node) -> &[Kid] {
        self.kids
            .get(node.kids_start..node.kids_start + node.kids_len)
            .unwrap_or_default()
    }

    pub(super) fn node(&self, index: usize) -> &Node {
        // Every index in the tree is one the scan made.
        self.nodes.get(index).unwrap_or(&NO_NODE)
    }

    pub(super) fn span(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or_default()
    }
}

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    nodes: Vec<Node>,
    kids: Vec<Kid>,
    /// The elements or members of the containers still open, innermost
    /// last; moved to `kids` in one run when a container closes.
    pending: Vec<Kid>,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.at += 1;
        }
    }

    /// Scans the value at `at`; returns its index.
    fn value(&mut self, depth: usize) -> Option<usize> {
        let index = self.nodes.len();
        let start = self.at;
        self.nodes.push(Node {
            start,
            end: start,
            kind: Kind::Scalar,
            kids_start: 0,
            kids_len: 0,
        });
        let kind = match self.peek()? {
            b'{' | b'[' if depth >= MAX_DEPTH => return None,
            b'{' => {
                self.container(b'}', true, depth)?;
                Kind::Object
            }
            b'[' => {
                self.container(b']', false, depth)?;
                Kind::Array
            }
            b'"' => {
                self.string()?;
                Kind::String
            }
            _ => {
                self.scalar()?;
                Kind::Scalar
            }
        };
        let node = self.nodes.get_mut(index)?;
        node.kind = kind;
        node.end = self.at;
        Some(index)
    }

    /// An object's members or an array's elements, up to `close`.
    fn container(&mut self, close: u8, object: bool, depth: usize) -> Option<()> {
        let index = self.nodes.len() - 1;
        let from = self.pending.len();
        self.at += 1;
        self.skip_whitespace();
        if self.peek()? == close {
            self.at += 1;
        } else {
            loop {
                let key = if object {
                    let key_start = self.at;
                    if self.peek()? != b'"' {
                        return None;
                    }
                    self.string()?;
                    let key = (key_start, self.at);
                    self.skip_whitespace();
                    if self.peek()? != b':' {
                        return None;
                    }
                    self.at += 1;
                    self.skip_whitespace();
                    Some(key)
                } else {
                    None
                };
                let node = self.value(depth + 1)?;
                self.pending.push(Kid { key, node });
                self.skip_whitespace();
                match self.peek()? {
                    b',' => {
                        self.at += 1;
                        self.skip_whitespace();
                    }
                    b if b == close => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        let kids_start = self.kids.len();
        self.kids.extend(self.pending.drain(from..));
        let node = self.nodes.get_mut(index)?;
        node.kids_start = kids_start;
        node.kids_len = self.kids.len() - kids_start;
        Some(())
    }

    /// A string, quotes included; an escape is stepped over whole.
    fn string(&mut self) -> Option<()> {
        self.at += 1;
        loop {
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Some(());
                }
                b'\\' => {
                    let escape = match self.bytes.get(self.at + 1)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => 2,
                        b'u' => {
                            let hex = self.bytes.get(self.at + 2..self.at + 6)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            6
                        }
                        _ => return None,
                    };
                    self.at += escape;
                }
                b if b < 0x20 => return None,
                _ => self.at += 1,
            }
        }
    }

    /// A number, `true`, `false` or `null`, checked as serde_json would.
    fn scalar(&mut self) -> Option<()> {
        let start = self.at;
        while let Some(b) = self.peek() {
            if matches!(b, b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t') {
                break;
            }
            self.at += 1;
        }
        let word = std::str::from_utf8(self.bytes.get(start..self.at)?).ok()?;
        match word {
            "true" | "false" | "null" => Some(()),
            _ => serde_json::from_str::<serde_json::Number>(word)
                .ok()
                .map(drop),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_of_members_and_elements() {
        let tree = Tree::scan(r#" {"a": [1, "x\"y", {"b":null}], "c":true} "#).unwrap();
        let root = tree.root();
        assert!(root.kind == Kind::Object);
        let members = tree.kids(root);
        assert_eq!(members.len(), 2);
        let (start, end) = members[0].key.unwrap();
        assert_eq!(tree.span(start, end), r#""a""#);
        let array = tree.node(members[0].node);
        assert_eq!(
            tree.span(array.start, array.end),
            r#"[1, "x\"y", {"b":null}]"#
        );
        let elements = tree.kids(array);
        assert_eq!(elements.len(), 3);
        let string = tree.node(elements[1].node);
        assert!(string.kind == Kind::String);
        assert_eq!(tree.span(string.start, string.end), r#""x\"y""#);
    }

    #[test]
    fn not_json_is_refused() {
        for text in [
            "",
            "{",
            "[1,]",
            r#"{"a" 1}"#,
            "tru",
            "[1] [2]",
            "\"a\nb\"",
            "01",
            r#""\q""#,
            r#""\u12g4""#,
        ] {
            assert!(Tree::scan(text).is_none(), "{text:?}");
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(Tree::scan(&deep).is_none());
    }
}
