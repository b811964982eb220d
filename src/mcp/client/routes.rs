//! What the server says about calls in flight (progress, logs, questions),
//! routed to the calls it is about.
#![allow(deprecated)] // MCP's logging utility (SEP-2577) is still the 2025 revisions'.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    ElicitRequestParams, ElicitResult, LoggingMessageNotificationParam, NumberOrString,
    ProgressNotificationParam, ProgressToken,
};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::sync::oneshot;

use crate::mcp::log_level::from_rmcp;
use crate::tool::LogLevel;

/// How many notifications for a token no call follows yet are kept: a
/// server may report progress before the client has followed the token of
/// the request it just sent.
const EARLY: usize = 256;

/// What a call hears from the server while it runs.
pub(super) enum Heard {
    /// A progress report for its request.
    Progress(ProgressNotificationParam),
    /// A log message at or above the client's level.
    Log(LogLevel, String),
    /// An elicitation, answered through `reply`.
    Question(ElicitRequestParams, oneshot::Sender<ElicitResult>),
}

/// Routes each notification to the call it is about.
///
/// The transport hands progress and logs over in the order they arrived,
/// before the answer that follows them reaches its call (see
/// [`Tap`](super::tap::Tap)), so a call that drains what it heard once its
/// answer is in has heard everything the server sent before it.
#[derive(Clone, Default)]
pub(super) struct Routes(Arc<Mutex<Table>>, Arc<AtomicU64>);

#[derive(Default)]
struct Table {
    following: HashMap<ProgressToken, Route>,
    early: VecDeque<ProgressNotificationParam>,
    level: Option<LogLevel>,
}

struct Route {
    sender: UnboundedSender<Heard>,
    /// Whether the call waits for its answer now (a parked call is asked
    /// nothing: its server waits for the answer to its question).
    listening: bool,
}

/// A call's side of its route, while it follows its request's token.
pub(super) struct Following {
    routes: Routes,
    token: ProgressToken,
    pub(super) heard: UnboundedReceiver<Heard>,
}

impl Routes {
    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A fresh number, for the ids of the questions asked through this
    /// connection.
    pub(super) fn next_id(&self) -> u64 {
        self.1.fetch_add(1, Ordering::Relaxed)
    }

    /// The level at or above which log messages reach the calls; `None`:
    /// none do.
    pub(super) fn level(&self) -> Option<LogLevel> {
        self.table().level
    }

    pub(super) fn set_level(&self, level: Option<LogLevel>) {
        self.table().level = level;
    }

    /// Passes `report` to the call following its token, or keeps it for
    /// one that will.
    pub(super) fn progress(&self, report: ProgressNotificationParam) {
        let mut table = self.table();
        match table.following.get(&report.progress_token) {
            Some(route) => {
                let _ = route.sender.send(Heard::Progress(report));
            }
            None => {
                if table.early.len() >= EARLY {
                    table.early.pop_front();
                }
                table.early.push_back(report);
            }
        }
    }

    /// Passes a log message at or above the level to every call in
    /// flight: MCP's log messages name no request. (Its logger, the
    /// server's name for its source, is the tool's name on this crate's
    /// server, which the event already carries.)
    pub(super) fn log(&self, message: &LoggingMessageNotificationParam) {
        let table = self.table();
        let level = from_rmcp(&message.level);
        if table.level.is_none_or(|least| level < least) {
            return;
        }
        let text = match &message.data {
            serde_json::Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        for route in table.following.values() {
            let _ = route.sender.send(Heard::Log(level, text.clone()));
        }
    }

    /// Hands an elicitation to the one call waiting for its answer; when
    /// there is not exactly one (an elicitation names no request, so which
    /// call asks is known only then), `reply` is dropped unanswered.
    pub(super) fn ask(&self, params: ElicitRequestParams, reply: oneshot::Sender<ElicitResult>) {
        let table = self.table();
        let mut listening = table.following.values().filter(|route| route.listening);
        if let (Some(route), None) = (listening.next(), listening.next()) {
            let _ = route.sender.send(Heard::Question(params, reply));
        }
    }

    /// Follows the request a call is about to send, whose token is not
    /// known yet ([`Following::bind`] gives it): a question the server
    /// asks before the request is sent is the call's, as after.
    pub(super) fn follow_unsent(&self) -> Following {
        let unsent = format!("unsent-{}", self.next_id());
        // No report names a token not yet sent: nothing early to hand.
        self.route(ProgressToken(NumberOrString::String(unsent.into())), false)
    }

    /// Follows `token`: the reports that came early, then every one after.
    #[cfg(test)]
    pub(super) fn follow(&self, token: ProgressToken) -> Following {
        self.route(token, true)
    }

    fn route(&self, token: ProgressToken, early: bool) -> Following {
        let (sender, heard) = unbounded_channel();
        let mut table = self.table();
        if early {
            table.hand_early(&token, &sender);
        }
        table.following.insert(
            token.clone(),
            Route {
                sender,
                listening: true,
            },
        );
        Following {
            routes: self.clone(),
            token,
            heard,
        }
    }
}

impl Table {
    /// Hands the reports for `token` that came early to `sender`.
    fn hand_early(&mut self, token: &ProgressToken, sender: &UnboundedSender<Heard>) {
        self.early.retain(|report| {
            let ours = report.progress_token == *token;
            if ours {
                let _ = sender.send(Heard::Progress(report.clone()));
            }
            !ours
        });
    }
}

impl Following {
    /// Follows `token`, the token of the request now sent, in place of
    /// the one followed until now: the reports for it that came early,
    /// then every one after.
    pub(super) fn bind(&mut self, token: ProgressToken) {
        let mut table = self.routes.table();
        if let Some(route) = table.following.remove(&self.token) {
            table.hand_early(&token, &route.sender);
            table.following.insert(token.clone(), route);
        }
        drop(table);
        self.token = token;
    }

