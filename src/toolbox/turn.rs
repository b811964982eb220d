//! `Turn`: the calls of one assistant turn, and what their caller gives
//! them.

use std::fmt;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::CallOutcome;
use crate::canonical::{Answer, Request};
use crate::provider::Call;
use crate::tool::{CallEvent, Observer, Values};

/// The calls of one assistant turn, as a [`Toolbox`](super::Toolbox) runs
/// them, with what their caller gives them: values the tools read from
/// their [`CallContext`](crate::tool::CallContext) (a database pool, the
/// user's token, a tenant), an observer of their progress and logs, a
/// cancellation token, and the answers of parked calls resumed.
///
/// Calls alone are a turn too: `toolbox.run(calls)`.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use serde_json::json;
/// use tokio_util::sync::CancellationToken;
/// use toolresult::provider::Call;
/// use toolresult::tool::{self, Arguments, CallContext, CallEvent};
/// use toolresult::toolbox::{Toolbox, Turn};
///
/// #[derive(Clone)]
/// struct User(&'static str);
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
/// let mut toolbox = Toolbox::new();
/// toolbox.register(tool::function("whoami", "Who is asking", |_: NoArgs, cx: &CallContext| {
///     cx.progress(1.0, Some(1.0), Some("looked up"));
///     cx.get::<User>().map_or("nobody", |user| user.0).to_owned()
/// })?)?;
///
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let sink = Arc::clone(&seen);
/// let turn = Turn::new([Call::new("c1", "whoami", Arguments::Json(json!({})))])
///     .with_value(User("ada"))
///     .with_observer(move |event: &CallEvent<'_>| sink.lock().unwrap().push(format!("{event:?}")))
///     .with_cancellation(CancellationToken::new());
/// let outcomes = toolbox.run(turn).await;
/// assert_eq!(outcomes[0].lowered.result.output, "ada");
/// assert_eq!(seen.lock().unwrap().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
#[must_use = "a turn does nothing until a toolbox runs it"]
pub struct Turn {
    pub(super) calls: Vec<Call>,
    /// The answers of resumed calls, with the requests they answer, by
    /// their place in `calls` (shorter than it when the calls after the
    /// last resumed one have none).
    pub(super) answers: Vec<Option<Resumed>>,
    pub(super) values: Option<Values>,
    pub(super) observer: Option<Observer>,
    pub(super) cancellation: Option<CancellationToken>,
    /// The tools whose calls need no approval in this turn.
    pub(super) approved: Vec<String>,
}

/// A parked call's request and the answer it is resumed with: the
/// request is what the call stays parked on when the answer is refused.
#[derive(Debug)]
pub(super) struct Resumed {
    pub(super) request: Request,
    pub(super) answer: Answer,
}

