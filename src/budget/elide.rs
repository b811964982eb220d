//! JSON elided inside the JSON, so it still parses: the longest arrays and
//! strings shortened first.
//!
//! The cut is a water level: for a cap `S`, every array, string (and, when
//! nothing else fits, object) longer than `S` bytes is shortened to about
//! `S`: an array keeps the first elements that fit, a string the first
//! characters and `…`. The largest `S` whose result fits the budget is
//! found by bisection, so the longest values are cut first and values at
//! or under the level are never touched. One routine both measures and
//! writes, so what is measured is what is written.

use serde_json::Value;

use super::json_string::{ELLIPSIS, count_chars, cut_string, unquote};
use super::json_tree::{Kind, Node, Tree};
use super::schema_rules::Rules;

/// How deep an elision looks inside: a value nested deeper is copied whole
/// (serde_json reads no deeper either).
const MAX_DEPTH: usize = 128;

/// A document elided to fit.
pub(super) struct Elided {
    pub(super) output: String,
    pub(super) tally: Tally,
    /// Whether the elision kept the schema's rules (an object lost
    /// members only where its schema requires none), so the value is
    /// valid wherever the whole was.
    pub(super) schema_kept: bool,
}

/// What an elision left out.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Tally {
    pub(super) items: usize,
    pub(super) strings: usize,
    pub(super) chars: usize,
    pub(super) members: usize,
}

/// `text` elided to at most `max_bytes`; `None` when it is not JSON (or
/// nests too deep to walk). With a `schema`, the elision first keeps its
/// rules (every member of an object that requires any); only when that
/// cannot fit does it cut every object and say the schema was not kept.
pub(super) fn elide(text: &str, max_bytes: usize, schema: Option<&Value>) -> Option<Elided> {
    let tree = Tree::scan(text)?;
    let rules = schema.map_or_else(Rules::none, Rules::new);
    if let Some((output, tally)) = fit(&tree, max_bytes, &rules, false) {
        return Some(Elided {
            output,
            tally,
            schema_kept: true,
        });
    }
    let (output, tally) = fit(&tree, max_bytes, &Rules::none(), true)?;
    Some(Elided {
        output,
        tally,
        schema_kept: schema.is_none(),
    })
}

