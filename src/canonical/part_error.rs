//! Why a content part could not be built.

use std::io;

/// Why a [`ContentPart`](super::ContentPart) could not be built, from a path,
/// bytes, a reader, a URL or JSON.
///
/// Every message names the offending value; a value longer than 64
/// characters is cut there and ends in `…`, so hostile input cannot make a
/// message of megabytes.
///
/// ```
/// use toolresult::canonical::{ContentPart, PartError, PartLimit};
/// let err = ContentPart::from_path("notes.txt", PartLimit::default()).unwrap_err();
/// assert!(matches!(err, PartError::UnknownExtension { .. }));
/// assert_eq!(
///     err.to_string(),
///     "unknown media extension `txt` in `notes.txt`: pass the bytes with an explicit mime type instead"
/// );
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PartError {
    /// The path's extension is not in the media table.
    #[error(
        "unknown media extension `{extension}` in `{path}`: pass the bytes with an explicit mime type instead"
    )]
    UnknownExtension {
        /// The path as given (long values are cut).
        path: String,
        /// The extension, as written (long values are cut).
        extension: String,
    },
    /// The path has no extension at all.
    #[error(
        "`{path}` has no extension, so its media type is unknown: pass the bytes with an explicit mime type instead"
    )]
    MissingExtension {
        /// The path as given (long values are cut).
        path: String,
    },
    /// The path's file name is not valid UTF-8.
    #[error("the file name of `{path}` is not valid UTF-8")]
    NonUtf8FileName {
        /// The path, with invalid bytes replaced.
        path: String,
    },
    /// The path could not be read (or its metadata could not be).
    #[error("cannot read `{path}`: {source}")]
    Read {
        /// The path as given (long values are cut).
        path: String,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The path names a directory or another non-file.
    #[error("`{path}` is not a regular file")]
    NotAFile {
        /// The path as given (long values are cut).
        path: String,
    },
    /// A file that is neither media nor UTF-8 text (from [`ToolResult::from_path`](super::ToolResult::from_path)).
    #[error("`{path}` is not valid UTF-8 text and its extension is not a known media type")]
    NotText {
        /// The path as given (long values are cut).
        path: String,
    },
    /// A reader failed while it was drained.
    #[error("cannot read the {what}: {source}")]
    Reader {
        /// What was being read.
        what: &'static str,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The content is larger than the part size limit.
    #[error("{what} is {bytes} bytes, over the part size limit of {limit} bytes")]
    TooLarge {
        /// What was too large: a path in backticks, "the data", "the
        /// reader's data", "the part's `data`" or "the data: URL's data".
        what: String,
        /// Its size, or the size read so far when it went over.
        bytes: u64,
        /// The limit in force.
        limit: u64,
    },
    /// The memory to hold a part's bytes could not be allocated.
    #[error("cannot allocate {bytes} bytes to hold {what}")]
    OutOfMemory {
        /// What was being read: a path in backticks or "the reader's data".
        what: String,
        /// The size of the buffer that could not be allocated.
        bytes: u64,
        /// The allocator's refusal.
        #[source]
        source: std::collections::TryReserveError,
    },
    /// A non-text part has no mime type, or an empty one.
    #[error("{} {kind} part needs a mime type", article(*.kind))]
    MissingMimeType {
        /// The part's kind.
        kind: super::PartKind,
    },
    /// A mime type that is not `type/subtype`.
    #[error("invalid mime type `{mime_type}`: expected `type/subtype`")]
    InvalidMimeType {
        /// The mime type as given (long values are cut).
        mime_type: String,
    },
    /// An explicit mime type that disagrees with the one a `data:` URL carries.
    #[error(
        "mime type `{mime_type}` does not match the data: URL's mime type `{data_url_mime_type}`"
    )]
    MimeTypeMismatch {
        /// The mime type as given (long values are cut).
        mime_type: String,
        /// The mime type inside the `data:` URL (long values are cut).
        data_url_mime_type: String,
    },
    /// A URL other than `data:` given without a mime type.
    #[error("the URL `{url}` needs an explicit mime type")]
    UrlWithoutMimeType {
        /// The start of the URL (long URLs are cut).
        url: String,
    },
    /// A non-text part with both `data` and `url`.
    #[error("{} {kind} part has both `data` and `url`; it must have exactly one", article(*.kind))]
    BothDataAndUrl {
        /// The part's kind.
        kind: super::PartKind,
    },
    /// A non-text part with neither `data` nor `url`.
    #[error("{} {kind} part has neither `data` nor `url`; it must have exactly one", article(*.kind))]
    NeitherDataNorUrl {
        /// The part's kind.
        kind: super::PartKind,
    },
    /// A field that the part's kind does not carry (`mimeType` on a text part,
    /// `text` on an image).
    #[error("{} {kind} part cannot carry `{field}`", article(*.kind))]
    UnexpectedField {
        /// The part's kind.
        kind: super::PartKind,
        /// The wire name of the field.
        field: &'static str,
    },
    /// A `type` that is not one of `text`, `image`, `file`, `audio`.
    #[error("unknown part type `{type_name}`: expected one of `text`, `image`, `file`, `audio`")]
    UnknownType {
        /// The type as given (long values are cut).
        type_name: String,
    },
    /// A `data:` URL that could not be parsed.
    #[error("malformed data: URL `{url}`: {reason}")]
    MalformedDataUrl {
        /// The start of the URL (long URLs are cut).
        url: String,
        /// What was wrong with it.
        reason: &'static str,
    },
    /// A URL that a part may not hold (no scheme, or a `file:` URL, which
    /// would be a filesystem path).
    #[error("`{url}` is not a URL a part may hold: {reason}")]
    InvalidUrl {
        /// The start of the URL (long URLs are cut).
        url: String,
        /// What was wrong with it.
        reason: &'static str,
    },
    /// `data`, or the payload of a `data:` URL, that is not standard padded base64.
    #[error("invalid base64 in {what}: {}", describe_base64(.source))]
    InvalidBase64 {
        /// Where the base64 was.
        what: &'static str,
        /// What the decoder found.
        #[source]
        source: base64::DecodeError,
    },
}

