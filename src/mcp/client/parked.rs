//! Calls parked on a server's question, until the local caller answers it
//! (`Turn::resume`).

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};

use rmcp::model::{ElicitRequestParams, ElicitResult, InputResponses, JsonObject};
use tokio::sync::oneshot;

use super::flight::InFlight;
use super::task::Polling;

/// How many calls a connection keeps parked: past it, the oldest is let
/// go (a call in flight is cancelled on its server).
const MOST: usize = 64;

/// A call waiting for the answer to its question.
pub(super) enum Parked {
    /// The server asked with an elicitation (2025-11-25): its call is still
    /// in flight, the server waiting for `reply`.
    Asking {
        flight: InFlight,
        reply: oneshot::Sender<ElicitResult>,
        form: bool,
    },
    /// The server answered with an input-required result (2026-07-28):
    /// its questions, asked one at a time, then the call is sent again
    /// with every response and the server's state.
    Input(InputRound),
    /// The server refused the call for want of scope: sent again once the
    /// caller has authorized.
    Authorizing { arguments: JsonObject },
    /// The call's task waits for input: its questions, asked one at a
    /// time, then the responses sent (`tasks/update`) and the task polled
    /// again.
    TaskInput(TaskRound),
}

/// A task's input requests, answered one question at a time.
pub(super) struct TaskRound {
    pub(super) polling: Polling,
    pub(super) asks: VecDeque<(String, ElicitRequestParams)>,
    pub(super) current: Option<(String, bool)>,
    pub(super) responses: InputResponses,
}

/// An input-required result, answered one question at a time.
pub(super) struct InputRound {
    pub(super) arguments: JsonObject,
    pub(super) state: Option<String>,
    /// The questions not asked yet, by the server's key.
    pub(super) asks: VecDeque<(String, ElicitRequestParams)>,
    /// The question asked now: its key, and whether it is a form.
    pub(super) current: Option<(String, bool)>,
    pub(super) responses: InputResponses,
    /// How many times the call was sent again.
    pub(super) round: u32,
}

/// The calls of a connection parked on a question, by the question's id.
#[derive(Default)]
pub(super) struct ParkedCalls(Mutex<VecDeque<(String, String, Parked)>>);

impl ParkedCalls {
    /// Parks the call of `tool` on question `id`.
    pub(super) fn park(&self, id: String, tool: String, parked: Parked) {
        let mut calls = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if calls.len() >= MOST {
            calls.pop_front();
        }
        calls.push_back((id, tool, parked));
    }

    /// The call of `tool` parked on question `id`, no longer parked.
    pub(super) fn take(&self, id: &str, tool: &str) -> Option<Parked> {
        let mut calls = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let at = calls
            .iter()
            .position(|(parked_id, parked_tool, _)| parked_id == id && parked_tool == tool)?;
        calls.remove(at).map(|(_, _, parked)| parked)
    }
}
