//! `tasks/update`: the client's responses to the input requests of a task
//! waiting for input, kept until the round is answered whole, then the
//! call resumed with all of them.

use std::time::SystemTime;

use rmcp::model::{CallToolRequestParams, InputRequest, TaskPayload, UpdateTaskParams};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::super::McpServer;
use super::super::input_required;
use super::record::Record;
use super::{notify, unavailable};
use crate::canonical::Answer;

impl McpServer {
    /// `tasks/update` for a handler of one's own: the client's responses
    /// to the input requests of a task waiting for input. A response to a
    /// pending request is kept in the task and its request leaves the
    /// task's `inputRequests`, so a client may answer a round's requests
    /// one at a time; once every request of the round has its response,
    /// the call resumes with them all: in this process, or where the
    /// store runs it ([`TaskStore::answer`](super::TaskStore::answer)),
    /// each response to an elicitation read as the [`Answer`] to its
    /// request. A response to no pending request is acknowledged and
    /// ignored, as is an update of a task not waiting for input; a
    /// response to a pending elicitation that is not an elicitation result
    /// is refused, and the task waits on.
    ///
    /// Two updates of one task at the same moment race (the store keeps
    /// the last record written; one process resumes the call once, two
    /// replicas may each resume it): a client answers a task's requests in
    /// turn, or all at once. Answers a store that runs the call could not
    /// take leave the task waiting for them, to be sent again.
    ///
    /// ```
    /// use rmcp::model::{InputResponses, UpdateTaskParams};
    ///
    /// // The responses to one of a round's two requests: the task goes on
    /// // waiting for the other.
    /// let responses = InputResponses::from_iter([(
    ///     "name".to_owned(),
    ///     serde_json::json!({"action": "accept", "content": {"name": "Ada"}}),
    /// )]);
    /// let update = UpdateTaskParams::new("a task id", responses);
    /// assert_eq!(update.input_responses.len(), 1);
    /// ```
    ///
    /// # Errors
    /// An `invalid_params` error for a task unknown or expired, or a
    /// response to an elicitation that is not an elicitation result.
    pub async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let id = request.task_id.clone();
        let id = id.as_str();
        let mut record = self.tasks.find(id).await?;
        let waiting = record.clone();
        let refused = |why: String| ErrorData::invalid_params(why, None);
        match answered(&mut record, request).map_err(refused)? {
            Answered::Nothing => Ok(()),
            Answered::Partly => self.tasks.write(id, &record).await,
            Answered::Whole(call) => {
                let answers = answers(&call);
                self.tasks.write(id, &record).await?;
                match self.tasks.store.answer(id, &answers).await {
                    Ok(true) => {}
                    Ok(false) => self.tasks.spawn(self, id, call, &context),
                    Err(error) => {
                        // The answers never reached the call: the task
                        // waits on, for the client to send them again.
                        let _ = self.tasks.write(id, &waiting).await;
                        return Err(unavailable(error));
                    }
                }
                notify::status(&context, &record.task).await;
                Ok(())
            }
        }
    }
}

/// What an update made of a task waiting for input.
#[derive(Debug)]
enum Answered {
    /// It answered no pending request: nothing changed.
    Nothing,
    /// Requests of the round are still pending.
    Partly,
    /// The round is answered whole: the task works again, on this call.
    Whole(CallToolRequestParams),
}

/// The answers of `call`'s input responses that are elicitation results,
/// each to the request of its key (a response to a request of another
/// kind, a handler's own, is no answer).
fn answers(call: &CallToolRequestParams) -> Vec<Answer> {
    let responses = call.input_responses.iter().flatten();
    responses
        .filter_map(|(key, response)| input_required::answer(key, response.clone()).ok())
        .collect()
}

