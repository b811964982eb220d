//! The rules of a part: every check a part passes before it exists, from
//! a constructor or from the wire.

use std::path::Path;

use bytes::Bytes;

use super::base64_data::{decode_base64, decoded_len};
use super::bounded_read::{BytesFrom, shown};
use super::part::Body;
use super::part_error::shorten;
use super::{ContentPart, MediaSource, MediaType, PartError, PartKind, PartLimit};

impl ContentPart {
    /// Builds a part from its wire fields, checking every invariant. The one
    /// place the contract of a part is enforced.
    pub(crate) fn from_fields(fields: PartFields) -> Result<Self, PartError> {
        let kind = fields.kind;
        let name = fields.name.filter(|n| !n.is_empty());
        if kind == PartKind::Text {
            let unexpected = |field| Err(PartError::UnexpectedField { kind, field });
            if fields.mime_type.is_some() {
                return unexpected("mimeType");
            }
            if fields.data.is_some() {
                return unexpected("data");
            }
            if fields.url.is_some() {
                return unexpected("url");
            }
            return Ok(Self {
                kind,
                body: Body::Text(fields.text.unwrap_or_default()),
                name,
            });
        }
        if fields.text.is_some() {
            return Err(PartError::UnexpectedField {
                kind,
                field: "text",
            });
        }
        let mime_type = match fields.mime_type {
            Some(mime) if !mime.is_empty() => check_mime_type(&mime)?,
            _ => return Err(PartError::MissingMimeType { kind }),
        };
        let source = match (fields.data, fields.url) {
            (Some(_), Some(_)) => return Err(PartError::BothDataAndUrl { kind }),
            (None, None) => return Err(PartError::NeitherDataNorUrl { kind }),
            (Some(data), None) => MediaSource::Data(data),
            (None, Some(url)) => {
                check_url(&url)?;
                MediaSource::Url(url)
            }
        };
        Ok(Self {
            kind,
            body: Body::Media { mime_type, source },
            name,
        })
    }
}

/// The wire fields of a part, before the invariants are checked.
#[derive(Default)]
pub(crate) struct PartFields {
    pub(crate) kind: PartKind,
    pub(crate) text: Option<String>,
    pub(crate) mime_type: Option<String>,
    pub(crate) data: Option<Bytes>,
    pub(crate) url: Option<String>,
    pub(crate) name: Option<String>,
}

/// A mime type must be `type/subtype` with no spaces or control characters.
///
/// Parameters may follow (`text/plain;charset=utf-8`), but what comes before
/// them must itself be `type/subtype`: that is all a `data:` URL keeps, so a
/// part's own [`ContentPart::data_url`] always reads back.
///
/// The `type/subtype` comes back in lower case (providers such as Anthropic
/// refuse `Image/PNG`); parameters stay as given.
pub(crate) fn check_mime_type(mime_type: &str) -> Result<String, PartError> {
    let valid = match essence(mime_type).split_once('/') {
        Some((top, sub)) => {
            !top.is_empty()
                && !sub.is_empty()
                && mime_type.matches('/').count() == 1
                && !mime_type
                    .chars()
                    .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == ',')
        }
        None => false,
    };
    if !valid {
        return Err(PartError::InvalidMimeType {
            mime_type: shorten(mime_type),
        });
    }
    let essence = essence(mime_type);
    let parameters = mime_type.get(essence.len()..).unwrap_or_default();
    Ok(format!("{}{parameters}", essence.to_ascii_lowercase()))
}

/// A kept URL must have a scheme (not a drive letter) and must not be a
/// `file:` or `data:` URL.
pub(super) fn check_url(url: &str) -> Result<(), PartError> {
    let invalid = |reason| {
        Err(PartError::InvalidUrl {
            url: shorten(url),
            reason,
        })
    };
    let Some((scheme, _)) = url.split_once(':') else {
        return invalid("it has no scheme");
    };
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return invalid("it has no scheme");
    }
    // `C:\shots\a.png` and `C:/shots/a.png` parse as a one-letter scheme;
    // no URL scheme is one letter, but every Windows drive is.
    if scheme.len() == 1 {
        return invalid("it is a Windows drive path");
    }
    if scheme.eq_ignore_ascii_case("file") {
        return invalid("a file: URL is a filesystem path");
    }
    if scheme.eq_ignore_ascii_case("data") {
        return invalid("a data: URL is decoded into inline data, not kept as a URL");
    }
    Ok(())
}

/// The media type a path's extension gives, from the fixed table.
pub(super) fn media_type_of(path: &Path) -> Result<MediaType, PartError> {
    let Some(file_name) = path.file_name() else {
        return Err(PartError::MissingExtension { path: shown(path) });
    };
    let Some(file_name) = file_name.to_str() else {
        return Err(PartError::NonUtf8FileName { path: shown(path) });
    };
    let extension = match Path::new(file_name).extension().and_then(|e| e.to_str()) {
        Some(ext) if !ext.is_empty() => ext,
        _ => {
            return Err(PartError::MissingExtension { path: shown(path) });
        }
    };
    MediaType::from_extension(extension).ok_or_else(|| PartError::UnknownExtension {
        path: shown(path),
        extension: shorten(extension),
    })
}

/// The kind and checked, normalised mime type of a part built with an
/// explicit mime type.
pub(crate) fn new_media_type(mime_type: &str) -> Result<(PartKind, String), PartError> {
    let kind = PartKind::for_mime_type(mime_type);
    if mime_type.is_empty() {
        return Err(PartError::MissingMimeType { kind });
    }
    Ok((kind, check_mime_type(mime_type)?))
}

/// `Some((mime, bytes))` for a `data:` URL, `None` for any other URL. The
/// size of the data is checked against `limit` from the length of its
/// base64, before any of it is decoded.
pub(super) fn parse_data_url(
    url: &str,
    limit: PartLimit,
) -> Result<Option<(String, Bytes)>, PartError> {
    let Some(scheme) = url.get(..5) else {
        return Ok(None);
    };
    if !scheme.eq_ignore_ascii_case("data:") {
        return Ok(None);
    }
    let rest = url.get(5..).unwrap_or_default();
    let malformed = |reason| PartError::MalformedDataUrl {
        url: shorten(url),
        reason,
    };
    let (header, payload) = rest
        .split_once(',')
        .ok_or_else(|| malformed("it has no `,` before the data"))?;
    let Some(mime) = header
        .strip_suffix(";base64")
        .or_else(|| header.strip_suffix(";BASE64"))
    else {
        return Err(malformed("only `;base64` data: URLs are supported"));
    };
    // Parameters are dropped: `data:image/png;charset=utf-8;base64,..` is `image/png`.
    let mime = essence(mime);
    if mime.is_empty() {
        return Err(malformed("it has no mime type"));
    }
    limit.check(
        BytesFrom::Encoded("the data: URL's data"),
        decoded_len(payload),
    )?;
    let bytes = decode_base64("the data: URL", payload)?;
    Ok(Some((mime.to_owned(), bytes)))
}

/// A mime type without its parameters: `text/plain` of `text/plain;charset=utf-8`.
pub(super) fn essence(mime_type: &str) -> &str {
    mime_type.split(';').next().unwrap_or_default()
}
