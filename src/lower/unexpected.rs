//! The safe model-facing message for an error that has none of its own.
//!
//! An unexpected error (an `io::Error` hit by `?`, a panic, a failing
//! serialiser) must not show the model its text: that text can hold paths,
//! credentials or user data. The model is told what kind of thing failed,
//! by type name (and `io::ErrorKind` for I/O errors), and nothing more.

use std::error::Error as StdError;
use std::sync::RwLock;

use crate::ToolError;

/// What is known of an unexpected error without reading its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnexpectedError {
    /// The Rust type name of the error (`std::io::Error`, `serde_json::Error`, ...).
    pub type_name: &'static str,
    /// The kind of an I/O error, found anywhere in its source chain.
    pub io_kind: Option<std::io::ErrorKind>,
}

impl UnexpectedError {
    /// What is known of `error`, whose static type is `X`.
    #[must_use]
    pub fn of<X: StdError + 'static>(error: &X) -> Self {
        Self::describe(short_type_name::<X>(), error)
    }

    /// What is known of a type-erased error, with its type name given.
    #[must_use]
    pub fn describe(type_name: &'static str, error: &(dyn StdError + 'static)) -> Self {
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
}

/// Turns what is known of an unexpected error into the model-facing error.
pub type UnexpectedFormatter = fn(&UnexpectedError) -> ToolError;

static FORMATTER: RwLock<Option<UnexpectedFormatter>> = RwLock::new(None);

/// The default formatter: [`UnexpectedError::default_message`], no suggestion.
#[must_use]
pub fn default_unexpected_formatter(error: &UnexpectedError) -> ToolError {
    ToolError::new(error.default_message())
}

/// Replaces the process-wide formatter of unexpected errors (`None` restores
/// the default). It sees only [`UnexpectedError`], never the error's text.
///
/// ```
/// use toolresult::{Failure, ToolError, lower::{UnexpectedError, set_unexpected_formatter}};
/// fn terse(e: &UnexpectedError) -> ToolError {
///     ToolError::new("internal error").with_suggestion(format!("report `{}`", e.type_name))
/// }
/// set_unexpected_formatter(Some(terse));
/// let failure: Failure = std::fmt::Error.into();
/// assert_eq!(failure.error().message, "internal error");
/// set_unexpected_formatter(None);
/// ```
pub fn set_unexpected_formatter(formatter: Option<UnexpectedFormatter>) {
    let mut slot = match FORMATTER.write() {
        Ok(slot) => slot,
        Err(poisoned) => poisoned.into_inner(),
    };
    *slot = formatter;
}

/// The model-facing error for an unexpected error, by the formatter in force.
#[must_use]
pub fn format_unexpected(error: &UnexpectedError) -> ToolError {
    let formatter = match FORMATTER.read() {
        Ok(slot) => *slot,
        Err(poisoned) => *poisoned.into_inner(),
    };
    formatter.unwrap_or(default_unexpected_formatter)(error)
}

/// `std::io::error::Error` reads better as `std::io::Error`: the public path
/// for the common std types, the full path otherwise.
pub(crate) fn short_type_name<X: ?Sized>() -> &'static str {
    let full = std::any::type_name::<X>();
    match full {
        "std::io::error::Error" => "std::io::Error",
        "core::fmt::Error" => "std::fmt::Error",
        "serde_json::error::Error" => "serde_json::Error",
        "core::num::error::ParseIntError" => "std::num::ParseIntError",
        "core::num::dec2flt::ParseFloatError" => "std::num::ParseFloatError",
        "alloc::string::FromUtf8Error" => "std::string::FromUtf8Error",
        "core::str::error::Utf8Error" => "std::str::Utf8Error",
        "toolresult::tool::panic::ToolPanicked" => "toolresult::tool::ToolPanicked",
        "toolresult::tool::arguments::InvalidArguments" => "toolresult::tool::InvalidArguments",
        other => other,
    }
}
