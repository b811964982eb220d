//! `ArtifactId`: the name a result refers to a kept artifact by, and what
//! can be wrong with one read back from the model.

use std::fmt;

use super::ArtifactError;
use crate::canonical::shorten;

/// The scheme of an artifact's URL: `artifact://<id>`.
const URL_PREFIX: &str = super::ARTIFACT_SCHEME;

/// The prefix of every id [`ArtifactId::random`] makes.
const ID_PREFIX: &str = "art_";

/// The longest artifact id, in bytes: long enough for any store's own
/// scheme, short enough to be a file name everywhere.
pub(super) const MAX_ID_LEN: usize = 128;

/// The id of a kept artifact: 1 to 128 of the URL-safe characters
/// `A-Z a-z 0-9 _ -`, and nothing else.
///
/// An id comes back from the model, so nothing else is accepted: no `/`,
/// no `.`, no `%`, nothing a store could mistake for a path.
/// [`random`](Self::random) makes `art_` and 32 hex digits; a result refers
/// to the artifact by its [`url`](Self::url), `artifact://<id>`, and
/// [`from_url_or_id`](Self::from_url_or_id) reads either form back.
///
/// ```
/// use toolresult::budget::ArtifactId;
///
/// let id = ArtifactId::random();
/// assert!(id.as_str().starts_with("art_"));
/// assert_eq!(id.url(), format!("artifact://{id}"));
/// assert_eq!(ArtifactId::from_url_or_id(&id.url())?, id);
/// assert_eq!(ArtifactId::from_url_or_id(id.as_str())?, id);
/// assert!(ArtifactId::from_url_or_id("artifact://../../etc/passwd").is_err());
/// # Ok::<(), toolresult::budget::ArtifactError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArtifactId(String);

impl ArtifactId {
    /// A new, unique id: `art_` and the 32 lowercase hex digits of a random
    /// (v4) UUID.
    #[must_use]
    pub fn random() -> Self {
        Self(format!("{ID_PREFIX}{}", uuid::Uuid::new_v4().simple()))
    }

    /// Reads an id from the model (or anyone): the id itself or its URL,
    /// `artifact://<id>`.
    ///
    /// ```
    /// use toolresult::budget::ArtifactId;
    ///
    /// let id = ArtifactId::from_url_or_id("artifact://art_0123")?;
    /// assert_eq!(id.as_str(), "art_0123");
    /// assert_eq!(
    ///     ArtifactId::from_url_or_id("../etc/passwd").unwrap_err().to_string(),
    ///     "invalid artifact id `../etc/passwd`: it holds `.` at byte 0; an id holds only ASCII letters, digits, `_` and `-`"
    /// );
    /// # Ok::<(), toolresult::budget::ArtifactError>(())
    /// ```
    ///
    /// # Errors
    /// [`ArtifactError::EmptyId`], [`ArtifactError::IdTooLong`] (over 128
    /// bytes) or [`ArtifactError::IdCharacter`] (a character outside
    /// `A-Z a-z 0-9 _ -`).
    pub fn from_url_or_id(text: &str) -> Result<Self, ArtifactError> {
        let id = text.strip_prefix(URL_PREFIX).unwrap_or(text);
        let shown = || shorten(text).escape_debug().collect();
        if id.is_empty() {
            return Err(ArtifactError::EmptyId { id: shown() });
        }
        if let Some((at, character)) = id
            .char_indices()
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        {
            // The byte is counted in the text as given, URL prefix and all.
            let at = at + (text.len() - id.len());
            return Err(ArtifactError::IdCharacter {
                id: shown(),
                character,
                at,
            });
        }
        if id.len() > MAX_ID_LEN {
            return Err(ArtifactError::IdTooLong {
                id: shown(),
                len: id.len(),
            });
        }
        Ok(Self(id.to_owned()))
    }

    /// The id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The URL a result refers to the artifact by: `artifact://<id>`.
    #[must_use]
    pub fn url(&self) -> String {
        format!("{URL_PREFIX}{}", self.0)
    }

    /// Whether the id has the shape [`random`](Self::random) gives it:
    /// `art_` and 32 lowercase hex digits.
    pub(super) fn is_random_shape(&self) -> bool {
        self.0.strip_prefix(ID_PREFIX).is_some_and(|hex| {
            hex.len() == 32 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        })
    }
}

impl fmt::Display for ArtifactId {
    /// The id itself (not its URL).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
