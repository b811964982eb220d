//! A task's record, as the server keeps it in its store: the task as
//! `tasks/get` shows it, and what resuming its call needs.

use std::time::{Duration, SystemTime};

use rmcp::model::{DetailedTask, InputResponses, JsonObject, Task, TaskPayload, TaskStatus};
use serde::{Deserialize, Serialize};

/// How often, in milliseconds, a client is asked to poll a task.
const POLL_INTERVAL_MS: u64 = 1_000;

/// One task: its state as `tasks/get` answers it, the call it runs, and
/// the sealed state of the call while it waits for input.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Record {
    pub(super) task: DetailedTask,
    /// The tool called.
    pub(super) tool: String,
    /// The call's arguments.
    pub(super) arguments: JsonObject,
    /// The `requestState` of the call's input-required answer, while it
    /// waits for input: what resumes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) state: Option<String>,
    /// The responses to the round's input requests received so far: the
    /// call resumes once every request of the round has one. A default,
    /// so a record written before it existed still reads.
    #[serde(default, skip_serializing_if = "InputResponses::is_empty")]
    pub(super) responses: InputResponses,
    /// When the record expires.
    pub(super) expires: SystemTime,
}

impl Record {
    /// A new task `id`, working on the call of `tool` with `arguments`,
    /// kept for `ttl` from `now`.
    pub(super) fn new(
        id: &str,
        tool: &str,
        arguments: JsonObject,
        ttl: Duration,
        now: SystemTime,
    ) -> Self {
        let at = timestamp(now);
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        let task = Task::new(id, TaskStatus::Working, at.clone(), at)
            .with_ttl_ms(ttl_ms)
            .with_poll_interval_ms(POLL_INTERVAL_MS);
        Self {
            task: DetailedTask::new(task, TaskPayload::Working),
            tool: tool.to_owned(),
            arguments,
            state: None,
            responses: InputResponses::new(),
            expires: now.checked_add(ttl).unwrap_or(now),
        }
    }

    /// The same task, now `payload` (its status follows), as of `now`.
    pub(super) fn moved_to(&mut self, payload: TaskPayload, now: SystemTime) {
        let message = match &payload {
            TaskPayload::InputRequired { .. } => Some("waiting for input"),
            TaskPayload::Cancelled => Some("cancelled"),
            _ => None,
        };
        let mut task = self.task.task.clone();
        task.last_updated_at = timestamp(now);
        task.status_message = message.map(str::to_owned);
        self.task = DetailedTask::new(task, payload);
    }

    /// Whether the task is over (completed, failed or cancelled).
    pub(super) fn is_over(&self) -> bool {
        self.task.status().is_terminal()
    }
}

/// `time` as RFC 3339 in UTC, to the millisecond
/// (`2026-07-28T09:30:00.250Z`).
pub(super) fn timestamp(time: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;

    #[test]
    fn timestamps_are_rfc3339_in_utc() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let leap = UNIX_EPOCH + Duration::from_millis(951_827_696_789);
        assert_eq!(timestamp(leap), "2000-02-29T12:34:56.789Z");
        let later = UNIX_EPOCH + Duration::from_secs(1_785_231_000);
        assert_eq!(timestamp(later), "2026-07-28T09:30:00.000Z");
    }

    #[test]
    fn a_new_task_works_and_moves_on() {
        let now = UNIX_EPOCH + Duration::from_secs(1_785_231_000);
        let mut record = Record::new(
            "t1",
            "build",
            JsonObject::new(),
            Duration::from_secs(60),
            now,
        );
        assert_eq!(record.task.status(), TaskStatus::Working);
        assert_eq!(record.task.task.ttl_ms, Some(60_000));
        assert_eq!(record.expires, now + Duration::from_secs(60));
        assert!(!record.is_over());
        record.moved_to(TaskPayload::Cancelled, now + Duration::from_secs(1));
        assert_eq!(record.task.status(), TaskStatus::Cancelled);
        assert_eq!(record.task.task.last_updated_at, "2026-07-28T09:30:01.000Z");
        assert_eq!(record.task.task.created_at, "2026-07-28T09:30:00.000Z");
        assert!(record.is_over());
    }
}
