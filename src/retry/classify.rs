//! Classification: is a failure worth another attempt?

use std::error::Error as StdError;
use std::io::ErrorKind;
use std::sync::Arc;

use super::Cancelled;
use crate::chain;

/// Whether a failure is worth another attempt, as
/// [`RetryPolicy::classification`](super::RetryPolicy::classification) tells.
///
/// The order, first match wins:
///
/// 1. a [`Cancelled`] anywhere in the source chain: never
///    retried, whatever the hint says;
/// 2. the explicit transient hint: `Some(true)` transient, `Some(false)`
///    permanent;
/// 3. with no hint, the source chain is walked outermost first; at each error,
///    the classifiers registered on the policy for its type
///    ([`RetryPolicy::classify`](super::RetryPolicy::classify)), then the
///    `std::io::ErrorKind` table below; an error neither speaks for is
///    passed over;
/// 4. nothing matched: [`Classification::Unknown`], which the policy treats as
///    permanent unless
///    [`unknown_is_transient`](super::RetryPolicy::unknown_is_transient) is set.
///
/// | `std::io::ErrorKind` | classification |
/// |---|---|
/// | `TimedOut`, `ConnectionReset`, `ConnectionAborted`, `ConnectionRefused`, `Interrupted`, `WouldBlock`, `BrokenPipe`, `NotConnected` | transient |
/// | `InvalidData`, `InvalidInput`, `NotFound`, `PermissionDenied`, `Unsupported` | permanent |
/// | any other kind | no opinion: the walk goes on |
///
/// The chain is the one `anyhow::Error::chain()` yields (each error, then its
/// `source()`), with one addition: a custom `std::io::Error` (one made with
/// `io::Error::new` or `io::Error::other`) is followed by the error it wraps,
/// which its own `source()` skips. The whole chain is walked, however deep;
/// an error that comes round again (a chain that cycles back on itself)
/// ends the walk. Only types and kinds are read, never an error's text.
///
/// ```
/// use toolresult::retry::{Classification, RetryPolicy};
///
/// let policy = RetryPolicy::new();
/// let timeout = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::TimedOut));
/// assert_eq!(policy.classification(&timeout), Classification::Transient);
/// let bad = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::InvalidData));
/// assert_eq!(policy.classification(&bad), Classification::Permanent);
/// assert_eq!(policy.classification(&anyhow::Error::new(std::fmt::Error)), Classification::Unknown);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Classification {
    /// Likely to succeed if called again: a timeout, a dropped connection.
    Transient,
    /// Will fail the same way again: bad input, not found, forbidden, cancelled.
    Permanent,
    /// Nothing says either way.
    Unknown,
}

impl Classification {
    /// The name used in events and logs: `transient`, `permanent` or `unknown`.
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::Transient => "transient",
            Self::Permanent => "permanent",
            Self::Unknown => "unknown",
        }
    }
}

/// The classification the heuristic table gives an I/O error kind, if any.
#[must_use]
pub(crate) fn classify_io_kind(kind: ErrorKind) -> Option<Classification> {
    match kind {
        ErrorKind::TimedOut
        | ErrorKind::ConnectionReset
        | ErrorKind::ConnectionAborted
        | ErrorKind::ConnectionRefused
        | ErrorKind::Interrupted
        | ErrorKind::WouldBlock
        | ErrorKind::BrokenPipe
        | ErrorKind::NotConnected => Some(Classification::Transient),
        ErrorKind::InvalidData
        | ErrorKind::InvalidInput
        | ErrorKind::NotFound
        | ErrorKind::PermissionDenied
        | ErrorKind::Unsupported => Some(Classification::Permanent),
        _ => None,
    }
}

/// Whether a [`Cancelled`] is anywhere in `error`'s source chain.
#[must_use]
pub(crate) fn is_cancelled(error: &(dyn StdError + 'static)) -> bool {
    chain::walk(error).any(|e| e.is::<Cancelled>())
}

/// A user classifier, type-erased: it downcasts and answers, or passes.
pub(crate) type ErasedClassifier =
    Arc<dyn Fn(&(dyn StdError + 'static)) -> Option<Classification> + Send + Sync>;

/// Wraps a classifier for errors of type `X` into one over any error.
pub(crate) fn erase<X, F, R>(classifier: F) -> ErasedClassifier
where
    X: StdError + 'static,
    F: Fn(&X) -> R + Send + Sync + 'static,
    R: Into<Option<Classification>>,
{
    Arc::new(move |error: &(dyn StdError + 'static)| {
        error.downcast_ref::<X>().and_then(|x| classifier(x).into())
    })
}

/// The first answer along the chain, from the user classifiers then the I/O table.
pub(crate) fn classify_chain(
    error: &(dyn StdError + 'static),
    classifiers: &[ErasedClassifier],
) -> Classification {
    for link in chain::walk(error) {
        if let Some(found) = classifiers.iter().find_map(|classify| classify(link)) {
            return found;
        }
        if let Some(io) = link.downcast_ref::<std::io::Error>()
            && let Some(found) = classify_io_kind(io.kind())
        {
            return found;
        }
    }
    Classification::Unknown
}
