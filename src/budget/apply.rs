//! `Budget::apply`: a lowered result cut to its budget, the whole kept.

use std::sync::Arc;

use bytes::Bytes;
use serde_json::Value;

use super::elide::{Elided, Tally, elide};
use super::text_cut::{TextCut, cut_text};
use super::{Artifact, ArtifactId, ArtifactStore, Budget, READER_NAME};
use crate::Lowered;
use crate::canonical::{ContentPart, MediaSource};

/// The end of the notice when `structuredContent` is withheld.
pub(super) const WITHHELD: &str =
    " structuredContent is withheld: the value cut to fit no longer matches the output schema.";

impl Budget {
    /// `lowered`, cut to fit this budget; a result within it is returned as
    /// it is, untouched.
    ///
    /// - Text `output` over budget keeps its head and its tail, cut on
    ///   character boundaries (on a line's end when one is near), with one
    ///   marker line between them:
    ///   `[… {n} of {total} bytes left out here; read them with read_artifact {"artifact":"{id}","offset":{head}}]`.
    /// - The JSON of a typed value is elided inside the JSON, so it still
    ///   parses: the longest arrays and strings are shortened first (an
    ///   array keeps its first elements, a string its first characters and
    ///   `…`), objects only when nothing else fits. A text part says what
    ///   was left out:
    ///   `[… output elided to fit the budget: {counts} left out; read the whole with read_artifact {"artifact":"{id}","offset":0}]`.
    ///   With `output_schema` (the tool's, as MCP declares it), the elision
    ///   keeps its rules: arrays keep their `minItems`, strings under
    ///   `enum`, `const`, `pattern` or `format` are never cut, an object
    ///   loses members only when it requires none (a map, a struct of
    ///   optional fields). When it cannot fit that way, MCP's
    ///   `structuredContent` is withheld (a served tool's success then
    ///   goes as an error result: MCP wants a conforming value with every
    ///   success) and the text part ends with
    ///   ` structuredContent is withheld: the value cut to fit no longer matches the output schema.`
    /// - Parts over the count or the bytes are left out, each with a line
    ///   in that text part:
    ///   `[{describe} left out to fit the budget; read it with read_artifact {"artifact":"{id}"}]`.
    ///   A part is never dropped without its line. (The lines are not put
    ///   in `output`: a JSON `output` must stay JSON, and a text `output`
    ///   its size.)
    /// - The whole `output` and each part left out are kept in `store`; the
    ///   whole `output` is also referenced as a `file` part by its
    ///   `artifact://` URL, which MCP renders as a `resource_link` and the
    ///   other providers as a line naming it. The [`ArtifactReader`](crate::tool::ArtifactReader)
    ///   tool reads them back.
    ///
    /// A suspension (a pending request) is never cut: its prompt must
    /// reach the model. When the store fails, the lines say the whole could
    /// not be kept.
    ///
    /// ```
    /// use toolresult::budget::{Budget, MemoryStore};
    /// use toolresult::{IntoToolResult, ToolResult};
    ///
    /// let store = MemoryStore::new();
    /// let log: String = (0..10_000).map(|n| format!("line {n}\n")).collect();
    /// let cut = Budget::new().output_bytes(1024).apply(log.clone().lower(), None, &store);
    /// assert!(cut.result.output.len() <= 1024);
    /// assert!(cut.result.output.starts_with("line 0\nline 1\n"));
    /// assert!(cut.result.output.ends_with("line 9999\n"));
    /// assert!(cut.result.output.contains(" bytes left out here; read them with read_artifact {\"artifact\":\"art_"));
    ///
    /// let rows: Vec<u32> = (0..40_000).collect();
    /// let cut = Budget::new().output_bytes(1024).apply(ToolResult::<_>::ok(rows).lower(), None, &store);
    /// let kept: Vec<u32> = serde_json::from_str(&cut.result.output)?;
    /// assert_eq!(kept[..3], [0, 1, 2]);
    /// let notice = cut.result.parts.iter().find_map(|part| part.as_text()).unwrap();
    /// assert!(notice.starts_with(&format!("[… output elided to fit the budget: {} array items left out;", 40_000 - kept.len())));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn apply(
        &self,
        mut lowered: Lowered,
        output_schema: Option<&Value>,
        store: &dyn ArtifactStore,
    ) -> Lowered {
        if self.fits(&lowered) {
            return lowered;
        }
        // An error is `{"error": e}`, not the success the schema is of.
        let output_schema = output_schema.filter(|_| !lowered.result.is_error);
        let mut notice = Vec::new();
        let parts = std::mem::take(&mut lowered.result.parts);
        let keeps = self.keeps(&parts);
        let mut kept = Vec::with_capacity(parts.len() + 2);
        let mut left_out = Vec::new();
        for (part, keep) in parts.into_iter().zip(keeps) {
            if keep {
                kept.push(part);
            } else {
                left_out.push(left_out_line(&part, store));
            }
        }
        if !self.output_fits(&lowered.result.output) {
            let is_json = lowered.output_is_json();
            // The one buffer is shared between the store and the cut: the
            // whole is never copied.
            let output = Arc::new(std::mem::take(&mut lowered.result.output));
            let (mime_type, name) = if is_json {
                ("application/json", "output.json")
            } else {
                ("text/plain", "output.txt")
            };
            let whole = Bytes::from_owner(SharedText(Arc::clone(&output)));
            let kept_as = store
                .put(Artifact::new(whole, mime_type).with_name(name))
                .ok();
            let id = kept_as.as_ref().map(ArtifactId::as_str);
            let elided = is_json
                .then(|| {
                    self.fit_cut(
                        |limit| elide(&output, limit, output_schema),
                        |elided| elided.as_ref().map_or("", |e| e.output.as_str()),
                    )
                })
                .flatten();
            match elided {
                Some(Elided {
                    output: cut,
                    tally,
                    schema_kept,
                }) => {
                    let mut line = json_notice(tally, id);
                    if !schema_kept {
                        line.push_str(WITHHELD);
                        lowered.withhold_structured_content();
                    }
                    notice.push(line);
                    lowered.result.output = cut;
                }
                None => {
                    lowered.result.output = self.fit_cut(
                        |limit| cut_text(&output, limit, |cut| text_marker(cut, output.len(), id)),
                        String::as_str,
                    );
                    lowered.withhold_structured_content();
                }
            }
            if let Some(link) =
                kept_as.and_then(|id| ContentPart::from_url(&id.url(), Some(mime_type)).ok())
            {
                kept.push(link.with_name(name));
            }
        }
        notice.extend(left_out);
        if !notice.is_empty() {
            kept.push(ContentPart::text(notice.join("\n")));
        }
        lowered.result.parts = kept;
        lowered
    }
}

