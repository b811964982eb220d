//! The server's progress notifications, routed to the calls they are
//! about.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// How many notifications for a token no call follows yet are kept: a
/// server may report progress before the client has followed the token of
/// the request it just sent.
const EARLY: usize = 256;

/// Routes each progress notification to the call following its token.
#[derive(Clone, Default)]
pub(super) struct ProgressRouter(Arc<Mutex<Routes>>);

#[derive(Default)]
struct Routes {
    following: HashMap<ProgressToken, UnboundedSender<ProgressNotificationParam>>,
    early: VecDeque<ProgressNotificationParam>,
}

/// A call's progress, while it follows its token.
pub(super) struct Following {
    router: ProgressRouter,
    token: ProgressToken,
    pub(super) reports: UnboundedReceiver<ProgressNotificationParam>,
}

impl ProgressRouter {
    /// Passes `report` to the call following its token, or keeps it for
    /// one that will.
    pub(super) fn deliver(&self, report: ProgressNotificationParam) {
        let mut routes = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match routes.following.get(&report.progress_token) {
            Some(sender) => {
                let _ = sender.send(report);
            }
            None => {
                if routes.early.len() >= EARLY {
                    routes.early.pop_front();
                }
                routes.early.push_back(report);
            }
        }
    }

    /// Follows `token`: the reports that came early, then every one after.
    pub(super) fn follow(&self, token: ProgressToken) -> Following {
        let (sender, reports) = unbounded_channel();
        let mut routes = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        routes.early.retain(|report| {
            let ours = report.progress_token == token;
            if ours {
                let _ = sender.send(report.clone());
            }
            !ours
        });
        routes.following.insert(token.clone(), sender);
        Following {
            router: self.clone(),
            token,
            reports,
        }
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        let mut routes = self.router.0.lock().unwrap_or_else(PoisonError::into_inner);
        routes.following.remove(&self.token);
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::NumberOrString;

    use super::*;

    fn report(token: i64, progress: f64) -> ProgressNotificationParam {
        ProgressNotificationParam::new(ProgressToken(NumberOrString::Number(token)), progress)
    }

    #[test]
    fn early_reports_wait_for_their_call_and_others_stay_out() {
        let router = ProgressRouter::default();
        router.deliver(report(1, 1.0));
        router.deliver(report(2, 5.0));
        let mut following = router.follow(ProgressToken(NumberOrString::Number(1)));
        router.deliver(report(1, 2.0));
        let seen: Vec<f64> = std::iter::from_fn(|| following.reports.try_recv().ok())
            .map(|r| r.progress)
            .collect();
        assert_eq!(seen, [1.0, 2.0]);
        drop(following);
        router.deliver(report(1, 3.0));
        let later = router.follow(ProgressToken(NumberOrString::Number(1)));
        assert_eq!(
            later.router.0.lock().unwrap().early.len(),
            1,
            "token 2's report is kept"
        );
    }
}
