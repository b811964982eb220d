//! What the caller of a call shares with it: the values attached to its
//! turn and toolbox, and the observer of its events.

use std::sync::Arc;

use super::Observer;

/// A type map of values a caller attaches, looked up by type.
pub(crate) type Values = http::Extensions;

/// What the caller of a call shares with it: the observer of its events and
/// the values attached to its turn and to its toolbox (the turn's first).
#[derive(Clone, Default)]
pub(crate) struct Scope {
    pub(crate) observer: Option<Observer>,
    pub(crate) turn: Option<Arc<Values>>,
    pub(crate) toolbox: Option<Arc<Values>>,
}
