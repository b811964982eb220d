//! The fixed media table: extension → mime type → part kind.
//!
//! Mime types come only from this table (never sniffed, never from a system
//! mime database), so every port of the contract agrees on every file.

use std::path::Path;

use super::PartKind;

/// One row of the media table (listed in
/// [`ContentPart::from_path`](super::ContentPart::from_path)'s docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MediaType {
    /// The mime type written to `mimeType`.
    pub(crate) mime_type: &'static str,
    /// The part kind a file of this type becomes.
    pub(crate) kind: PartKind,
}

/// The table itself, lowercase extensions.
const TABLE: &[(&str, MediaType)] = &[
    ("png", MediaType::new("image/png", PartKind::Image)),
    ("jpg", MediaType::new("image/jpeg", PartKind::Image)),
    ("jpeg", MediaType::new("image/jpeg", PartKind::Image)),
    ("gif", MediaType::new("image/gif", PartKind::Image)),
    ("webp", MediaType::new("image/webp", PartKind::Image)),
    ("pdf", MediaType::new("application/pdf", PartKind::File)),
    ("mp3", MediaType::new("audio/mpeg", PartKind::Audio)),
    ("wav", MediaType::new("audio/wav", PartKind::Audio)),
];

impl MediaType {
    const fn new(mime_type: &'static str, kind: PartKind) -> Self {
        Self { mime_type, kind }
    }

    /// Looks an extension up, case-insensitively (`"PNG"` is `"png"`).
    #[must_use]
    pub(crate) fn from_extension(extension: &str) -> Option<Self> {
        TABLE
            .iter()
            .find(|(ext, _)| ext.eq_ignore_ascii_case(extension))
            .map(|(_, media)| *media)
    }

    /// Looks a path's extension up; `None` when it has none or it is unknown.
    #[must_use]
    pub(crate) fn from_path(path: impl AsRef<Path>) -> Option<Self> {
        let extension = path.as_ref().extension()?.to_str()?;
        Self::from_extension(extension)
    }
}

impl PartKind {
    /// The kind an explicit mime type gives: `image/*` is an image, `audio/*`
    /// audio, anything else a file.
    ///
    /// ```
    /// use toolresult::canonical::PartKind;
    /// assert_eq!(PartKind::for_mime_type("image/svg+xml"), PartKind::Image);
    /// assert_eq!(PartKind::for_mime_type("audio/ogg"), PartKind::Audio);
    /// assert_eq!(PartKind::for_mime_type("text/csv"), PartKind::File);
    /// ```
    #[must_use]
    pub fn for_mime_type(mime_type: &str) -> Self {
        let top = mime_type.split('/').next().unwrap_or_default();
        if top.eq_ignore_ascii_case("image") {
            PartKind::Image
        } else if top.eq_ignore_ascii_case("audio") {
            PartKind::Audio
        } else {
            PartKind::File
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{MediaType, PartKind};

    #[test]
    fn an_extension_is_looked_up_in_any_case() {
        let png = MediaType::from_extension("PNG").expect("png is in the table");
        assert_eq!((png.mime_type, png.kind), ("image/png", PartKind::Image));
        assert!(MediaType::from_extension("txt").is_none());
    }

    #[test]
    fn a_path_is_looked_up_by_its_extension() {
        let pdf = MediaType::from_path("a/report.PDF").expect("pdf is in the table");
        assert_eq!(
            (pdf.mime_type, pdf.kind),
            ("application/pdf", PartKind::File)
        );
        assert!(MediaType::from_path("Makefile").is_none());
    }
}
