//! `PartKind`: what a part is, the wire `type`.

use std::fmt;

use super::PartError;
use super::part_error::shorten;

/// What a part is: the wire `type`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum PartKind {
    /// Text.
    #[default]
    Text,
    /// An image (`image/*`).
    Image,
    /// Any other file, a PDF say.
    File,
    /// Audio (`audio/*`).
    Audio,
}

impl PartKind {
    /// The wire name: `text`, `image`, `file` or `audio`.
    ///
    /// ```
    /// assert_eq!(toolresult::canonical::PartKind::Audio.as_str(), "audio");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            PartKind::Text => "text",
            PartKind::Image => "image",
            PartKind::File => "file",
            PartKind::Audio => "audio",
        }
    }

    pub(crate) fn from_wire(name: &str) -> Result<Self, PartError> {
        match name {
            "text" => Ok(PartKind::Text),
            "image" => Ok(PartKind::Image),
            "file" => Ok(PartKind::File),
            "audio" => Ok(PartKind::Audio),
            other => Err(PartError::UnknownType {
                type_name: shorten(other),
            }),
        }
    }
}

impl fmt::Display for PartKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
