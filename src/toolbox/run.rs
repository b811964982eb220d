//! Running a turn: every call answered exactly once, in call order.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::task::Poll;
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::future::Either;
use futures_util::stream::FuturesUnordered;

use super::answer::{WithAnswer, with_answer};
use super::errors::seconds;
use super::registry::Registered;
use super::{Attempt, CallOutcome, TimedOut, Toolbox, UnknownTool};
use crate::canonical::Answer;
use crate::provider::{Arguments, Call};
use crate::retry::{Cancelled, Decision, StopReason};
use crate::tool::{
    ArgsRef, InvalidArguments, Now, Tool, ToolPanicked, catch_future, drop_quietly,
    is_object_schema, shown_name,
};
use crate::{Failure, IntoToolResult, Lowered, ToolError, ToolResult};

/// Why a call could not be resumed.
///
/// ```
/// use toolresult::canonical::Answer;
/// use toolresult::provider::{Arguments, Call};
/// use toolresult::toolbox::{ResumeError, Toolbox};
/// use toolresult::tool;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
/// let mut toolbox = Toolbox::new();
/// toolbox.register(tool::function("now", "The time", |_: NoArgs| "noon")?)?;
/// let done = toolbox.run([Call::new("c1", "now", Arguments::Json(serde_json::json!({})))]).await;
/// let err = toolbox.resume(&done[0], Answer::granted("req-1", None)).await.unwrap_err();
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
        /// The id of the request the call waits for.
        request: String,
        /// The id the answer carries.
        answer: String,
    },
}