/// Why a call could not be resumed.
///
/// ```
/// use toolresult::canonical::Answer;
/// use toolresult::provider::Call;
/// use toolresult::tool::{self, Arguments};
/// use toolresult::toolbox::{ResumeError, Toolbox, Turn};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
/// let mut toolbox = Toolbox::new();
/// toolbox.register(tool::function("now", "The time", |_: NoArgs| "noon")?)?;
/// let done = toolbox.run([Call::new("c1", "now", Arguments::Json(serde_json::json!({})))]).await;
/// let err = Turn::default().resume(&done[0], Answer::granted("req-1", None)).unwrap_err();
/// assert_eq!(err, ResumeError::NotPending);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResumeError {
    /// The call is not parked on a request.
    #[error("the call is not waiting for an answer")]
    NotPending,
    /// The answer is for another request.
    #[error("the answer is for request `{answer}`, the call waits for `{request}`")]
    OtherRequest {
        /// The id of the request the call waits for (cut to 64
        /// characters: an id comes from outside, and the message never
        /// grows with it).
        request: String,
        /// The id the answer carries (cut to 64 characters).
        answer: String,
    },
    /// The answer carries no seal, and the toolbox seals the requests
    /// calls park on ([`Toolbox::seal_requests`](super::Toolbox::seal_requests)).
    #[error("the answer to request `{request}` carries no seal")]
    Unsealed {
        /// The request's id (cut to 64 characters).
        request: String,
    },
    /// The answer's seal is not one of the toolbox's: made up, or changed
    /// on the way.
    #[error("the seal of the answer to request `{request}` is forged: {why}")]
    Forged {
        /// The request's id (cut to 64 characters).
        request: String,
        /// What was wrong with the seal.
        why: String,
    },
    /// The answer's seal is genuine but was issued for another call:
    /// `field` names what differs (`call`, `tool`, `arguments` or
    /// `request`): an answer for another call, or for the call with its
    /// arguments changed since it was parked.
    #[error(
        "the seal of the answer to request `{request}` was issued for another call: its `{field}` differs"
    )]
    OtherCall {
        /// The request's id (cut to 64 characters).
        request: String,
        /// The binding field that differs.
        field: String,
    },
    /// The answer was already used to resume the call: an approval
    /// resumes a call once.
    #[error("the answer to approval request `{request}` was already used")]
    Replayed {
        /// The request's id (cut to 64 characters).
        request: String,
    },
    /// The arguments a person edited do not fit the tool's input schema;
    /// the model never sees them.
    #[error("the edited arguments of approval request `{request}` do not fit the tool: {why}")]
    EditRefused {
        /// The request's id (cut to 64 characters).
        request: String,
        /// The tool's words for what does not fit (cut to 512 characters).
        why: String,
    },
    /// The call was resumed as many times as one turn allows
    /// ([`Toolbox::MAX_RESUMES`](super::Toolbox::MAX_RESUMES)) and parked
    /// again.
    #[error("the call was resumed {limit} times in one turn and parked again")]
    TooManyResumes {
        /// The most resumes of one call in one turn.
        limit: u32,
    },
}

/// Whether `answer` may resume a call parked on `request`: the one check
/// of an answer, whoever brings it (a caller's [`Turn::resume`], or a
/// driver's wait inside a turn).
pub(super) fn check_answer(request: &Request, answer: &Answer) -> Result<(), ResumeError> {
    if answer.answers(request) {
        return Ok(());
    }
    Err(ResumeError::OtherRequest {
        request: crate::canonical::shorten(&request.id),
        answer: crate::canonical::shorten(&answer.id),
    })
}

impl Turn {
    /// A turn of these calls, in the order the model made them.
    pub fn new(calls: impl IntoIterator<Item = Call>) -> Self {
        Self {
            calls: calls.into_iter().collect(),
            ..Self::default()
        }
    }

