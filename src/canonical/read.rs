//! The built-in `read`: a path in, the canonical result the Toolnexus `read`
//! builtin gives out.

use std::path::Path;

use super::drain::{read_file, shown};
use super::{MediaType, PartError, PartLimit, ToolResult};

/// Reads a file into a result, with the default part size limit (for
/// another, [`PartLimit::read`]).
///
/// A media file (see [`MediaType`]) becomes the output
/// `<path> (<mime>, <n> bytes)` plus one part carrying the bytes; any other
/// file becomes its UTF-8 text with no parts. A failure is an error result
/// whose output starts `read: ` and names the path; it never panics.
///
/// ```
/// use toolresult::canonical::read;
/// let png = read("tests/fixtures/fixture.png");
/// assert_eq!(png.output, "tests/fixtures/fixture.png (image/png, 82 bytes)");
/// assert_eq!(png.parts.len(), 1);
///
/// let text = read("Cargo.toml");
/// assert!(text.output.starts_with("[package]"));
/// assert!(text.parts.is_empty());
///
/// let missing = read("no/such/file.txt");
/// assert!(missing.is_error);
/// ```
#[must_use]
pub fn read(path: impl AsRef<Path>) -> ToolResult {
    read_under(path.as_ref(), PartLimit::default())
}

/// The built-in read under `limit`; see [`PartLimit::read`].
pub(crate) fn read_under(path: &Path, limit: PartLimit) -> ToolResult {
    let shown = path.display().to_string();
    if MediaType::from_path(path).is_some() {
        return match limit.part_from_path(path) {
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

fn read_text(path: &Path, limit: PartLimit) -> Result<String, PartError> {
    // The same checks as a file part: the opened file must be a regular
    // file, refused from its size when over the limit.
    let bytes = read_file(limit, path)?;
    String::from_utf8(bytes.into()).map_err(|_| PartError::NotText { path: shown(path) })
}

fn read_error(err: &PartError) -> ToolResult {
    ToolResult::error(format!("read: {err}"))
}
