//! A remote call's run: sent, heard, parked on a question and resumed
//! with its answer, sent again with the inputs the server asked for.
#![allow(deprecated)] // MCP's logging utility (SEP-2577) is still the 2025 revisions'.

use std::sync::atomic::Ordering;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientRequest, InputRequiredResult, JsonObject,
    ProtocolVersion, RequestMetaObject, ServerResult,
};
use rmcp::service::PeerRequestOptions;

use super::flight::InFlight;
use super::legacy;
use super::parked::{InputRound, Parked};
use super::question;
use super::read;
use super::remote::RemoteTool;
use super::routes::Heard;
use crate::canonical::Answer;
use crate::mcp::log_level::to_rmcp;
use crate::tool::CallContext;
use crate::toolbox::answers;
use crate::{IntoToolResult, Lowered, ToolResult};

/// How many times a call is sent again with the inputs its server asked
/// for, before it is a failure: a server that never stops asking cannot
/// keep a call going for ever.
const MOST_ROUNDS: u32 = 16;

/// Where a wait ended.
enum Waited {
    /// The call's result (its answer, its failure, or its pending question).
    Done(Lowered),
    /// The call is to be sent again, with these parameters.
    Again(CallToolRequestParams, u32),
}

/// What a wait saw first.
enum Step {
    Answered(Result<ServerResult, rmcp::service::ServiceError>),
    Heard(Heard),
    Cancelled,
}

impl RemoteTool {
    /// Runs a call: the first, or a parked one resumed with the answer in
    /// its context.
    pub(super) async fn remote(&self, arguments: JsonObject, cx: CallContext<'static>) -> Lowered {
        let resumed = cx.answer().and_then(|answer| {
            let parked = self.connection.parked.take(&answer.id, &self.name)?;
            Some((answer.clone(), parked))
        });
        let waited = match resumed {
            Some((
                answer,
                Parked::Asking {
                    flight,
                    reply,
                    form,
                },
            )) => {
                let _ = reply.send(question::reply(&answer, form));
                self.wait(flight, &cx).await
            }
            Some((answer, Parked::Input(round))) => self.answer_input(round, &answer),
            Some((answer, Parked::TaskInput(round))) => {
                Waited::Done(self.answer_task_input(round, &answer, &cx).await)
            }
            Some((answer, Parked::Authorizing { arguments })) if answer.ok => Waited::Again(
                CallToolRequestParams::new(self.name.clone()).with_arguments(arguments),
                0,
            ),
            Some((answer, Parked::Authorizing { .. })) => Waited::Done(read::permanent(format!(
                "the authorization `{}` needs was declined{}",
                self.name,
                answer
                    .reason
                    .as_deref()
                    .map_or_else(String::new, |reason| format!(": {reason}"))
            ))),
            None => Waited::Again(
                CallToolRequestParams::new(self.name.clone()).with_arguments(arguments),
                0,
            ),
        };
        let (mut params, mut round) = match waited {
            Waited::Done(lowered) => return lowered,
            Waited::Again(params, round) => (params, round),
        };
        loop {
            let flight = match self.send(params, round).await {
                Ok(flight) => flight,
                Err(lowered) => return lowered,
            };
            match self.wait(flight, &cx).await {
                Waited::Done(lowered) => return lowered,
                Waited::Again(next, next_round) => (params, round) = (next, next_round),
            }
        }
    }

    /// Sends `tools/call` with `params` (with the log level in its
    /// `_meta` for a server of 2026-07-28, which has no session to set it
    /// in; as a task for a server of 2025-11-25 whose tool requires one).
    async fn send(&self, params: CallToolRequestParams, round: u32) -> Result<InFlight, Lowered> {
        let connection = &self.connection;
        let peer = connection.service.peer();
        let arguments = params.arguments.clone().unwrap_or_default();
        let mut options = PeerRequestOptions::no_options();
        let modern = peer
            .peer_info()
            .is_some_and(|info| info.protocol_version >= ProtocolVersion::V_2026_07_28);
        if let (true, Some(level)) = (modern, connection.routes.level()) {
            let mut meta = RequestMetaObject::default();
            meta.set_log_level(to_rmcp(level));
            options = options.with_meta(meta);
        }
        let task = !modern && self.tasked.load(Ordering::Relaxed);
        let request = if task {
            legacy::task_call(&params)
        } else {
            ClientRequest::CallToolRequest(CallToolRequest::new(params))
        };
        match InFlight::send(connection, request, options, task, None).await {
            Ok(mut flight) => {
                flight.arguments = arguments;
                flight.round = round;
                Ok(flight)
            }
            Err(rmcp::service::ServiceError::McpError(refusal)) => {
                Err(read::refused(&self.name, refusal))
            }
            Err(err) => Err(read::broken(&self.name, err)),
        }
    }

    /// Waits for the answer to a request of the call that is no
    /// `tools/call` (a task's `tasks/result`), as for the call's.
    pub(super) async fn wait_for(&self, flight: InFlight, cx: &CallContext<'static>) -> Lowered {
        match self.wait(flight, cx).await {
            Waited::Done(lowered) => lowered,
            Waited::Again(..) => read::permanent(format!(
                "the mcp server answered `{}` with something other than a tool result",
                self.name
            )),
        }
    }