/// The elision at the highest water level that fits `max_bytes`.
fn fit(
    tree: &Tree<'_>,
    max_bytes: usize,
    rules: &Rules<'_>,
    cut_objects: bool,
) -> Option<(String, Tally)> {
    let elision = Elision { tree, cut_objects };
    let root = tree.root();
    let size = |cap: usize| {
        let mut counter = Counter(0);
        elision.emit(&root, cap, rules, &mut counter, 0);
        counter.0
    };
    if size(0) > max_bytes {
        return None;
    }
    let (mut low, mut high) = (0, max_bytes);
    while low < high {
        let mid = low + (high - low).div_ceil(2);
        if size(mid) <= max_bytes {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    let mut writer = Writer {
        out: String::with_capacity(max_bytes),
        tally: Tally::default(),
    };
    elision.emit(&root, low, rules, &mut writer, 0);
    if tree.broken() {
        return None;
    }
    // What was copied unread is checked here, once, in what is kept.
    serde_json::from_str::<serde::de::IgnoredAny>(&writer.out).ok()?;
    Some((writer.out, writer.tally))
}

/// Where an elision goes: counted, or written.
trait Sink {
    fn push(&mut self, text: &str);
    fn add(&mut self, bytes: usize);
    /// `Some` when writing, with what was left out.
    fn tally(&mut self) -> Option<&mut Tally>;
}

struct Counter(usize);

impl Sink for Counter {
    fn push(&mut self, text: &str) {
        self.0 += text.len();
    }
    fn add(&mut self, bytes: usize) {
        self.0 += bytes;
    }
    fn tally(&mut self) -> Option<&mut Tally> {
        None
    }
}

struct Writer {
    out: String,
    tally: Tally,
}

impl Sink for Writer {
    fn push(&mut self, text: &str) {
        self.out.push_str(text);
    }
    fn add(&mut self, _: usize) {}
    fn tally(&mut self) -> Option<&mut Tally> {
        Some(&mut self.tally)
    }
}

struct Elision<'t, 'a> {
    tree: &'t Tree<'a>,
    cut_objects: bool,
}

impl Elision<'_, '_> {
    /// `node` with everything longer than `cap` cut, into `sink`.
    fn emit(&self, node: &Node, cap: usize, rules: &Rules<'_>, sink: &mut impl Sink, depth: usize) {
        let whole = self.tree.span(node.start, node.end);
        if node.len() <= cap || rules.frozen() || depth >= MAX_DEPTH {
            return sink.push(whole);
        }
        match node.kind {
            Kind::Scalar => sink.push(whole),
            Kind::String => {
                let min_chars = rules.min_chars();
                match rules
                    .string_cuttable()
                    .then(|| cut_string(whole, cap, min_chars))
                {
                    Some(Some((kept, left_out))) => {
                        sink.push("\"");
                        sink.push(kept);
                        sink.push(ELLIPSIS);
                        sink.push("\"");
                        if let Some(tally) = sink.tally() {
                            tally.strings += 1;
                            tally.chars += count_chars(left_out);
                        }
                    }
                    _ => sink.push(whole),
                }
            }
            Kind::Array => self.container(node, cap, rules, true, sink, depth),
            Kind::Object => {
                let cuttable = self.cut_objects || rules.members_cuttable();
                self.container(node, cap, rules, cuttable, sink, depth);
            }
        }
    }

    /// An array or object: the first elements or members that fit under
    /// `cap` (all of them when it may not be cut), each cut under `cap`.
    fn container(
        &self,
        node: &Node,
        cap: usize,
        rules: &Rules<'_>,
        cuttable: bool,
        sink: &mut impl Sink,
        depth: usize,
    ) {
        let object = node.kind == Kind::Object;
        // Kids are read as far as this looks: a container that is not
        // JSON inside leaves the tree broken, and the elision is refused.
        let floor = if cuttable {
            rules.min_items()
        } else {
            usize::MAX
        };
        let kid_rules = |index: usize, key: Option<(usize, usize)>| match key {
            Some((start, end)) => rules.member(&unquote(self.tree.span(start, end))),
            None => rules.element(index),
        };
        // The brackets, then each kid with its key and separator, written
        // as soon as it is known to fit (what fits does not depend on the
        // kids after it).
        let writing = sink.tally().is_some();
        if writing {
            sink.push(if object { "{" } else { "[" });
        }
        let mut used = 2;
        let mut keep = 0;
        let mut cut_short = false;
        while let Some(kid) = self.tree.kid(node, keep) {
            let index = keep;
            let key = kid.key.map_or(0, |(start, end)| end - start + 1);
            let separator = usize::from(index > 0);
            // A kid of a container being cut gets the room left in it (the
            // first a long string or array gets is shortened, not dropped);
            // a member of an object kept whole gets the level.
            let kid_cap = if cuttable {
                cap.saturating_sub(used + key + separator)
            } else {
                cap
            };
            let kid_rules = kid_rules(index, kid.key);
            let mut counter = Counter(0);
            self.emit(&kid.node, kid_cap, &kid_rules, &mut counter, depth + 1);
            let add = counter.0 + key + separator;
            if used + add > cap && index >= floor {
                cut_short = true;
                break;
            }
            used += add;
            keep += 1;
            if writing {
                if index > 0 {
                    sink.push(",");
                }
                if let Some((start, end)) = kid.key {
                    sink.push(self.tree.span(start, end));
                    sink.push(":");
                }
                self.emit(&kid.node, kid_cap, &kid_rules, sink, depth + 1);
            }
        }
        if !writing {
            return sink.add(used);
        }
        sink.push(if object { "}" } else { "]" });
        if cut_short && let Some(tally) = sink.tally() {
            let left_out = self.tree.kid_count(node).saturating_sub(keep);
            if object {
                tally.members += left_out;
            } else {
                tally.items += left_out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_longest_array_is_cut_first() {
        let text =
            json!({"small": [1, 2], "big": (0..100).collect::<Vec<_>>(), "name": "x"}).to_string();
        let elided = elide(&text, 60, None).unwrap();
        assert!(elided.output.len() <= 60, "{}", elided.output);
        let value: Value = serde_json::from_str(&elided.output).unwrap();
        assert_eq!(value["small"], json!([1, 2]));
        assert_eq!(value["name"], "x");
        let kept = value["big"].as_array().unwrap();
        assert_eq!(
            kept[..],
            (0..kept.len()).map(|n| json!(n)).collect::<Vec<_>>()[..]
        );
        assert_eq!(elided.tally.items, 100 - kept.len());
        assert!(elided.schema_kept);
    }

    #[test]
    fn a_long_first_element_is_shortened_not_dropped() {
        let text = json!(["a".repeat(3000), "b".repeat(3000)]).to_string();
        let elided = elide(&text, 1024, None).unwrap();
        assert!(elided.output.len() <= 1024);
        let value: Value = serde_json::from_str(&elided.output).unwrap();
        let first = value[0].as_str().unwrap();
        assert!(first.len() > 900 && first.ends_with('…'), "{first}");
        let nested = json!({"docs": ["d".repeat(5000)]}).to_string();
        let elided = elide(&nested, 1024, None).unwrap();
        let value: Value = serde_json::from_str(&elided.output).unwrap();
        assert!(value["docs"][0].as_str().unwrap().len() > 900);
    }

    #[test]
    fn strings_are_cut_on_characters_and_escapes() {
        let text = json!({"log": "é\n€😀".repeat(50)}).to_string();
        let elided = elide(&text, 40, None).unwrap();
        assert!(elided.output.len() <= 40);
        let value: Value = serde_json::from_str(&elided.output).unwrap();
        let log = value["log"].as_str().unwrap();
        let kept = log.strip_suffix('…').unwrap();
        assert!("é\n€😀".repeat(50).starts_with(kept));
        assert_eq!(elided.tally.strings, 1);
        assert_eq!(elided.tally.chars, 200 - kept.chars().count());
    }

    #[test]
    fn a_schema_keeps_min_items_and_patterned_strings() {
        let text = json!({"ids": ["a".repeat(30), "b".repeat(30), "c".repeat(30)], "rows": (0..50).collect::<Vec<_>>()}).to_string();
        let schema = json!({"properties": {
            "ids": {"type": "array", "minItems": 2, "items": {"type": "string", "pattern": "^[a-c]+$"}},
            "rows": {"type": "array", "minItems": 1}
        }});
        let elided = elide(&text, 100, Some(&schema)).unwrap();
        assert!(elided.schema_kept);
        let value: Value = serde_json::from_str(&elided.output).unwrap();
        let ids = value["ids"].as_array().unwrap();
        assert!(ids.len() >= 2);
        assert!(ids.iter().all(|id| !id.as_str().unwrap().ends_with('…')));
        assert!(!value["rows"].as_array().unwrap().is_empty());
    }

    #[test]
    fn objects_are_cut_when_nothing_else_fits_and_the_schema_is_dropped() {
        let object: serde_json::Map<String, Value> =
            (0..200).map(|n| (format!("key{n}"), json!(n))).collect();
        let text = Value::Object(object).to_string();
        for schema in [
            json!({"type": "object", "required": ["key0"]}),
            json!({"type": "object", "minProperties": 1}),
            json!({"anyOf": [{"type": "object"}, {"required": ["key1"]}]}),
        ] {
            let elided = elide(&text, 100, Some(&schema)).unwrap();
            assert!(elided.output.len() <= 100);
            assert!(!elided.schema_kept, "{schema}");
            assert!(elided.tally.members > 0);
        }
        let without = elide(&text, 100, None).unwrap();
        assert!(without.schema_kept, "no schema, none to break");
    }

    #[test]
    fn a_map_loses_members_and_keeps_its_schema() {
        // A `BTreeMap<String, u32>` field, as schemars declares it.
        let counts: serde_json::Map<String, Value> = (0..500)
            .map(|n| (format!("item-{n:04}"), json!(n)))
            .collect();
        let text = json!({"counts": counts}).to_string();
        let schema = json!({
            "type": "object",
            "properties": {"counts": {
                "type": "object",
                "additionalProperties": {"type": "integer", "format": "uint32", "minimum": 0}
            }},
            "required": ["counts"]
        });
        let elided = elide(&text, 1024, Some(&schema)).unwrap();
        assert!(elided.output.len() <= 1024, "{}", elided.output.len());
        assert!(elided.schema_kept);
        let value: Value = serde_json::from_str(&elided.output).unwrap();
        let kept = value["counts"].as_object().unwrap();
        assert!(kept.len() > 30, "{}", kept.len());
        assert_eq!(kept["item-0000"], 0);
        assert_eq!(elided.tally.members, 500 - kept.len());
        // A struct of optional fields drops its last ones.
        let text = json!({"a": "x".repeat(10), "b": "y".repeat(500)}).to_string();
        let schema = json!({"type": "object", "properties": {
            "a": {"type": ["string", "null"]},
            "b": {"type": ["string", "null"], "pattern": "^y+$"}
        }});
        let elided = elide(&text, 40, Some(&schema)).unwrap();
        assert!(elided.schema_kept);
        assert_eq!(elided.output, json!({"a": "x".repeat(10)}).to_string());
    }
}
