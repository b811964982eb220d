//! `read_artifact`: the built-in tool that reads a kept artifact back to
//! the model, in slices.

use std::sync::Arc;

use schemars::{JsonSchema, Schema};
use serde::{Deserialize, Serialize};

use crate::budget::{Artifact, ArtifactError, ArtifactId, ArtifactStore, READER_NAME};
use crate::canonical::ContentPart;
use crate::tool::{
    self, ArgsOnly, Arguments, CallContext, Calling, FunctionTool, InvalidToolName, SyncFn, Tool,
    ToolSafety,
};
use crate::{Failure, ToolError, ToolResult};

/// The arguments of `read_artifact`.
#[derive(Deserialize, JsonSchema)]
struct ReadArgs {
    /// The artifact's id, or its `artifact://` URL, as the result that kept
    /// it gave it.
    artifact: String,
    /// Where to start, in bytes from the beginning (default 0). An offset
    /// inside a character starts at that character.
    #[serde(default)]
    offset: u64,
    /// How many bytes to read at most (default and maximum 16384). The
    /// slice ends on a character boundary, so it can be a little shorter.
    #[serde(default = "default_length")]
    length: u64,
}

/// The default `length`: the most one call reads.
fn default_length() -> u64 {
    ArtifactReader::MAX_LENGTH as u64
}

/// A slice of a text artifact, as the model reads it.
#[derive(Debug, Serialize, JsonSchema)]
struct TextSlice {
    /// The text from `offset` up to `next`.
    text: String,
    /// Where the slice starts, in bytes.
    offset: usize,
    /// Where the next slice starts: the `offset` to read next; `null` when
    /// this slice reaches the end.
    next: Option<usize>,
    /// The artifact's length, in bytes.
    total: usize,
}

/// What `read_artifact` reads back: a slice of text, or the line that
/// describes the part a binary artifact comes back as.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
enum ReadBack {
    /// A slice of a text artifact.
    Text(TextSlice),
    /// The describe line of the part that carries a binary artifact.
    Part(String),
}

/// The body of the tool: the store it reads, behind a function.
type ReadFn = Box<dyn Fn(ReadArgs) -> ToolResult<ReadBack> + Send + Sync>;

/// The built-in tool `read_artifact`: the model reads back, in slices, the
/// whole of a result that was cut to fit its budget.
///
/// Arguments: `{"artifact": <id or artifact:// url>, "offset": <bytes,
/// default 0>, "length": <bytes, default and at most 16384>}`.
///
/// - A text artifact ([`Artifact::is_text`], in UTF-8) reads back as
///   `{"text", "offset", "next", "total"}`, cut on character boundaries:
///   the slice starts at `offset`, moved back to the start of the character
///   it falls in, and ends at `offset + length` (or the end), moved back to
///   a character boundary, or forward past one character when that would
///   leave it empty. Reading from 0 and following `next` until it is
///   `null` gives back the artifact byte for byte. An offset past the end
///   is an error result that names the length.
/// - Any other artifact comes back whole as a part, with its describe line
///   (`image (image/png, 82 bytes)`) as the output; one over the part size
///   limit is an error result.
/// - An id the store does not know, or one that is not an id at all, is an
///   error result the model can act on; a failing store is an unexpected
///   error whose text stays with Rust.
///
/// It changes nothing ([`ToolSafety::ReadOnly`]), so a failed read is
/// retried.
///
/// ```
/// use std::sync::Arc;
/// use toolresult::Tool;
/// use toolresult::budget::{Artifact, ArtifactStore, MemoryStore};
/// use toolresult::tool::ArtifactReader;
/// use toolresult::tool::{Arguments, CallContext};
///
/// let store = Arc::new(MemoryStore::new());
/// let id = store.put(Artifact::new("héllo wörld", "text/plain"))?;
/// let reader = ArtifactReader::new(store)?;
/// assert_eq!(reader.name(), ArtifactReader::NAME);
///
/// let cx = CallContext::new("call_1", ArtifactReader::NAME);
/// let read = |args| pollster::block_on(reader.call(&Arguments::Json(args), &cx)).result.output;
/// assert_eq!(
///     read(serde_json::json!({"artifact": id.url(), "length": 6})),
///     r#"{"text":"héllo","offset":0,"next":6,"total":13}"#
/// );
/// // An offset inside `ö` starts at `ö`.
/// assert_eq!(
///     read(serde_json::json!({"artifact": id.as_str(), "offset": 9})),
///     r#"{"text":"örld","offset":8,"next":null,"total":13}"#
/// );
/// assert_eq!(
///     read(serde_json::json!({"artifact": id.as_str(), "offset": 14})),
///     r#"{"error":{"message":"offset 14 is past the end of artifact `"#.to_owned()
///         + id.as_str()
///         + r#"` (13 bytes)","suggestion":"read from an offset below 13"}}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ArtifactReader {
    tool: FunctionTool<ReadArgs, SyncFn<(ArgsOnly, ReadArgs)>, ReadFn>,
}

