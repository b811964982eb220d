//! The safe model-facing message for an error that has none of its own.
//!
//! An unexpected error (an `io::Error` hit by `?`, a panic, a failing
//! serialiser) must not show the model its text: that text can hold paths,
//! credentials or user data. The model is told what kind of thing failed,
//! by type name (and `io::ErrorKind` for I/O errors), and nothing more.

use std::error::Error as StdError;

use crate::ToolError;

/// What is known of an unexpected error without reading its text: what a
/// tool's own wording of unexpected errors is given
/// ([`FunctionTool::with_unexpected_message`](crate::tool::FunctionTool::with_unexpected_message)).
///
/// ```
/// use toolresult::Failure;
///
/// let failure = Failure::unexpected(std::io::Error::from(std::io::ErrorKind::NotFound));
/// assert_eq!(
///     failure.error().message,
///     "the tool failed with an unexpected error (std::io::Error, kind NotFound)"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnexpectedError {
    /// The name of the error's type, as the crate shows it: the public path
    /// of a std type (`std::io::Error`), else the type's own name without
    /// its module path (`ToolPanicked`, `DbError`).
    pub type_name: &'static str,
    /// The kind of an I/O error, found anywhere in its source chain.
    pub io_kind: Option<std::io::ErrorKind>,
}

impl UnexpectedError {
    /// What is known of a type-erased error, with its type name given.
    pub(crate) fn describe(type_name: &'static str, error: &(dyn StdError + 'static)) -> Self {
        let io_kind = crate::chain::walk(error)
            .find_map(|err| err.downcast_ref::<std::io::Error>())
            .map(std::io::Error::kind);
        Self { type_name, io_kind }
    }

    /// The default message:
    /// `the tool failed with an unexpected error (std::io::Error, kind NotFound)`.
    #[must_use]
    pub fn default_message(&self) -> String {
        match self.io_kind {
            Some(kind) => format!(
                "the tool failed with an unexpected error ({}, kind {kind:?})",
                self.type_name
            ),
            None => format!(
                "the tool failed with an unexpected error ({})",
                self.type_name
            ),
        }
    }

    /// The default model-facing error: [`default_message`](Self::default_message),
    /// no suggestion.
    pub(crate) fn default_error(&self) -> ToolError {
        ToolError::new(self.default_message())
    }
}

/// The name the model (and `Diagnostics`) is shown for the type `X`: the
/// public path of the common std types, else the type's own name with its
/// module path and generics cut, so it stays the same when a file moves.
pub(crate) fn model_facing_type_name<X: ?Sized>() -> &'static str {
    let full = std::any::type_name::<X>();
    match full {
        "std::io::error::Error" => "std::io::Error",
        "core::fmt::Error" => "std::fmt::Error",
        "serde_json::error::Error" => "serde_json::Error",
        "core::num::error::ParseIntError" => "std::num::ParseIntError",
        "core::num::dec2flt::ParseFloatError" => "std::num::ParseFloatError",
        "alloc::string::FromUtf8Error" => "std::string::FromUtf8Error",
        "core::str::error::Utf8Error" => "std::str::Utf8Error",
        "anyhow::Error" => "anyhow::Error",
        other => {
            let path = other.split('<').next().unwrap_or(other);
            path.rsplit("::").next().unwrap_or(path)
        }
    }
}
