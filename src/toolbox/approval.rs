//! The approval gate: a call that needs a person's approval is parked on a
//! request before its body runs, and the answer decides whether it runs,
//! with which arguments, or is rejected.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use super::registry::Registered;
use super::run::{CallRun, Ended};
use super::turn::check_answer;
use super::{Attempt, Driver, ResumeError};
use crate::canonical::{ALWAYS, ARGUMENTS, Answer, Request, shorten};
use crate::retry::{Decision, StopReason};
use crate::tool::{Approval, Arguments, CallContext};
use crate::{Failure, IntoToolResult, Lowered, ToolError, ToolResult};

/// What starts the id of every approval request: an answer whose id does
/// not is not an approval's.
pub(super) const ID_PREFIX: &str = "approval-";
/// The keys of an approval's MCP form, and of the answer it gives.
const DECISION: &str = "decision";
const MESSAGE: &str = "message";

/// What the gate lets through.
pub(super) enum Gate {
    /// The body runs: with `edited` arguments in place of the model's when
    /// a person edited them; `consumed` when the turn's answer was the
    /// approval's (the body did not ask for it).
    Run {
        consumed: bool,
        edited: Option<Arguments>,
    },
    /// The call is answered without its body: parked, rejected, or its
    /// arguments refused.
    Answered(Ended),
}

/// A person's decision, read from an answer to an approval request.
enum Verdict {
    Approve,
    Edit(Map<String, Value>),
    Always,
    Reject(String),
}

impl<D: Driver> CallRun<'_, D> {
    /// The gate of a call of `registered`, whose approval is not `never`.
    pub(super) async fn approve(&self, registered: &Registered) -> Result<Gate, D::Error> {
        let (call, tool) = (self.call, &*registered.tool);
        let arguments = as_sent(&call.arguments);
        let reason = |approval: &Approval| {
            let slot = OnceLock::new();
            let cx = CallContext::borrowed(
                &call.id,
                tool.name(),
                0,
                None,
                &slot,
                self.turn.cancellation,
                None,
                self.turn.scope,
            );
            // A test that panics fails closed: the call is asked about.
            catch_unwind(AssertUnwindSafe(|| approval.reason(&arguments, &cx)))
                .unwrap_or_else(|_| Some("deciding whether it needs approval failed".to_owned()))
        };
        if let Some(answer) = self.answer {
            // The turn resumes the call with an answer to its approval.
            if answer.id.starts_with(ID_PREFIX) {
                let why = reason(&registered.options.approval)
                    .unwrap_or_else(|| Approval::ALWAYS_REASON.to_owned());
                let request = self.request(&arguments, why, answer.id.clone());
                let parked = pending(&request);
                return Ok(self.decide(registered, &request, answer, true, parked));
            }
            // An answer to the body's own request: the body ran, approved,
            // in the run that parked it.
            return Ok(Gate::Run {
                consumed: false,
                edited: None,
            });
        }
        if self.is_approved(tool.name()) {
            return Ok(Gate::Run {
                consumed: false,
                edited: None,
            });
        }
        let Some(why) = reason(&registered.options.approval) else {
            return Ok(Gate::Run {
                consumed: false,
                edited: None,
            });
        };
        if let Err(refused) = tool.check_arguments(&call.arguments) {
            return Ok(Gate::Answered(ended(refused, StopReason::Permanent, None)));
        }
        let id = format!("{ID_PREFIX}{}", uuid::Uuid::new_v4());
        let request = self.request(&arguments, why, id);
        // A step of its own, so that a journal keeps the request (its id
        // and seal) that an answer is matched to.
        let park = async { Attempt::new(pending(&request), Decision::Stop(StopReason::Suspended)) };
        let Attempt { lowered, .. } = self.driver.step(call, 0, 0, park).await?;
        let request = lowered.result.pending_request().unwrap_or(request);
        traced("asked");
        match self.driver.wait_for_answer(call, &request).await? {
            None => Ok(Gate::Answered(ended(lowered, StopReason::Suspended, None))),
            Some(answer) => Ok(self.decide(registered, &request, &answer, false, lowered)),
        }
    }

    /// What `answer` decides for the call parked on `request` (answered
    /// with `parked` while it waits): refused, it stays parked, saying
    /// why. `from_turn`: the caller brought it (a driver brings an answer
    /// once; a caller may bring one twice).
    fn decide(
        &self,
        registered: &Registered,
        request: &Request,
        answer: &Answer,
        from_turn: bool,
        parked: Lowered,
    ) -> Gate {
        let verdict = match self.check(registered, request, answer, from_turn) {
            Ok(verdict) => verdict,
            Err(refused) => {
                traced("refused");
                let refused = Some(Box::new(refused));
                return Gate::Answered(ended(parked, StopReason::Suspended, refused));
            }
        };
        let (decision, edited) = match verdict {
            Verdict::Reject(message) => {
                traced("rejected");
                let lowered = rejected(&self.call.name, &message);
                return Gate::Answered(ended(lowered, StopReason::Permanent, None));
            }
            Verdict::Approve => ("approved", None),
            Verdict::Edit(arguments) => ("edited", Some(Arguments::Json(Value::Object(arguments)))),
            Verdict::Always => {
                if let Ok(mut approved) = self.turn.approved.lock() {
                    approved.push(self.call.name.clone());
                }
                ("always", None)
            }
        };
        traced(decision);
        Gate::Run {
            consumed: from_turn,
            edited,
        }
    }

    /// The checks of an answer to an approval: its id, its seal (when the
    /// toolbox seals requests), an edit against the tool's schema, and
    /// that the caller did not bring it before.
    fn check(
        &self,
        registered: &Registered,
        request: &Request,
        answer: &Answer,
        from_turn: bool,
    ) -> Result<Verdict, ResumeError> {
        check_answer(request, answer)?;
        let sealing = &self.toolbox.sealing;
        sealing.open(self.call, answer)?;
        let verdict = verdict(answer);
        if let Verdict::Edit(arguments) = &verdict {
            let edited = Arguments::Json(Value::Object(arguments.clone()));
            if let Err(refused) = registered.tool.check_arguments(&edited) {
                return Err(ResumeError::EditRefused {
                    request: shorten(&request.id),
                    why: why(&refused),
                });
            }
        }
        if from_turn {
            sealing.spend(&request.id)?;
        }
        Ok(verdict)
    }

    /// The approval request of this call with `arguments`, as sent.
    fn request(&self, arguments: &Value, why: String, id: String) -> Request {
        let name = &self.call.name;
        let prompt = format!("Approve the call of `{name}`? ({why})");
        let mut data = Map::new();
        data.insert("tool".to_owned(), Value::String(name.clone()));
        data.insert(ARGUMENTS.to_owned(), arguments.clone());
        data.insert("reason".to_owned(), Value::String(why));
        data.insert("requestedSchema".to_owned(), form());
        let mut request = Request::new(Request::APPROVAL, prompt)
            .with_id(id)
            .with_data(data);
        self.toolbox.sealing.seal(self.call, &mut request);
        request
    }

    fn is_approved(&self, name: &str) -> bool {
        self.turn
            .approved
            .lock()
            .is_ok_and(|approved| approved.iter().any(|tool| tool == name))
    }
}

