//! When a call times out: a deadline known, or taken when first asked for.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// When an attempt run by a toolbox times out: its limit after it began,
/// the beginning taken the first time anyone asks (the tool, or the
/// attempt's timer once the call waits), so that an attempt nobody asks
/// about reads no clock, and the tool reads the instant its timer fires.
pub(crate) struct LazyDeadline {
    limit: Duration,
    now: fn() -> Instant,
    at: OnceLock<Option<Instant>>,
}

impl LazyDeadline {
    /// `limit` after the first instant `now` gives when asked.
    pub(crate) fn new(limit: Duration, now: fn() -> Instant) -> Self {
        Self {
            limit,
            now,
            at: OnceLock::new(),
        }
    }

    /// The attempt's limit.
    pub(crate) fn limit(&self) -> Duration {
        self.limit
    }

    /// The deadline, fixed at the first call; `None` past what an
    /// `Instant` can hold.
    pub(crate) fn at(&self) -> Option<Instant> {
        *self.at.get_or_init(|| (self.now)().checked_add(self.limit))
    }
}

/// A call's deadline.
#[derive(Clone, Copy)]
pub(super) enum Deadline<'a> {
    /// Known (or none).
    Fixed(Option<Instant>),
    /// Taken when first asked for.
    Lazy(&'a LazyDeadline),
}

impl Deadline<'_> {
    pub(super) fn at(self) -> Option<Instant> {
        match self {
            Self::Fixed(at) => at,
            Self::Lazy(lazy) => lazy.at(),
        }
    }
}
