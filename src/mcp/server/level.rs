//! The session's logging level: what `logging/setLevel` sets and every
//! log message of the session's calls is held against.

#![allow(deprecated)] // MCP's logging utility, deprecated by SEP-2577, is still the 2025 revisions'.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::tool::LogLevel;

/// The least severe level a session's client wants log messages at,
/// shared by the session's handler and the observers of its calls.
#[derive(Debug, Clone)]
pub(super) struct SessionLevel(Arc<AtomicU8>);

impl SessionLevel {
    pub(super) fn new(level: LogLevel) -> Self {
        Self(Arc::new(AtomicU8::new(rank(level))))
    }

    pub(super) fn set(&self, level: LogLevel) {
        self.0.store(rank(level), Ordering::Relaxed);
    }

    /// Whether a message at `level` goes to the client.
    pub(super) fn admits(&self, level: LogLevel) -> bool {
        rank(level) >= self.0.load(Ordering::Relaxed)
    }
}

/// A level's place, least severe first (`LogLevel` is declared in that
/// order, as its `Ord` is).
const fn rank(level: LogLevel) -> u8 {
    level as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_admits_itself_and_what_is_more_severe() {
        let level = SessionLevel::new(LogLevel::Warning);
        assert!(!level.admits(LogLevel::Notice));
        assert!(level.admits(LogLevel::Warning));
        assert!(level.admits(LogLevel::Emergency));
        level.set(LogLevel::Debug);
        assert!(level.admits(LogLevel::Debug));
    }
}
