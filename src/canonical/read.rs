//! The built-in `read`: a path in, the canonical result the Toolnexus `read`
//! builtin gives out.

use std::path::Path;

use super::{MediaType, PartError, PartLimit, ToolResult};

/// Reads a file into a result, with the default part size limit.
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
    read_with_limit(path, PartLimit::default())
}

/// [`read`] with another size limit, applied to text and media alike.
#[must_use]
pub fn read_with_limit(path: impl AsRef<Path>, limit: PartLimit) -> ToolResult {
    let path = path.as_ref();
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
    match read_text(path, &shown, limit) {
        Ok(text) => ToolResult::ok(text),
        Err(err) => read_error(&err),
    }
}

fn read_text(path: &Path, shown: &str, limit: PartLimit) -> Result<String, PartError> {
    // Reuse the part reader's checks (metadata first, size limit, not a
    // directory) by reading the text through the same path as a file part.
    let bytes = limit.read_file(path, shown)?;
    String::from_utf8(bytes.into()).map_err(|_| PartError::NotText {
        path: shown.to_owned(),
    })
}

fn read_error(err: &PartError) -> ToolResult {
    ToolResult::error(format!("read: {err}"))
}
