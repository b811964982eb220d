//! A call's progress and log events, sent to its client as
//! `notifications/progress` and `notifications/message`.

#![allow(deprecated)] // MCP's logging utility, deprecated by SEP-2577, is still the 2025 revisions'.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken};
use rmcp::service::{Peer, RoleServer};
use tokio::sync::Notify;

use super::level::SessionLevel;
use crate::mcp::increasing::Increasing;
use crate::mcp::log_level::to_rmcp;
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

/// The events of one call on their way to the client: a progress report
/// when the request asked for progress, a log message at or above the
/// level that holds for the request (none: no log message), each queued in the order the tool sends them; anything
/// else costs nothing. One shared queue and one wake-up: a call that
/// reports nothing (most) pays for no channel.
pub(super) struct Events {
    queue: Mutex<Queue>,
    ready: Notify,
    progress: bool,
    level: Option<SessionLevel>,
}

#[derive(Default)]
struct Queue {
    events: VecDeque<Event>,
    /// The call is answered, or its handler gone: a late event of a tool
    /// still running (a blocking one past its timeout) goes nowhere.
    closed: bool,
}

impl Events {
    pub(super) fn new(progress: bool, level: Option<SessionLevel>) -> Arc<Self> {
        Arc::new(Self {
            queue: Mutex::default(),
            ready: Notify::new(),
            progress,
            level,
        })
    }

    /// The observer of the call, for its turn.
    pub(super) fn observer(self: &Arc<Self>) -> impl Fn(&CallEvent<'_>) + Send + Sync + 'static {
        let events = Arc::clone(self);
        move |event: &CallEvent<'_>| events.queue(event)
    }

    fn queue(&self, event: &CallEvent<'_>) {
        let event = match *event {
            CallEvent::Progress {
                done,
                total,
                message,
                ..
            } if self.progress => Event::Progress {
                done,
                total,
                message: message.map(str::to_owned),
            },
            CallEvent::Log {
                tool,
                level: at,
                message,
                ..
            } if self.level.as_ref().is_some_and(|level| level.admits(at)) => Event::Log {
                level: at,
                tool: tool.to_owned(),
                message: message.to_owned(),
            },
            _ => return,
        };
        {
            let mut queue = self.lock();
            if queue.closed {
                return;
            }
            queue.events.push_back(event);
        }
        self.ready.notify_one();
    }

    /// What is queued, and whether the queue is closed.
    fn take(&self) -> (VecDeque<Event>, bool) {
        let mut queue = self.lock();
        (std::mem::take(&mut queue.events), queue.closed)
    }

    /// Takes no more events.
    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_one();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Runs `call` while sending its `events` to `peer` in order, then sends
/// what is still queued when it ends, before its answer: every
/// notification of a request goes out before the request's response.
/// Runs in the handler's own task, so rmcp routes the notifications to
/// the request's stream.
pub(super) async fn forwarding<F: Future>(
    call: F,
    events: &Events,
    peer: &Peer<RoleServer>,
    token: Option<ProgressToken>,
) -> F::Output {
    // Closed however this ends: a handler dropped mid-call (its session
    // gone) leaves no queue filling for nobody.
    let _closing = Closing(events);
    let mut increasing = Increasing::default();
    let running = async {
        let answered = call.await;
        events.close();
        answered
    };
    let sending = async {
        loop {
            // `notify_one` keeps a wake-up for a queue nobody waits on
            // yet, so an event queued between the take and the wait is
            // not missed.
            let (queued, closed) = events.take();
            for event in queued {
                send(peer, token.as_ref(), &mut increasing, event).await;
            }
            if closed {
                // Nothing is queued once the call is answered.
                break;
            }
            events.ready.notified().await;
        }
    };
    let (answered, ()) = tokio::join!(running, sending);
    answered
}

/// Closes the queue when dropped.
struct Closing<'a>(&'a Events);

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
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
        let events = Events::new(false, Some(SessionLevel::new(LogLevel::Warning)));
        let observe = events.observer();
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
        events.close();
        observe(&error);
        let (queued, closed) = events.take();
        assert_eq!(
            Vec::from(queued),
            [Event::Log {
                level: LogLevel::Error,
                tool: "t".into(),
                message: "loud".into()
            }],
            "one message admitted, none after the answer"
        );
        assert!(closed);
    }

    #[test]
    fn without_a_level_no_log_message_is_queued() {
        let events = Events::new(false, None);
        let observe = events.observer();
        observe(&CallEvent::Log {
            call_id: "1",
            tool: "t",
            level: LogLevel::Emergency,
            message: "loud",
        });
        let (queued, _) = events.take();
        assert!(queued.is_empty(), "{queued:?}");
    }

    #[test]
    fn a_forwarding_dropped_mid_call_closes_the_queue() {
        let events = Events::new(true, Some(SessionLevel::new(LogLevel::Info)));
        let observe = events.observer();
        drop(Closing(&events));
        observe(&CallEvent::Progress {
            call_id: "1",
            tool: "t",
            done: 1.0,
            total: None,
            message: None,
        });
        let (queued, closed) = events.take();
        assert!(queued.is_empty(), "nothing queued for nobody");
        assert!(closed);
    }
}