/// The MCP form an approval is asked with: a decision, a message for the
/// model, and whether to approve the tool for the rest of the turn.
fn form() -> Value {
    json!({
        "type": "object",
        "properties": {
            DECISION: {"type": "string", "title": "Decision", "enum": ["approve", "reject"]},
            MESSAGE: {"type": "string", "title": "Message to the model, if you reject"},
            ALWAYS: {"type": "boolean", "title": "Approve this tool for the rest of the turn", "default": false},
        },
        "required": [DECISION],
    })
}

/// A person's decision in `answer`: a declined answer, or an accepted form
/// whose decision is `reject`, rejects (its reason or message is what the
/// model reads); arguments edit; `always` approves the tool for the turn.
fn verdict(answer: &Answer) -> Verdict {
    let data = answer.data.as_ref();
    let field = |key: &str| data.and_then(|data| data.get(key));
    if !answer.ok {
        return Verdict::Reject(answer.reason.clone().unwrap_or_default());
    }
    if field(DECISION).and_then(Value::as_str) == Some("reject") {
        let message = field(MESSAGE).and_then(Value::as_str).unwrap_or_default();
        return Verdict::Reject(message.to_owned());
    }
    if let Some(Value::Object(arguments)) = field(ARGUMENTS) {
        return Verdict::Edit(arguments.clone());
    }
    if field(ALWAYS) == Some(&Value::Bool(true)) {
        return Verdict::Always;
    }
    Verdict::Approve
}

/// A person rejected the call. The source of the error result it is
/// answered with.
#[derive(Debug, thiserror::Error)]
#[error("a person rejected the call")]
struct Rejected;

/// The answer to a rejected call of `tool`: a permanent failure holding
/// the person's `message`, which the model reads.
fn rejected(tool: &str, message: &str) -> Lowered {
    let text = if message.trim().is_empty() {
        format!("the call of `{tool}` was rejected")
    } else {
        format!("the call of `{tool}` was rejected: {message}")
    };
    let error = ToolError::new(text)
        .with_suggestion("do not call it again as it was; go on without it, or ask the user");
    ToolResult::<(), ToolError>::fail(Failure::new(error).with_source(Rejected).permanent()).lower()
}

/// The call's arguments as the model sent them, as JSON (text that is not
/// JSON as a string).
fn as_sent(arguments: &Arguments) -> Value {
    match arguments {
        Arguments::Json(value) => value.clone(),
        Arguments::Text(text) if text.trim().is_empty() => Value::Object(Map::new()),
        Arguments::Text(text) => {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone()))
        }
    }
}

/// The answer of a call parked on `request`.
pub(super) fn pending(request: &Request) -> Lowered {
    ToolResult::<(), ToolError>::pending(request.clone()).lower()
}

/// A call that ended before its body ran.
pub(super) fn ended(
    lowered: Lowered,
    stop: StopReason,
    not_resumed: Option<Box<ResumeError>>,
) -> Ended {
    Ended {
        lowered,
        attempts: 0,
        stop,
        not_resumed,
    }
}

/// What an error result says, cut short: its output.
fn why(refused: &Lowered) -> String {
    refused.result.output.chars().take(512).collect()
}

/// The decision as an event of the call's span: which, never the
/// arguments or a message's text.
#[cfg_attr(not(feature = "tracing"), allow(unused_variables))]
fn traced(decision: &'static str) {
    #[cfg(feature = "tracing")]
    tracing::info!(approval.decision = decision, "approval");
}
