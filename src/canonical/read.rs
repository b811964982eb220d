//! `ToolResult::from_path`: the built-in `read`, a path in, the canonical
//! result the Toolnexus `read` builtin gives out.

use std::path::Path;

use super::bounded_read::{read_file, shown};
use super::{ContentPart, MediaType, PartError, PartLimit, ToolResult};

impl ToolResult {
    /// Reads a file into a result, reading at most `limit` bytes of it, text
    /// and media alike ([`PartLimit::default`] is 20 MiB).
    ///
    /// A media file (one [`ContentPart::from_path`] takes) becomes the output
    /// `<path> (<mime>, <n> bytes)` plus one part carrying the bytes; any other
    /// file becomes its UTF-8 text with no parts. A failure is an error result
    /// whose output starts `read: ` and names the path; it never panics.
    ///
    /// ```
    /// use toolresult::canonical::{PartLimit, ToolResult};
    /// let png = ToolResult::from_path("tests/fixtures/fixture.png", PartLimit::default());
    /// assert_eq!(png.output, "tests/fixtures/fixture.png (image/png, 82 bytes)");
    /// assert_eq!(png.parts.len(), 1);
    ///
    /// let text = ToolResult::from_path("Cargo.toml", PartLimit::default());
    /// assert!(text.output.starts_with("[package]"));
    /// assert!(text.parts.is_empty());
    ///
    /// let missing = ToolResult::from_path("no/such/file.txt", PartLimit::default());
    /// assert!(missing.is_error);
    ///
    /// let refused = ToolResult::from_path("tests/fixtures/fixture.png", PartLimit::new(10));
    /// assert!(refused.is_error);
    /// assert!(refused.output.contains("over the part size limit of 10 bytes"));
    /// ```
    #[must_use]
    pub fn from_path(path: impl AsRef<Path>, limit: PartLimit) -> ToolResult {
        let path = path.as_ref();
        let shown = path.display().to_string();
        if MediaType::from_path(path).is_some() {
            return match ContentPart::from_path(path, limit) {
                Ok(part) => {
                    let output = format!(
                        "{shown} ({}, {} bytes)",
                        part.mime_type().unwrap_or_default(),
                        part.byte_len()
                    );
                    ToolResult::ok(output).with_parts([part])
                }
                Err(err) => read_error(&err),
            };
        }
        match read_text(path, limit) {
            Ok(text) => ToolResult::ok(text),
            Err(err) => read_error(&err),
        }
    }
}

fn read_text(path: &Path, limit: PartLimit) -> Result<String, PartError> {
    // The same checks as a file part: the opened file must be a regular
    // file, refused from its size when over the limit.
    let bytes = read_file(limit, path)?;
    String::from_utf8(bytes.into()).map_err(|_| PartError::NotText { path: shown(path) })
}

fn read_error(err: &PartError) -> ToolResult {
    ToolResult::error(format!("read: {err}"))
}
