//! The call's cancellation signal: a token of its own, or one made when
//! first asked for.

use std::sync::OnceLock;

use tokio_util::sync::CancellationToken;

/// The call's cancellation signal.
#[derive(Clone)]
pub(super) enum Cancel<'a> {
    /// Made the first time the tool asks for it, as a child of the turn's
    /// token; whoever runs the call fires it through the slot (a timeout),
    /// or through the parent (the turn cancelled).
    Lazy {
        slot: &'a OnceLock<CancellationToken>,
        parent: Option<&'a CancellationToken>,
    },
    /// A token of its own.
    Token(CancellationToken),
}

impl<'a> Cancel<'a> {
    pub(super) fn token(&self) -> &CancellationToken {
        match self {
            Self::Lazy { slot, parent } => slot.get_or_init(|| match parent {
                Some(parent) => parent.child_token(),
                None => CancellationToken::new(),
            }),
            Self::Token(token) => token,
        }
    }
}