impl ArtifactReader {
    /// The tool's name, `read_artifact`: what a budget's marker tells the
    /// model to call.
    pub const NAME: &'static str = READER_NAME;

    /// The most bytes one call reads, and the default: 16384.
    pub const MAX_LENGTH: usize = 16 * 1024;

    /// The tool, reading from `store`.
    ///
    /// # Errors
    /// Never in practice: like every tool, it is defined through
    /// [`tool::function`], whose name check [`NAME`](Self::NAME) passes.
    pub fn new(store: Arc<dyn ArtifactStore>) -> Result<Self, InvalidToolName> {
        let body: ReadFn = Box::new(move |args: ReadArgs| read(store.as_ref(), &args));
        let tool = tool::function(
            Self::NAME,
            "Read back the whole of a tool result that was cut short: give the artifact's id \
             or artifact:// URL from that result. Text comes back in slices of up to 16384 \
             bytes: `text`, its `offset`, the `offset` to read `next` (null at the end) and \
             the `total` length in bytes. Anything else comes back whole as an attachment.",
            body,
        )?
        .with_safety(ToolSafety::ReadOnly)
        // A store may read a disk (or a pipe someone planted there): the
        // reader runs where its timeout can answer the call.
        .blocking();
        Ok(Self { tool })
    }
}

/// One call: the artifact `args` names, read at `args`' offset and length.
fn read(store: &dyn ArtifactStore, args: &ReadArgs) -> ToolResult<ReadBack> {
    let id = match ArtifactId::from_url_or_id(&args.artifact) {
        Ok(id) => id,
        Err(invalid) => {
            let error = ToolError::new(invalid.to_string()).with_suggestion(
                "pass the artifact's id or artifact:// URL exactly as the result gave it",
            );
            return ToolResult::fail(Failure::new(error).with_source(invalid).permanent());
        }
    };
    let artifact = match store.get(&id) {
        Ok(Some(artifact)) => artifact,
        Ok(None) => {
            let error = ToolError::new(format!("no artifact `{id}` is kept")).with_suggestion(
                "pass the artifact's id or artifact:// URL exactly as the result gave it",
            );
            return ToolResult::fail(Failure::new(error).permanent());
        }
        Err(failing) => {
            // An artifact over the store's bound stays over it: asking
            // again cannot help.
            let permanent = matches!(failing, ArtifactError::TooLarge { .. });
            let failure = Failure::unexpected(failing);
            return ToolResult::fail(if permanent {
                failure.permanent()
            } else {
                failure
            });
        }
    };
    match text_of(&artifact) {
        Some(text) => read_text(&id, text, args),
        None => read_part(&id, artifact),
    }
}

/// The artifact's text, when it is text in UTF-8.
fn text_of(artifact: &Artifact) -> Option<&str> {
    if artifact.is_text() {
        std::str::from_utf8(&artifact.bytes).ok()
    } else {
        None
    }
}

