//! The progress tokens (MCP's `_meta.progressToken`, not a model's
//! tokens) of a session's running calls: MCP requires a token unique
//! among active requests, and a client may break the rule.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::ProgressToken;

/// The progress tokens of one session's running calls. A list: a
/// session runs a few calls at once, and comparing a token with each
/// costs less than hashing it twice; even with thousands running, a scan
/// costs less than the call it guards.
#[derive(Debug, Clone, Default)]
pub(super) struct ActiveTokens(Arc<Mutex<Vec<ProgressToken>>>);

/// A running call's hold on its progress token, given back when the call
/// ends.
#[derive(Debug)]
pub(super) struct Claim {
    tokens: ActiveTokens,
    token: ProgressToken,
}

impl ActiveTokens {
    /// `token` for a call that starts, unless a running call holds it: a
    /// second request with the token runs without progress, so the
    /// token's notifications stay one request's, strictly increasing.
    pub(super) fn claim(&self, token: ProgressToken) -> Option<Claim> {
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if held.contains(&token) {
            return None;
        }
        held.push(token.clone());
        Some(Claim {
            tokens: self.clone(),
            token,
        })
    }
}

impl Claim {
    pub(super) fn token(&self) -> &ProgressToken {
        &self.token
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut held = self.tokens.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = held.iter().position(|token| *token == self.token) {
            held.swap_remove(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::NumberOrString;

    use super::*;

    #[test]
    fn a_token_is_held_by_one_running_call_at_a_time() {
        let tokens = ActiveTokens::default();
        let token = ProgressToken(NumberOrString::String("p".into()));
        let first = tokens.claim(token.clone());
        assert!(first.is_some());
        assert!(tokens.claim(token.clone()).is_none(), "held by the first");
        drop(first);
        assert!(tokens.claim(token).is_some(), "free once it ended");
    }
}