    /// The same turn with a parked call added, to run again with `answer`,
    /// which its tool reads from its context
    /// ([`CallContext::answer`](crate::tool::CallContext::answer)). The same
    /// timeout and retries apply as on its first run.
    ///
    /// A call that needs a person's approval
    /// ([`Approval`](crate::tool::Approval)) parks before its body runs;
    /// a call may also park on a request of its own body:
    ///
    /// ```
    /// use serde_json::json;
    /// use toolresult::canonical::{Answer, Request};
    /// use toolresult::provider::Call;
    /// use toolresult::tool::{self, Approval, Arguments, CallContext};
    /// use toolresult::toolbox::{Toolbox, Turn};
    /// use toolresult::ToolResult;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct NoArgs {}
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(tool::function("deploy", "Deploy", |_: NoArgs| "deployed")?
    ///     .with_approval(Approval::always()))?;
    /// toolbox.register(tool::function("greet", "Greet", |_: NoArgs, cx: &CallContext| {
    ///     match cx.answer().and_then(|answer| answer.data.as_ref()) {
    ///         Some(data) => ToolResult::<String>::ok(format!("hello {}", data["name"])),
    ///         None => ToolResult::pending(Request::input("Your name?").with_id("name-1")),
    ///     }
    /// })?)?;
    /// let parked = toolbox.run([
    ///     Call::new("c1", "deploy", Arguments::Json(json!({}))),
    ///     Call::new("c2", "greet", Arguments::Json(json!({}))),
    /// ]).await;
    /// assert!(parked.iter().all(|outcome| outcome.is_pending()));
    ///
    /// let approval = parked[0].lowered.result.pending_request().unwrap();
    /// let name = serde_json::Map::from_iter([("name".to_owned(), json!("Ada"))]);
    /// let turn = Turn::default()
    ///     .resume(&parked[0], Answer::approve(&approval))?
    ///     .resume(&parked[1], Answer::granted("name-1", Some(name)))?;
    /// let done = toolbox.run(turn).await;
    /// assert_eq!(done[0].lowered.result.output, "deployed");
    /// assert_eq!(done[1].lowered.result.output, r#"hello "Ada""#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// An answer is checked further when the turn runs, before the call's
    /// body does: its seal, when the toolbox seals requests
    /// ([`Toolbox::seal_requests`](super::Toolbox::seal_requests)), and
    /// for an approval an edit against the tool's schema; one refused
    /// leaves the call parked, saying why in
    /// [`CallOutcome::not_resumed`](super::CallOutcome::not_resumed).
    ///
    /// # Errors
    /// The call is not parked on a request, or `answer` is for another one.
    pub fn resume(mut self, parked: &CallOutcome, answer: Answer) -> Result<Self, ResumeError> {
        let request = parked
            .lowered
            .result
            .pending_request()
            .ok_or(ResumeError::NotPending)?;
        check_answer(&request, &answer)?;
        self.answers.resize_with(self.calls.len(), || None);
        self.answers.push(Some(Resumed { request, answer }));
        self.calls.push(parked.call.clone());
        Ok(self)
    }

    /// The same turn with every call of the tool `name` approved without
    /// asking (see [`Approval`](crate::tool::Approval)): how a caller
    /// keeps an [`Answer::approve_always`] beyond the turn it was given
    /// in, in a store of its own (a user's session, say).
    pub fn approve_always(mut self, name: impl Into<String>) -> Self {
        self.approved.push(name.into());
        self
    }

    /// The same turn with `value` attached (in place of one of its type):
    /// every tool of the turn reads it with
    /// [`CallContext::get`](crate::tool::CallContext::get), before a value
    /// of the same type the toolbox holds.
    pub fn with_value<T: Clone + Send + Sync + 'static>(mut self, value: T) -> Self {
        self.values.get_or_insert_with(Values::new).insert(value);
        self
    }

    /// The same turn, its tools' progress and log events handed to
    /// `observer`, in the order each tool sends them.
    pub fn with_observer(
        mut self,
        observer: impl Fn(&CallEvent<'_>) + Send + Sync + 'static,
    ) -> Self {
        self.observer = Some(Arc::new(observer));
        self
    }

    /// The same turn, cancelled when `token` is: calls still running are
    /// dropped and, like calls not yet started, answered with a cancelled
    /// error result; nothing is retried after it. Every call is still
    /// answered once, in order. Each call's cancellation signal fires with
    /// the token, so work a tool handed off with
    /// [`CallContext::cancellation_token`](crate::tool::CallContext::cancellation_token)
    /// (a spawned task, a blocking body) sees it and can stop.
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancellation = Some(token);
        self
    }
}

/// Calls alone are a turn.
impl<I: IntoIterator<Item = Call>> From<I> for Turn {
    fn from(calls: I) -> Self {
        Self::new(calls)
    }
}

impl fmt::Debug for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Turn")
            .field("calls", &self.calls)
            .field("answers", &self.answers)
            .field("cancellation", &self.cancellation)
            .field("approved", &self.approved)
            .finish_non_exhaustive()
    }
}