impl Toolbox {
    /// Runs the calls of one assistant turn and answers each exactly once,
    /// in call order, under its own id.
    ///
    /// Calls run at once (up to [`concurrency`](Self::concurrency)), each
    /// attempt under its timeout; a failure is retried when the retry
    /// policy, reading the Rust channel and the tool's safety, says so; a
    /// panic, bad arguments or an unknown tool name is an error result the
    /// model can act on. Needs a tokio runtime with its timer.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolresult::provider::{Arguments, Call};
    /// use toolresult::tool;
    /// use toolresult::toolbox::Toolbox;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Add { a: i64, b: i64 }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(tool::function("add", "Add", |x: Add| (x.a + x.b).to_string())?)?;
    /// let outcomes = toolbox.run([
    ///     Call::new("c1", "add", Arguments::Text(r#"{"a":2,"b":40}"#.into())),
    ///     Call::new("c2", "sub", Arguments::Json(json!({}))),
    /// ]).await;
    /// assert_eq!(outcomes[0].lowered.result.output, "42");
    /// assert_eq!(outcomes[1].call.id, "c2");
    /// assert_eq!(
    ///     outcomes[1].lowered.result.output,
    ///     r#"{"error":{"message":"there is no tool named `sub`","suggestion":"call one of: `add`"}}"#
    /// );
    /// // Rust keeps what happened: the unknown name, and no attempt made.
    /// let unknown = outcomes[1].lowered.diagnostics.source().unwrap();
    /// assert_eq!(unknown.downcast_ref::<toolresult::toolbox::UnknownTool>().unwrap().name(), "sub");
    /// assert_eq!(outcomes[1].attempts, 0);
    /// assert!(!outcomes[1].is_pending());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn run(&self, calls: impl IntoIterator<Item = Call>) -> Vec<CallOutcome> {
        let mut calls = calls.into_iter();
        if calls.size_hint().1 == Some(1)
            && let Some(call) = calls.next()
        {
            // One call, never cancelled: nothing to schedule or race.
            let tried = AtomicU32::new(0);
            let (lowered, attempts) = self.answer(&call, None, &tried).await;
            return vec![CallOutcome {
                call,
                lowered,
                attempts,
            }];
        }
        self.run_until(calls, std::future::pending()).await
    }

    /// [`run`](Self::run), until `cancelled` completes (a cancellation
    /// token's `cancelled()`, a shutdown signal, a deadline): calls still
    /// running are dropped and, like calls not yet started, answered with a
    /// cancelled error result; nothing is retried after it. Every call is
    /// still answered once, in order.
    ///
    /// ```
    /// use std::time::Duration;
    /// use serde_json::json;
    /// use toolresult::provider::{Arguments, Call};
    /// use toolresult::tool;
    /// use toolresult::toolbox::Toolbox;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct NoArgs {}
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true).build()?.block_on(async {
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(tool::async_function("wait", "Waits an hour", |_: NoArgs| async {
    ///     tokio::time::sleep(Duration::from_secs(3600)).await;
    ///     "done"
    /// })?)?;
    /// let outcomes = toolbox
    ///     .run_until([Call::new("c1", "wait", Arguments::Json(json!({})))], tokio::time::sleep(Duration::from_secs(1)))
    ///     .await;
    /// assert_eq!(
    ///     outcomes[0].lowered.result.output,
    ///     r#"{"error":{"message":"the call was cancelled before it finished"}}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn run_until(
        &self,
        calls: impl IntoIterator<Item = Call>,
        cancelled: impl Future<Output = ()>,
    ) -> Vec<CallOutcome> {
        let calls: Vec<Call> = calls.into_iter().collect();
        let mut answers: Vec<Option<(Lowered, u32)>> = calls.iter().map(|_| None).collect();
        // Attempts started so far, per call: what a cancelled call reports.
        let tried: Vec<AtomicU32> = calls.iter().map(|_| AtomicU32::new(0)).collect();
        let mut running = FuturesUnordered::new();
        let mut waiting = calls.iter().zip(&tried).enumerate();
        let mut cancelled = pin!(cancelled);
        loop {
            while running.len() < self.concurrency {
                let Some((index, (call, tried))) = waiting.next() else {
                    break;
                };
                running.push(async move { (index, self.answer(call, None, tried).await) });
            }
            if running.is_empty() {
                break;
            }
            tokio::select! {
                biased;
                () = &mut cancelled => break,
                Some((index, answer)) = running.next() => {
                    if let Some(slot) = answers.get_mut(index) {
                        *slot = Some(answer);
                    }
                }
            }
        }
        drop(running);
        calls
            .into_iter()
            .zip(answers)
            .zip(tried)
            .map(|((call, answer), tried)| {
                let (lowered, attempts) =
                    answer.unwrap_or_else(|| (cancelled_result(), tried.into_inner()));
                CallOutcome {
                    call,
                    lowered,
                    attempts,
                }
            })
            .collect()
    }

    /// Runs a parked call again with `answer`, which its tool reads with
    /// [`answer()`](super::answer()); the same timeout and retries apply.
    ///
    /// # Errors
    /// The call is not parked on a request, or `answer` is for another one.
    pub async fn resume(
        &self,
        parked: &CallOutcome,
        answer: Answer,
    ) -> Result<CallOutcome, ResumeError> {
        let request = parked
            .lowered
            .result
            .pending_request()
            .ok_or(ResumeError::NotPending)?;
        if !answer.answers(&request) {
            return Err(ResumeError::OtherRequest {
                request: request.id,
                answer: answer.id,
            });
        }
        let tried = AtomicU32::new(0);
        let (lowered, attempts) = self
            .answer(&parked.call, Some(Arc::new(answer)), &tried)
            .await;
        Ok(CallOutcome {
            call: parked.call.clone(),
            lowered,
            attempts,
        })
    }

    /// One attempt of a call, and what the retry policy says after it: for
    /// a driver that keeps the turn's state itself, such as a durable
    /// execution engine that journals each attempt and waits out the delay
    /// on its own timer. [`run`](Self::run) is this in a loop.
    ///
    /// `attempt` counts from 1; `answer` resumes a parked call (its tool
    /// reads it with [`answer()`](super::answer())). The tool is looked up,
    /// run under its timeout, a panic or bad arguments answered, as in
    /// `run`; a call of a tool the toolbox does not have is answered with
    /// [`UnknownTool`] and a decision to stop.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolresult::provider::{Arguments, Call};
    /// use toolresult::retry::{Decision, RetryPolicy, StopReason};
    /// use toolresult::{tool::{self, ToolSafety}, Failure, ToolError, ToolResult};
    /// use toolresult::toolbox::Toolbox;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct NoArgs {}
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
    /// let mut toolbox = Toolbox::new().retry(RetryPolicy::new().max_attempts(2));
    /// toolbox.register(tool::function("busy", "Always busy", |_: NoArgs| {
    ///     ToolResult::<(), ToolError>::fail(Failure::new(ToolError::new("busy")).transient())
    /// })?.with_safety(ToolSafety::ReadOnly))?;
    /// let call = Call::new("c1", "busy", Arguments::Json(json!({})));
    ///
    /// let first = toolbox.attempt(&call, None, 1).await;
    /// assert!(first.lowered.result.is_error);
    /// assert!(matches!(first.decision, Decision::Retry(_)));
    /// let second = toolbox.attempt(&call, None, 2).await;
    /// assert_eq!(second.decision, Decision::Stop(StopReason::AttemptsExhausted { attempts: 2 }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn attempt(&self, call: &Call, answer: Option<Answer>, attempt: u32) -> Attempt {
        let answer = answer.map(Arc::new);
        let attempting = async {
            let Some(registered) = self.entry(&call.name) else {
                return (
                    self.unknown(&call.name),
                    Decision::Stop(StopReason::Permanent),
                );
            };
            self.try_once(registered, &call.arguments, answer.as_ref(), attempt.max(1))
                .await
        };
        #[cfg(feature = "tracing")]
        let attempting = super::span::traced(call, attempting, |(lowered, _)| lowered);
        let (lowered, decision) = attempting.await;
        Attempt { lowered, decision }
    }

    /// One call, answered: looked up, attempted, retried as the policy says.
    fn answer<'a>(
        &'a self,
        call: &'a Call,
        answer: Option<Arc<Answer>>,
        tried: &'a AtomicU32,
    ) -> impl Future<Output = (Lowered, u32)> + 'a {
        let answering = self.answer_untraced(call, answer, tried);
        #[cfg(feature = "tracing")]
        let answering = super::span::traced(call, answering, |(lowered, _)| lowered);
        answering
    }

    async fn answer_untraced(
        &self,
        call: &Call,
        answer: Option<Arc<Answer>>,
        tried: &AtomicU32,
    ) -> (Lowered, u32) {
        let Some(registered) = self.entry(&call.name) else {
            return (self.unknown(&call.name), 0);
        };
        let mut attempt: u32 = 0;
        loop {
            attempt = attempt.saturating_add(1);
            tried.store(attempt, Ordering::Relaxed);
            let (lowered, decision) = self
                .try_once(registered, &call.arguments, answer.as_ref(), attempt)
                .await;
            match decision {
                Decision::Retry(delay) => {
                    // The failure's source is the tool's own error, whose
                    // `Drop` may panic.
                    drop_quietly(lowered);
                    tokio::time::sleep(delay).await;
                }
                Decision::Stop(_) => return (lowered, attempt),
            }
        }
    }

    /// One attempt of a registered tool's call, under its timeout, and what
    /// its retry policy says after it.
    async fn try_once(
        &self,
        registered: &Registered,
        arguments: &Arguments,
        answer: Option<&Arc<Answer>>,
        attempt: u32,
    ) -> (Lowered, Decision) {
        let policy = registered.options.retry.as_ref().unwrap_or(&self.retry);
        let timeout = registered.options.timeout.unwrap_or(self.timeout);
        let lowered = match start(registered, arguments, answer) {
            Started::Done(done) => done,
            Started::Running(call) => within(timeout, registered.tool.name(), call).await,
        };
        let decision = policy.decide_and_notify(registered.tool.safety(), &lowered, attempt);
        if decision.is_retry() {
            return (lowered, decision);
        }
        let budget = registered.options.budget.as_ref().unwrap_or(&self.budget);
        if budget.fits(&lowered) {
            return (lowered, decision);
        }
        let schema = registered.tool.output_schema();
        let schema = is_object_schema(schema).then(|| schema.as_value());
        (budget.apply(lowered, schema, &*self.artifacts), decision)
    }

    /// The answer to a call of a tool the toolbox does not have: the tools
    /// it could call instead.
    fn unknown(&self, name: &str) -> Lowered {
        let shown = shown_name(name);
        let known: Vec<String> = self.names().map(|name| format!("`{name}`")).collect();
        let suggestion = if known.is_empty() {
            "there are no tools to call".to_owned()
        } else {
            format!("call one of: {}", known.join(", "))
        };
        let error =
            ToolError::new(format!("there is no tool named `{shown}`")).with_suggestion(suggestion);
        ToolResult::<(), ToolError>::fail(
            Failure::new(error)
                .with_source(UnknownTool { name: shown })
                .permanent(),
        )
        .lower()
    }
}