    /// Whether the call waits for its answer (and may be asked a
    /// question).
    pub(super) fn listen(&self, listening: bool) {
        if let Some(route) = self.routes.table().following.get_mut(&self.token) {
            route.listening = listening;
        }
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        self.routes.table().following.remove(&self.token);
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{LoggingLevel, NumberOrString};

    use super::*;

    fn report(token: i64, progress: f64) -> ProgressNotificationParam {
        ProgressNotificationParam::new(ProgressToken(NumberOrString::Number(token)), progress)
    }

    fn progress_of(following: &mut Following) -> Vec<f64> {
        std::iter::from_fn(|| following.heard.try_recv().ok())
            .filter_map(|heard| match heard {
                Heard::Progress(report) => Some(report.progress),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn early_reports_wait_for_their_call_and_others_stay_out() {
        let routes = Routes::default();
        routes.progress(report(1, 1.0));
        routes.progress(report(2, 5.0));
        let mut following = routes.follow(ProgressToken(NumberOrString::Number(1)));
        routes.progress(report(1, 2.0));
        assert_eq!(progress_of(&mut following), [1.0, 2.0]);
        drop(following);
        routes.progress(report(1, 3.0));
        let _later = routes.follow(ProgressToken(NumberOrString::Number(1)));
        assert_eq!(routes.table().early.len(), 1, "token 2's report is kept");
    }

    #[test]
    fn a_call_follows_its_request_before_it_is_sent() {
        let routes = Routes::default();
        let mut following = routes.follow_unsent();
        // Asked before the request's token is known: the call's question.
        routes.ask(
            ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: "?".into(),
                requested_schema: rmcp::model::ElicitationSchema::builder().build_unchecked(),
            },
            oneshot::channel().0,
        );
        routes.progress(report(7, 1.0));
        following.bind(ProgressToken(NumberOrString::Number(7)));
        routes.progress(report(7, 2.0));
        assert!(matches!(
            following.heard.try_recv(),
            Ok(Heard::Question(..))
        ));
        assert_eq!(progress_of(&mut following), [1.0, 2.0]);
        drop(following);
        assert!(routes.table().following.is_empty());
    }

    #[test]
    fn logs_below_the_level_or_without_one_reach_no_call() {
        let routes = Routes::default();
        let mut following = routes.follow(ProgressToken(NumberOrString::Number(1)));
        let log = |level| {
            LoggingMessageNotificationParam::new(level, serde_json::json!("line"))
                .with_logger("srv")
        };
        routes.log(&log(LoggingLevel::Error));
        routes.set_level(Some(LogLevel::Warning));
        routes.log(&log(LoggingLevel::Info));
        routes.log(&log(LoggingLevel::Warning));
        let heard: Vec<(LogLevel, String)> = std::iter::from_fn(|| following.heard.try_recv().ok())
            .filter_map(|heard| match heard {
                Heard::Log(level, text) => Some((level, text)),
                _ => None,
            })
            .collect();
        assert_eq!(heard, [(LogLevel::Warning, "line".to_owned())]);
    }

    #[test]
    fn a_question_goes_to_the_one_listening_call_only() {
        let routes = Routes::default();
        let params = || ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: "?".into(),
            requested_schema: rmcp::model::ElicitationSchema::builder().build_unchecked(),
        };
        let (reply, mut unanswered) = oneshot::channel();
        routes.ask(params(), reply);
        assert!(unanswered.try_recv().is_err(), "no call: dropped");
        let mut first = routes.follow(ProgressToken(NumberOrString::Number(1)));
        let mut second = routes.follow(ProgressToken(NumberOrString::Number(2)));
        let (reply, mut unanswered) = oneshot::channel();
        routes.ask(params(), reply);
        assert!(
            matches!(
                unanswered.try_recv(),
                Err(oneshot::error::TryRecvError::Closed)
            ),
            "two calls: dropped"
        );
        first.listen(false);
        routes.ask(params(), oneshot::channel().0);
        assert!(matches!(second.heard.try_recv(), Ok(Heard::Question(..))));
        assert!(first.heard.try_recv().is_err());
    }
}