/// Takes `update`'s responses to `record`'s pending requests into it;
/// none when one to an elicitation is not an elicitation result (the
/// message says why).
fn answered(record: &mut Record, update: UpdateTaskParams) -> Result<Answered, String> {
    let TaskPayload::InputRequired { input_requests } = &record.task.payload else {
        return Ok(Answered::Nothing);
    };
    let mut pending = input_requests.clone();
    let mut taken = Vec::new();
    for (key, response) in update.input_responses {
        let Some(asked) = pending.remove(&key) else {
            continue;
        };
        if matches!(asked, InputRequest::Elicitation(_)) {
            // Refused before any is kept: the client answers it again.
            input_required::answer(&key, response.clone())?;
        }
        taken.push((key, response));
    }
    if taken.is_empty() {
        return Ok(Answered::Nothing);
    }
    record.responses.extend(taken);
    let now = SystemTime::now();
    if !pending.is_empty() {
        let payload = TaskPayload::InputRequired {
            input_requests: pending,
        };
        record.moved_to(payload, now);
        return Ok(Answered::Partly);
    }
    let responses = std::mem::take(&mut record.responses);
    let mut call = CallToolRequestParams::new(record.tool.clone())
        .with_arguments(record.arguments.clone())
        .with_input_responses(responses);
    call.request_state = record.state.take();
    record.moved_to(TaskPayload::Working, now);
    Ok(Answered::Whole(call))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rmcp::model::{InputRequest, InputRequests, InputResponses, JsonObject};
    use serde_json::json;

    use super::*;

    fn waiting(keys: &[&str]) -> Record {
        let mut record = Record::new(
            "t1",
            "ask",
            JsonObject::new(),
            Duration::from_secs(60),
            SystemTime::now(),
        );
        let requests: InputRequests = keys
            .iter()
            .map(|key| {
                let asked: InputRequest = serde_json::from_value(json!({
                    "method": "elicitation/create",
                    "params": {"mode": "form", "message": *key, "requestedSchema": {
                        "type": "object", "properties": {"ok": {"type": "boolean"}}}},
                }))
                .unwrap();
                ((*key).to_owned(), asked)
            })
            .collect();
        record.state = Some("sealed".to_owned());
        record.moved_to(
            TaskPayload::InputRequired {
                input_requests: requests,
            },
            SystemTime::now(),
        );
        record
    }

    fn update(keys: &[&str]) -> UpdateTaskParams {
        let responses: InputResponses = keys
            .iter()
            .map(|key| ((*key).to_owned(), json!({"action": "accept"})))
            .collect();
        UpdateTaskParams::new("t1", responses)
    }

    fn pending(record: &Record) -> Vec<String> {
        match &record.task.payload {
            TaskPayload::InputRequired { input_requests } => {
                input_requests.keys().cloned().collect()
            }
            other => panic!("not waiting: {other:?}"),
        }
    }

    #[test]
    fn a_round_answered_in_two_updates_resumes_once_with_both() {
        let mut record = waiting(&["a", "b"]);
        let first = answered(&mut record, update(&["a", "stray"])).unwrap();
        assert!(matches!(first, Answered::Partly), "b is still pending");
        assert_eq!(pending(&record), ["b"]);
        assert_eq!(record.responses.keys().collect::<Vec<_>>(), ["a"]);
        // A record read back from the store keeps what was answered.
        let value = serde_json::to_value(&record).unwrap();
        let mut record: Record = serde_json::from_value(value).unwrap();
        let Ok(Answered::Whole(call)) = answered(&mut record, update(&["b"])) else {
            panic!("the round is answered");
        };
        let responses = call.input_responses.unwrap();
        assert_eq!(responses.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(call.request_state.as_deref(), Some("sealed"));
        assert_eq!(record.task.payload, TaskPayload::Working);
        assert!(record.responses.is_empty() && record.state.is_none());
    }

    #[test]
    fn an_update_answering_nothing_pending_changes_nothing() {
        let mut record = waiting(&["a"]);
        let stray = answered(&mut record, update(&["z"])).unwrap();
        assert!(matches!(stray, Answered::Nothing));
        assert_eq!(pending(&record), ["a"]);
        let mut working = waiting(&["a"]);
        working.moved_to(TaskPayload::Working, SystemTime::now());
        let late = answered(&mut working, update(&["a"])).unwrap();
        assert!(matches!(late, Answered::Nothing));
    }

    #[test]
    fn a_response_that_is_no_elicitation_result_is_refused_and_nothing_kept() {
        let mut record = waiting(&["a", "b"]);
        let mut bad = update(&["a"]);
        bad.input_responses.insert("b".to_owned(), json!(42));
        let refused = answered(&mut record, bad).unwrap_err();
        assert!(
            refused.contains("`b` is not an elicitation result"),
            "{refused}"
        );
        assert_eq!(pending(&record), ["a", "b"], "still waiting for both");
        assert!(record.responses.is_empty());
    }

    #[test]
    fn a_response_to_a_request_of_another_kind_is_kept_as_it_is() {
        let mut record = waiting(&["a"]);
        let roots: InputRequest = serde_json::from_value(json!({"method": "roots/list"})).unwrap();
        let TaskPayload::InputRequired { input_requests } = &mut record.task.payload else {
            unreachable!()
        };
        input_requests.insert("roots".to_owned(), roots);
        let mut both = update(&["a"]);
        let listed = json!({"roots": [{"uri": "file:///src"}]});
        both.input_responses
            .insert("roots".to_owned(), listed.clone());
        let Ok(Answered::Whole(call)) = answered(&mut record, both) else {
            panic!("the round is answered");
        };
        assert_eq!(call.input_responses.unwrap()["roots"], listed);
    }

    #[test]
    fn a_whole_round_is_answered_request_by_request() {
        let mut record = waiting(&["a", "b"]);
        let mut both = update(&["a"]);
        both.input_responses
            .insert("b".to_owned(), json!({"action": "decline"}));
        let Ok(Answered::Whole(call)) = answered(&mut record, both) else {
            panic!("the round is answered");
        };
        let answers = answers(&call);
        assert_eq!(
            answers,
            [
                Answer::granted("a", None),
                Answer::declined("b", McpServer::DECLINED)
            ]
        );
    }

    #[test]
    fn a_record_without_responses_reads() {
        let mut value = serde_json::to_value(waiting(&["a"])).unwrap();
        assert!(value.get("responses").is_none(), "none kept: none written");
        value.as_object_mut().unwrap().remove("responses");
        let record: Record = serde_json::from_value(value).unwrap();
        assert!(record.responses.is_empty());
    }
}