/// What a base64 decoder found, said in the crate's own words: lowercase,
/// naming the offending character and where it is.
fn describe_base64(err: &base64::DecodeError) -> String {
    use base64::DecodeError;
    match *err {
        DecodeError::InvalidByte(offset, b'\n' | b'\r') => {
            format!("a line break at offset {offset} (standard base64 has no line breaks)")
        }
        DecodeError::InvalidByte(offset, byte) => {
            format!("invalid character {} at offset {offset}", show_byte(byte))
        }
        DecodeError::InvalidLength(length) => {
            format!("{length} base64 characters do not encode a whole number of bytes")
        }
        DecodeError::InvalidLastSymbol(offset, byte) => format!(
            "the last character {} at offset {offset} has bits set past the end of the data",
            show_byte(byte)
        ),
        DecodeError::InvalidPadding => {
            "missing or misplaced `=` padding (standard base64 is padded to a multiple of 4 characters)"
                .to_owned()
        }
    }
}

/// A byte for a message: `*` when it is printable ASCII, `0xc3` otherwise.
fn show_byte(byte: u8) -> String {
    if byte.is_ascii_graphic() || byte == b' ' {
        format!("`{}`", char::from(byte))
    } else {
        format!("0x{byte:02x}")
    }
}

/// The indefinite article for a kind's wire name: "an image", "a file".
fn article(kind: super::PartKind) -> &'static str {
    match kind {
        super::PartKind::Image | super::PartKind::Audio => "an",
        _ => "a",
    }
}

/// Cuts a value echoed into an error message (a URL, a path, a mime type,
/// a type name) to its first 64 characters, so a multi-megabyte value does
/// not become a multi-megabyte message.
pub(crate) fn shorten(value: &str) -> String {
    const KEEP: usize = 64;
    match value.char_indices().nth(KEEP) {
        Some((at, _)) => format!("{}…", value.get(..at).unwrap_or_default()),
        None => value.to_owned(),
    }
}

/// A message that echoes values it was given (serde's
/// `invalid type: string "…", expected u8`, ``unknown field `…` ``), with
/// every quoted value cut to 64 characters ([`shorten`]) and the whole cut
/// to [`MAX_MESSAGE`] characters: a message never grows with its input.
pub(crate) fn clip_echoes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(MAX_MESSAGE));
    let mut rest = message;
    while let Some(open) = rest.find(['"', '`']) {
        let (before, quoted) = rest.split_at(open);
        out.push_str(before);
        let mut chars = quoted.chars();
        let quote = chars.next().unwrap_or('"');
        let inner = chars.as_str();
        let close = closing_quote(inner, quote);
        let (value, after) = inner.split_at(close.unwrap_or(inner.len()));
        out.push(quote);
        out.push_str(&shorten(value));
        match after.strip_prefix(quote) {
            Some(after) => {
                out.push(quote);
                rest = after;
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    match out.char_indices().nth(MAX_MESSAGE) {
        Some((at, _)) => format!("{}…", out.get(..at).unwrap_or_default()),
        None => out,
    }
}

/// The longest message [`clip_echoes`] gives, in characters.
pub(crate) const MAX_MESSAGE: usize = 512;

/// Where `quote` closes in `text`: the first one not escaped by a
/// backslash (`"` in Rust's debug quoting), or the first backtick.
fn closing_quote(text: &str, quote: char) -> Option<usize> {
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match c {
            '\\' if quote == '"' => escaped = !escaped,
            c if c == quote && !escaped => return Some(at),
            _ => escaped = false,
        }
    }
    None
}