    /// Waits for the call's answer, passing on what the server says
    /// meanwhile; parks the call on the server's question.
    async fn wait(&self, mut flight: InFlight, cx: &CallContext<'static>) -> Waited {
        flight.following.listen(true);
        loop {
            let step = tokio::select! {
                answered = &mut flight.guard.answer => Step::Answered(answered),
                Some(heard) = flight.following.heard.recv() => Step::Heard(heard),
                () = cx.cancelled() => Step::Cancelled,
            };
            match step {
                Step::Heard(Heard::Question(params, reply)) => {
                    flight.following.listen(false);
                    let id = format!("mcp-question-{}", self.connection.routes.next_id());
                    let asked = question::request(id.clone(), &params);
                    let form = question::is_form(&params);
                    let parked = Parked::Asking {
                        flight,
                        reply,
                        form,
                    };
                    self.connection.parked.park(id, self.name.clone(), parked);
                    return Waited::Done(ToolResult::<()>::pending(asked).lower());
                }
                Step::Heard(heard) => flight.hear(heard, cx),
                // The guard tells the server.
                Step::Cancelled => return Waited::Done(answers::cancelled()),
                Step::Answered(answered) => {
                    // Everything the server sent before its answer is in:
                    // the transport routed it before the answer.
                    while let Ok(heard) = flight.following.heard.try_recv() {
                        flight.hear(heard, cx);
                    }
                    flight.guard.disarm();
                    if let Ok(answer) = &answered
                        && let Some(task) = legacy::created(answer)
                    {
                        // Its questions are the task's request's to hear.
                        drop(flight);
                        return Waited::Done(self.run_task(task, true, cx).await);
                    }
                    if !flight.guard.task && self.legacy() && legacy::needs_task(&answered) {
                        // The tool requires a task: from now on it is called as one.
                        self.tasked.store(true, Ordering::Relaxed);
                        let params = CallToolRequestParams::new(self.name.clone())
                            .with_arguments(flight.arguments);
                        return Waited::Again(params, flight.round);
                    }
                    return match answered {
                        Ok(ServerResult::InputRequiredResult(asked)) => {
                            self.input_required(asked, flight.arguments, flight.round)
                        }
                        Ok(ServerResult::CreateTaskResult(created)) => {
                            Waited::Done(self.run_task(created.task, false, cx).await)
                        }
                        Err(err) => match read::insufficient_scope(&err) {
                            Some(challenge) => self.authorizing(&challenge, flight.arguments),
                            None => Waited::Done(read::read(&self.name, Err(err))),
                        },
                        answered => Waited::Done(read::read(&self.name, answered)),
                    };
                }
            }
        }
    }

    /// Whether the server speaks a revision before 2026-07-28.
    fn legacy(&self) -> bool {
        let peer = self.connection.service.peer();
        peer.peer_info()
            .is_some_and(|info| info.protocol_version < ProtocolVersion::V_2026_07_28)
    }

    /// A call the server answered with an input-required result: its
    /// questions, one at a time, then the call again.
    fn input_required(
        &self,
        asked: InputRequiredResult,
        arguments: JsonObject,
        round: u32,
    ) -> Waited {
        if round >= MOST_ROUNDS {
            return Waited::Done(read::permanent(format!(
                "the mcp server asked for input {MOST_ROUNDS} times over and never answered `{}`",
                self.name
            )));
        }
        let (asks, responses) = question::asks_of(asked.input_requests.unwrap_or_default());
        self.next_input(InputRound {
            arguments,
            state: asked.request_state,
            asks,
            current: None,
            responses,
            round,
        })
    }

    /// The answer to the question asked now, then the next question, or
    /// the call again with every response.
    fn answer_input(&self, mut round: InputRound, answer: &Answer) -> Waited {
        if let Some((key, form)) = round.current.take()
            && let Ok(reply) = serde_json::to_value(question::reply(answer, form))
        {
            round.responses.insert(key, reply);
        }
        self.next_input(round)
    }

    /// A call the server refused for want of scope (403
    /// `insufficient_scope`): parked on an authorization request for the
    /// caller, who authorizes again (the same `AuthClient`, more scope)
    /// and resumes it; the call is then sent again.
    fn authorizing(&self, challenge: &str, arguments: JsonObject) -> Waited {
        let id = format!("mcp-question-{}", self.connection.routes.next_id());
        let asked = read::authorization(id.clone(), challenge);
        self.connection
            .parked
            .park(id, self.name.clone(), Parked::Authorizing { arguments });
        Waited::Done(ToolResult::<()>::pending(asked).lower())
    }

    fn next_input(&self, mut round: InputRound) -> Waited {
        let Some((key, params)) = round.asks.pop_front() else {
            let mut again = CallToolRequestParams::new(self.name.clone())
                .with_arguments(round.arguments)
                .with_input_responses(round.responses);
            again.request_state = round.state;
            return Waited::Again(again, round.round + 1);
        };
        let id = format!("mcp-question-{}", self.connection.routes.next_id());
        let asked = question::request(id.clone(), &params);
        round.current = Some((key, question::is_form(&params)));
        self.connection
            .parked
            .park(id, self.name.clone(), Parked::Input(round));
        Waited::Done(ToolResult::<()>::pending(asked).lower())
    }
}