/// An attempt of a call, started: the answer already when a synchronous
/// tool answered in place (with no future to poll), else the call to wait
/// for.
#[inline]
fn start<'a>(
    registered: &'a Registered,
    arguments: &'a Arguments,
    answer: Option<&Arc<Answer>>,
) -> Started<impl Future<Output = Lowered> + Send + 'a> {
    let tool = &registered.tool;
    if registered.options.off_executor {
        let call = off_executor(Arc::clone(tool), arguments, answer.cloned());
        return Started::Running(Either::Left(call));
    }
    match on_executor(&**tool, arguments, answer.cloned()) {
        Started::Running(call) => Started::Running(Either::Right(call)),
        Started::Done(done) => Started::Done(done),
    }
}

/// `call`, or the timed-out answer if it does not finish within `limit`. A
/// call done at its first poll (a synchronous tool) needs no timer, so none
/// is set until it waits.
async fn within(
    limit: Option<Duration>,
    name: &str,
    call: impl Future<Output = Lowered>,
) -> Lowered {
    let Some(limit) = limit else {
        return call.await;
    };
    let mut call = pin!(call);
    let mut timer = pin!(None::<tokio::time::Sleep>);
    std::future::poll_fn(|cx| {
        if let Poll::Ready(lowered) = call.as_mut().poll(cx) {
            return Poll::Ready(lowered);
        }
        if timer.is_none() {
            timer.set(Some(tokio::time::sleep(limit)));
        }
        match timer.as_mut().as_pin_mut().map(|sleep| sleep.poll(cx)) {
            Some(Poll::Ready(())) => Poll::Ready(timed_out(name, limit)),
            _ => Poll::Pending,
        }
    })
    .await
}

