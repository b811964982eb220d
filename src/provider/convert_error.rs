//! Why a foreign result (an MCP `CallToolResult`, a Toolnexus result) could
//! not be read into a canonical one.

/// Why a foreign result could not be read into a canonical
/// [`ToolResult`](crate::canonical::ToolResult). Every message says where
/// (`content[2]`, `parts[0]`) and what was wrong.
///
/// ```
/// use toolresult::canonical::PartLimit;
/// use toolresult::provider::{ConvertError, Mcp};
///
/// let bad = serde_json::json!({"content": [{"type": "image", "mimeType": "image/png"}]});
/// let err = Mcp::read_result(bad.to_string(), PartLimit::default()).unwrap_err();
/// assert!(matches!(err, ConvertError::MissingField { .. }));
/// assert_eq!(err.to_string(), "content[0]: an image block has no `data`");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// The value is not the JSON type it must be.
    #[error("{at}: expected {expected}, found {found}")]
    WrongType {
        /// Where: `the result`, `isError`, `content[1].text`.
        at: String,
        /// What it must be.
        expected: &'static str,
        /// What it was (`null`, a string, a number, ...).
        found: &'static str,
    },
    /// A content block without a field its type requires.
    #[error("{at}: {block} has no `{field}`")]
    MissingField {
        /// Where: `content[0]`.
        at: String,
        /// The block, e.g. `an image block`.
        block: &'static str,
        /// The missing field.
        field: &'static str,
    },
    /// A content block of a type the reader does not know.
    #[error(
        "{at}: unknown content type `{type_name}`: expected one of `text`, `image`, `audio`, `resource`, `resource_link`"
    )]
    UnknownContentType {
        /// Where: `content[0]`.
        at: String,
        /// The type as given (long values are cut to 64 characters and end
        /// in `…`).
        type_name: String,
    },
    /// A block or part whose content breaks the part contract (bad base64,
    /// an invalid mime type, a URL a part may not hold).
    #[error("{at}: {source}")]
    InvalidPart {
        /// Where: `content[0]`, `parts[1]`.
        at: String,
        /// What the part reader found.
        #[source]
        source: serde_json::Error,
    },
    /// Text or bytes that are not JSON (from
    /// [`Mcp::read_result`](crate::provider::Mcp::read_result)).
    #[error("the result is not valid JSON: {source}")]
    Json {
        /// What the parser found, and where.
        #[source]
        source: serde_json::Error,
    },
    /// A foreign value that could not be written to JSON to be read.
    #[error("cannot write the {what} as JSON: {source}")]
    Encode {
        /// What was being written.
        what: &'static str,
        /// What the serialiser found.
        #[source]
        source: serde_json::Error,
    },
}