/// A text shared with the store as the bytes of an artifact.
struct SharedText(Arc<String>);

impl AsRef<[u8]> for SharedText {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

/// The marker line between a cut text's head and tail.
fn text_marker(cut: TextCut, total: usize, id: Option<&str>) -> String {
    let left_out = cut.tail - cut.head;
    match id {
        Some(id) => format!(
            "[… {left_out} of {total} bytes left out here; read them with {READER_NAME} {{\"artifact\":\"{id}\",\"offset\":{}}}]",
            cut.head
        ),
        None => format!(
            "[… {left_out} of {total} bytes left out here; the whole output could not be kept]"
        ),
    }
}

/// The line that says what an elision of JSON left out.
fn json_notice(tally: Tally, id: Option<&str>) -> String {
    let mut counts = Vec::new();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    if tally.items > 0 {
        counts.push(plural(tally.items, "array item", "array items"));
    }
    if tally.chars > 0 {
        let strings = if tally.strings == 1 {
            "string"
        } else {
            "strings"
        };
        counts.push(format!(
            "{} characters of {} {strings}",
            tally.chars, tally.strings
        ));
    }
    if tally.members > 0 {
        counts.push(plural(tally.members, "object member", "object members"));
    }
    if counts.is_empty() {
        // Only the whitespace between values was dropped.
        counts.push("whitespace".to_owned());
    }
    let counts = counts.join(", ");
    match id {
        Some(id) => format!(
            "[… output elided to fit the budget: {counts} left out; read the whole with {READER_NAME} {{\"artifact\":\"{id}\",\"offset\":0}}]"
        ),
        None => format!(
            "[… output elided to fit the budget: {counts} left out; the whole output could not be kept]"
        ),
    }
}

/// The line for a part left out, kept in `store` when it has bytes.
fn left_out_line(part: &ContentPart, store: &dyn ArtifactStore) -> String {
    let described = part.describe();
    let artifact = match (part.source(), part.mime_type(), part.as_text()) {
        (Some(MediaSource::Data(bytes)), Some(mime), _) => {
            let artifact = Artifact::new(bytes.clone(), mime);
            Some(match part.name() {
                Some(name) => artifact.with_name(name),
                None => artifact,
            })
        }
        (_, _, Some(text)) => Some(Artifact::new(text.to_owned(), "text/plain")),
        _ => None,
    };
    match (artifact.map(|artifact| store.put(artifact)), part.url()) {
        (Some(Ok(id)), _) => format!(
            "[{described} left out to fit the budget; read it with {READER_NAME} {{\"artifact\":\"{}\"}}]",
            id.as_str()
        ),
        (None, Some(url)) => format!("[{described} left out to fit the budget: {url}]"),
        _ => format!("[{described} left out to fit the budget; it could not be kept]"),
    }
}
