//! `Artifact`: the whole of something kept aside when a result is cut to
//! fit a budget.

use std::fmt;

use bytes::Bytes;

/// The whole of something kept aside: its bytes, its mime type and,
/// optionally, a name.
///
/// A result cut to fit a budget keeps its full `output` (or its parts) as
/// an artifact, and the model reads it back in slices through
/// [`ArtifactReader`](crate::tool::ArtifactReader). Cloning is cheap: the bytes
/// are shared.
///
/// ```
/// use toolresult::budget::Artifact;
///
/// let log = Artifact::new("line 1\nline 2\n", "text/plain").with_name("build.log");
/// assert!(log.is_text());
/// assert_eq!(log.bytes.len(), 14);
/// assert_eq!(log.name.as_deref(), Some("build.log"));
/// assert!(!Artifact::new(vec![0x89, b'P', b'N', b'G'], "image/png").is_text());
/// ```
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Artifact {
    /// The content.
    pub bytes: Bytes,
    /// Its mime type (`text/plain`, `application/json`, `image/png`).
    pub mime_type: String,
    /// A name for people and models (a file name, say).
    pub name: Option<String>,
}

impl Artifact {
    /// An artifact of these bytes (a `String`, `Vec<u8>`, `&'static str` or
    /// [`Bytes`] moves in without a copy) and this mime type, unnamed.
    #[must_use]
    pub fn new(bytes: impl Into<Bytes>, mime_type: impl Into<String>) -> Self {
        Self {
            bytes: bytes.into(),
            mime_type: mime_type.into(),
            name: None,
        }
    }

    /// The same artifact with a name.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Whether the mime type says text: `text/*`, `application/json` or any
    /// `+json` type, in any case, parameters (`; charset=utf-8`) aside.
    /// The reader hands text back in slices, anything else as a part.
    ///
    /// ```
    /// use toolresult::budget::Artifact;
    ///
    /// assert!(Artifact::new("{}", "application/json").is_text());
    /// assert!(Artifact::new("{}", "application/problem+json").is_text());
    /// assert!(Artifact::new("a,b", "Text/CSV; charset=utf-8").is_text());
    /// assert!(!Artifact::new("%PDF", "application/pdf").is_text());
    /// ```
    #[must_use]
    pub fn is_text(&self) -> bool {
        let essence = self
            .mime_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        essence.starts_with("text/") || essence == "application/json" || essence.ends_with("+json")
    }
}

impl fmt::Debug for Artifact {
    /// Shows the byte count, never the bytes (an artifact can be megabytes).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Artifact")
            .field("bytes", &format_args!("{} bytes", self.bytes.len()))
            .field("mime_type", &self.mime_type)
            .field("name", &self.name)
            .finish()
    }
}
