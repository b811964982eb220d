//! The calls of a stream as they become whole: checked as `read_calls`
//! checks a message's, given out in order, held behind arguments that are
//! not JSON until the message finishes.

use std::collections::HashMap;

use serde::de::IgnoredAny;

use crate::provider::{Call, ReadCallsError};

/// Whether arguments sent as text are whole: blank (read as `{}`) or one
/// JSON value. Anything else may have been cut.
pub(crate) fn is_whole(arguments: &str) -> bool {
    arguments.trim().is_empty() || serde_json::from_str::<IgnoredAny>(arguments).is_ok()
}

/// The whole calls of a stream, in order, each once.
#[derive(Debug)]
pub(crate) struct Calls {
    style: &'static str,
    /// Where a call's id is in the assembled message, from its position there.
    id_path: fn(usize) -> String,
    calls: Vec<Call>,
    /// Each call's position in the assembled message.
    positions: Vec<usize>,
    /// How many calls were given out.
    given: usize,
    /// The ids seen, once a turn is long enough for a map to pay off.
    ids: Option<HashMap<String, usize>>,
}

impl Calls {
    pub(crate) fn new(style: &'static str, id_path: fn(usize) -> String) -> Self {
        Self {
            style,
            id_path,
            calls: Vec::new(),
            positions: Vec::new(),
            given: 0,
            ids: None,
        }
    }

    /// How many whole calls so far.
    pub(crate) fn len(&self) -> usize {
        self.calls.len()
    }

    /// Adds a whole call, at `position` in the assembled message, and gives
    /// it out unless `held` (its arguments are not JSON) or an earlier call
    /// is held. Returns its index among the calls.
    ///
    /// # Errors
    /// [`ReadCallsError::DuplicateId`] when an earlier call has its id.
    pub(crate) fn close(
        &mut self,
        position: usize,
        call: Call,
        held: bool,
        ready: &mut Vec<Call>,
    ) -> Result<usize, ReadCallsError> {
        if let Some(first) = self.earlier(&call.id) {
            let first = self.positions.get(first).copied().unwrap_or_default();
            return Err(ReadCallsError::DuplicateId {
                style: self.style,
                id: call.id,
                path: (self.id_path)(position),
                first: (self.id_path)(first),
            });
        }
        let index = self.calls.len();
        if let Some(ids) = &mut self.ids
            && !call.id.is_empty()
        {
            ids.insert(call.id.clone(), index);
        }
        if !held && self.given == index {
            ready.push(call.clone());
            self.given += 1;
        }
        self.calls.push(call);
        self.positions.push(position);
        Ok(index)
    }

    /// Gives out the calls held so far: the message finished.
    pub(crate) fn release(&mut self, ready: &mut Vec<Call>) {
        ready.extend(self.calls.iter().skip(self.given).cloned());
        self.given = self.calls.len();
    }

    /// Every whole call, in order.
    pub(crate) fn into_vec(self) -> Vec<Call> {
        self.calls
    }

    /// The index of an earlier call with this non-empty id.
    fn earlier(&mut self, id: &str) -> Option<usize> {
        if id.is_empty() {
            return None;
        }
        // A turn of a few calls compares ids; a map pays off only for long
        // turns.
        if self.ids.is_none() && self.calls.len() >= 16 {
            let ids = self
                .calls
                .iter()
                .enumerate()
                .filter(|(_, call)| !call.id.is_empty())
                .map(|(index, call)| (call.id.clone(), index))
                .collect();
            self.ids = Some(ids);
        }
        match &self.ids {
            Some(ids) => ids.get(id).copied(),
            None => self.calls.iter().position(|call| call.id == id),
        }
    }
}
