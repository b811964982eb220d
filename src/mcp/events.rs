//! A call's progress and log events, sent to its client as
//! `notifications/progress` and `notifications/message`.

#![allow(deprecated)] // MCP's logging utility, deprecated by SEP-2577, is still the 2025 revisions'.

use std::future::Future;

use rmcp::model::{LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken};
use rmcp::service::{Peer, RoleServer};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio_util::sync::CancellationToken;

use super::increasing::Increasing;
use super::level::{SessionLevel, to_rmcp};
use crate::tool::{CallEvent, LogLevel};

/// One event of a call, owned, on its way to the client.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Event {
    Progress {
        done: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    Log {
        level: LogLevel,
        tool: String,
        message: String,
    },
}

/// The observer of one call's events: a progress report when the request
/// asked for progress, a log message at or above the session's level, each
/// queued in the order the tool sends them; anything else costs nothing.
pub(super) fn observer(
    progress: bool,
    level: SessionLevel,
) -> (
    impl Fn(&CallEvent<'_>) + Send + Sync + 'static,
    UnboundedReceiver<Event>,
) {
    let (sender, receiver) = unbounded_channel();
    let observe = move |event: &CallEvent<'_>| queue(&sender, progress, &level, event);
    (observe, receiver)
}

fn queue(
    sender: &UnboundedSender<Event>,
    progress: bool,
    level: &SessionLevel,
    event: &CallEvent<'_>,
) {
    let event = match *event {
        CallEvent::Progress {
            done,
            total,
            message,
            ..
        } if progress => Event::Progress {
            done,
            total,
            message: message.map(str::to_owned),
        },
        CallEvent::Log {
            tool,
            level: at,
            message,
            ..
        } if level.admits(at) => Event::Log {
            level: at,
            tool: tool.to_owned(),
            message: message.to_owned(),
        },
        _ => return,
    };
    // The receiver is gone once the call is answered: a late event of a
    // tool still running (a blocking one past its timeout) goes nowhere.
    let _ = sender.send(event);
}

/// Runs `call` while sending its events to `peer` in order, then sends
/// what is still queued when it ends, before its answer: every
/// notification of a request goes out before the request's response.
/// Runs in the handler's own task, so rmcp routes the notifications to
/// the request's stream.
pub(super) async fn forwarding<F: Future>(
    call: F,
    mut events: UnboundedReceiver<Event>,
    peer: &Peer<RoleServer>,
    token: Option<ProgressToken>,
) -> F::Output {
    let finished = CancellationToken::new();
    let mut increasing = Increasing::default();
    let running = async {
        let answered = call.await;
        finished.cancel();
        answered
    };
    let sending = async {
        loop {
            tokio::select! {
                biased;
                Some(event) = events.recv() => send(peer, token.as_ref(), &mut increasing, event).await,
                () = finished.cancelled() => break,
            }
        }
        events.close();
        while let Ok(event) = events.try_recv() {
            send(peer, token.as_ref(), &mut increasing, event).await;
        }
    };
    let (answered, ()) = tokio::join!(running, sending);
    answered
}

async fn send(
    peer: &Peer<RoleServer>,
    token: Option<&ProgressToken>,
    increasing: &mut Increasing,
    event: Event,
) {
    // A client that is gone cannot be told; the call is answered anyway.
    match event {
        Event::Progress {
            done,
            total,
            message,
        } => {
            let Some(token) = token else { return };
            if !increasing.admits(done) {
                return;
            }
            let mut params = ProgressNotificationParam::new(token.clone(), done);
            params.total = total.filter(|total| total.is_finite());
            params.message = message;
            let _ = peer.notify_progress(params).await;
        }
        Event::Log {
            level,
            tool,
            message,
        } => {
            let params = LoggingMessageNotificationParam::new(
                to_rmcp(level),
                serde_json::Value::String(message),
            )
            .with_logger(tool);
            let _ = peer.notify_logging_message(params).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_observer_queues_what_the_client_asked_for() {
        let (observe, mut events) = observer(false, SessionLevel::new(LogLevel::Warning));
        let progress = CallEvent::Progress {
            call_id: "1",
            tool: "t",
            done: 1.0,
            total: None,
            message: None,
        };
        let info = CallEvent::Log {
            call_id: "1",
            tool: "t",
            level: LogLevel::Info,
            message: "quiet",
        };
        let error = CallEvent::Log {
            call_id: "1",
            tool: "t",
            level: LogLevel::Error,
            message: "loud",
        };
        observe(&progress);
        observe(&info);
        observe(&error);
        assert_eq!(
            events.try_recv().unwrap(),
            Event::Log {
                level: LogLevel::Error,
                tool: "t".into(),
                message: "loud".into()
            }
        );
        assert!(events.try_recv().is_err());
    }
}