/// The tool's own call future, to run in this task; the answer already,
/// when a synchronous tool answered in place or building the future
/// panicked.
#[inline]
fn on_executor<'a>(
    tool: &'a dyn Tool,
    arguments: &'a Arguments,
    answer: Option<Arc<Answer>>,
) -> Started<impl Future<Output = Lowered> + Send + 'a> {
    let name = tool.name();
    // A synchronous tool answers in place, with no future to build, box
    // or poll; building an async tool's future runs code of the tool's
    // too. Either way, a panic there is caught.
    let start = || match tool.call_now(borrowed(arguments), Now) {
        Some(done) => Started::Done(done),
        None => Started::Running(match arguments {
            Arguments::Text(text) => tool.call_json(text),
            Arguments::Json(value) => tool.call(value.clone()),
        }),
    };
    let started = catch_unwind(AssertUnwindSafe(|| match &answer {
        Some(_) => with_answer(answer.as_ref(), start),
        None => start(),
    }));
    match started {
        Ok(Started::Running(call)) => {
            Started::Running(catch_future(name, WithAnswer::new(answer, call)))
        }
        Ok(Started::Done(done)) => Started::Done(done),
        Err(payload) => Started::Done(ToolPanicked::caught(name, payload)),
    }
}

/// A call's future, or its answer already: a synchronous tool's, or that of
/// a tool that panicked building its future.
enum Started<F> {
    Running(F),
    Done(Lowered),
}

/// The tool's blocking call on tokio's blocking pool; an async tool (one
/// with no blocking call) runs in this task as usual.
fn off_executor<'a>(
    tool: Arc<dyn Tool>,
    arguments: &'a Arguments,
    answer: Option<Arc<Answer>>,
) -> Pin<Box<dyn Future<Output = Lowered> + Send + 'a>> {
    let owned = arguments.clone();
    let worker = Arc::clone(&tool);
    let worker_answer = answer.clone();
    Box::pin(async move {
        let joined = tokio::task::spawn_blocking(move || {
            with_answer(worker_answer.as_ref(), || {
                // A synchronous tool decodes the arguments as it would on
                // the executor; any other tool gets the parsed value.
                if let Some(lowered) = worker.call_now(borrowed(&owned), Now) {
                    return Some(lowered);
                }
                let value = match owned {
                    Arguments::Json(value) => value,
                    Arguments::Text(text) => match InvalidArguments::parse(&text) {
                        Ok(value) => value,
                        Err(invalid) => return Some(invalid.lower(worker.name())),
                    },
                };
                worker.call_blocking(value)
            })
        })
        .await;
        match joined {
            Ok(Some(lowered)) => lowered,
            Ok(None) => match on_executor(&*tool, arguments, answer) {
                Started::Running(call) => call.await,
                Started::Done(done) => done,
            },
            Err(join) => match join.try_into_panic() {
                Ok(payload) => ToolPanicked::caught(tool.name(), payload),
                Err(_) => cancelled_result(),
            },
        }
    })
}

/// The arguments as the tools' crate-private fast path takes them.
fn borrowed(arguments: &Arguments) -> ArgsRef<'_> {
    match arguments {
        Arguments::Text(text) => ArgsRef::Text(text),
        Arguments::Json(value) => ArgsRef::Json(value),
    }
}

/// The answer to a call that did not finish within its timeout: a
/// transient failure, so the policy may try again.
fn timed_out(tool: &str, limit: Duration) -> Lowered {
    let error = ToolError::new(format!("the tool did not finish within {}", seconds(limit)))
        .with_suggestion("try again, or ask for less at once");
    ToolResult::<(), ToolError>::fail(
        Failure::new(error)
            .with_source(TimedOut::new(tool, limit))
            .transient(),
    )
    .lower()
}

/// The answer to a call the turn's cancellation stopped or never started.
fn cancelled_result() -> Lowered {
    ToolResult::<(), ToolError>::fail(
        Failure::new(ToolError::new("the call was cancelled before it finished"))
            .with_source(Cancelled)
            .permanent(),
    )
    .lower()
}
