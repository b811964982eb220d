//! `ResultExt`: give any error a model-facing error, keeping it as the source.

use std::error::Error as StdError;

use super::Failure;

/// Attaches a model-facing error to any `Result`, keeping the original error
/// as the Rust-side source, like `anyhow::Context` does for messages.
///
/// ```
/// use toolresult::{Failure, ResultExt, ToolError};
///
/// fn load(path: &str) -> Result<String, Failure> {
///     let text = std::fs::read_to_string(path)
///         .tool_error(ToolError::new(format!("cannot read {path}")).with_suggestion("check the path"))?;
///     Ok(text)
/// }
///
/// let failure = load("no/such/file").unwrap_err();
/// assert_eq!(failure.error().message, "cannot read no/such/file");
/// assert!(failure.diagnostics().source().unwrap().is::<std::io::Error>());
/// ```
pub trait ResultExt<T> {
    /// On error, fails with `error` for the model and the original error as the source.
    ///
    /// # Errors
    /// The failure, when `self` is an error.
    fn tool_error<E>(self, error: E) -> Result<T, Failure<E>>;

    /// On error, fails with the model-facing error `f` builds from the original.
    ///
    /// # Errors
    /// The failure, when `self` is an error.
    fn with_tool_error<E, F>(self, f: F) -> Result<T, Failure<E>>
    where
        F: FnOnce(&(dyn StdError + 'static)) -> E;
}

impl<T, X> ResultExt<T> for Result<T, X>
where
    X: StdError + Send + Sync + 'static,
{
    fn tool_error<E>(self, error: E) -> Result<T, Failure<E>> {
        self.map_err(|source| Failure::new(error).with_source(source))
    }

    fn with_tool_error<E, F>(self, f: F) -> Result<T, Failure<E>>
    where
        F: FnOnce(&(dyn StdError + 'static)) -> E,
    {
        self.map_err(|source| Failure::new(f(&source)).with_source(source))
    }
}