/// A slice of a text artifact.
fn read_text(id: &ArtifactId, text: &str, args: &ReadArgs) -> ToolResult<ReadBack> {
    let total = text.len();
    let offset = usize::try_from(args.offset).unwrap_or(usize::MAX);
    if offset > total {
        let error = ToolError::new(format!(
            "offset {} is past the end of artifact `{id}` ({total} bytes)",
            args.offset
        ))
        .with_suggestion(format!("read from an offset below {total}"));
        return ToolResult::fail(Failure::new(error).permanent());
    }
    let length = usize::try_from(args.length)
        .unwrap_or(usize::MAX)
        .min(ArtifactReader::MAX_LENGTH);
    let (start, end) = slice_bounds(text, offset, length);
    ToolResult::ok(ReadBack::Text(TextSlice {
        text: text.get(start..end).unwrap_or_default().to_owned(),
        offset: start,
        next: (end < total).then_some(end),
        total,
    }))
}

/// The bounds of the slice of `text` at `offset` (at most its length) of
/// at most `length` bytes, both on character boundaries: the start moved
/// back to one, the end moved back to one, or forward past one character
/// when the slice would be empty before the end.
pub(crate) fn slice_bounds(text: &str, offset: usize, length: usize) -> (usize, usize) {
    let total = text.len();
    let start = floor_boundary(text, offset);
    let mut end = floor_boundary(text, start.saturating_add(length).min(total));
    if end == start && start < total {
        end = ceil_boundary(text, start + 1);
    }
    (start, end)
}

/// The last character boundary at or before `at` (at most `text.len()`).
fn floor_boundary(text: &str, at: usize) -> usize {
    (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// The first character boundary at or after `at` (at most `text.len()`).
fn ceil_boundary(text: &str, at: usize) -> usize {
    (at..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len())
}

/// A binary artifact, whole, as a part.
fn read_part(id: &ArtifactId, artifact: Artifact) -> ToolResult<ReadBack> {
    let bytes = artifact.bytes.len();
    let part = ContentPart::from_bytes(artifact.bytes, &artifact.mime_type).map(|part| {
        match artifact.name {
            Some(name) => part.with_name(name),
            None => part,
        }
    });
    match part {
        Ok(part) => ToolResult::ok(ReadBack::Part(part.describe())).with_parts([part]),
        Err(refused) => {
            let error = ToolError::new(format!(
                "artifact `{id}` ({}, {bytes} bytes) cannot be attached: {refused}",
                artifact.mime_type
            ));
            ToolResult::fail(Failure::new(error).with_source(refused).permanent())
        }
    }
}

impl Tool for ArtifactReader {
    fn name(&self) -> &str {
        self.tool.name()
    }

    fn description(&self) -> &str {
        self.tool.description()
    }

    fn input_schema(&self) -> &Schema {
        self.tool.input_schema()
    }

    fn output_schema(&self) -> &Schema {
        self.tool.output_schema()
    }

    fn model_facing_schema(&self) -> &Schema {
        self.tool.model_facing_schema()
    }

    fn safety(&self) -> ToolSafety {
        self.tool.safety()
    }

    fn blocks(&self) -> bool {
        self.tool.blocks()
    }

    fn call<'a>(&'a self, args: &Arguments, cx: &CallContext<'_>) -> Calling<'a> {
        self.tool.call(args, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::slice_bounds;

    /// Every slice of every length from every offset is on character
    /// boundaries, never empty before the end, and at most `length` bytes
    /// unless one character is longer.
    #[test]
    fn bounds_are_boundaries() {
        let text = "a\u{e9}\u{65e5}\u{1f389}b\u{1f389}\u{65e5}\u{e9}a";
        for offset in 0..=text.len() {
            for length in 0..=10 {
                let (start, end) = slice_bounds(text, offset, length);
                assert!(text.is_char_boundary(start) && text.is_char_boundary(end));
                assert!(start <= offset && offset - start < 4);
                assert!(end <= text.len());
                if start < text.len() {
                    assert!(end > start);
                    let first = text[start..].chars().next().map_or(0, char::len_utf8);
                    assert!(end - start <= length.max(first));
                } else {
                    assert_eq!(end, start);
                }
            }
        }
    }
}
