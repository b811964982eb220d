//! Running a turn: every call answered exactly once, in call order, by one
//! loop, whatever the driver.

// The futures of a turn are blocks that own what they are given: an
// `async fn` keeps a second copy of each argument in its future, and a
// call's future is moved into place once per call.
#![allow(clippy::manual_async_fn)]

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::Poll;
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use futures_util::future::try_join_all;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use super::driver::InProcess;
use super::errors::seconds;
use super::registry::Registered;
use super::{Attempt, CallOutcome, Driver, TimedOut, Toolbox, Turn, UnknownTool};
use crate::canonical::Answer;
use crate::provider::Call;
use crate::retry::{Cancelled, Decision, StopReason};
use crate::tool::{
    Arguments, CallContext, LazyDeadline, Scope, Tool, ToolPanicked, catch_future, drop_quietly,
    is_object_schema, shown_name,
};
use crate::{Failure, IntoToolResult, Lowered, ToolError, ToolResult};

impl Toolbox {
    /// Runs the calls of one assistant turn and answers each exactly once,
    /// in call order, under its own id.
    ///
    /// `turn` is the calls, or a [`Turn`] of them with values for the
    /// tools, an observer, a cancellation token or answers of parked calls.
    /// Calls run at once (up to [`concurrency`](Self::concurrency)), each
    /// attempt under its timeout; a failure is retried when the retry
    /// policy, reading the Rust channel and the tool's safety, says so; a
    /// panic, bad arguments or an unknown tool name is an error result the
    /// model can act on. Needs a tokio runtime with its timer.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolresult::provider::Call;
    /// use toolresult::tool::{self, Arguments};
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
    pub async fn run(&self, turn: impl Into<Turn>) -> Vec<CallOutcome> {
        match self.run_on(&InProcess, turn).await {
            Ok(outcomes) => outcomes,
            Err(never) => match never {},
        }
    }

    /// [`run`](Self::run) on another [`Driver`]: a durable execution
    /// engine that journals each attempt, sleeps on its own timers and
    /// waits for the answers of parked calls. The turn's rules are the
    /// same.
    ///
    /// # Errors
    /// The driver's own error (the engine cancelled the turn), never a
    /// tool's failure.
    pub async fn run_on<D: Driver>(
        &self,
        driver: &D,
        turn: impl Into<Turn>,
    ) -> Result<Vec<CallOutcome>, D::Error> {
        let Turn {
            calls,
            answers,
            values,
            observer,
            cancellation,
        } = turn.into();
        let scope = Scope {
            observer,
            turn: values.map(Arc::new),
            toolbox: self.values.clone(),
        };
        let limit = if D::CONCURRENT { self.concurrency } else { 1 };
        // Calls past the limit wait for a place, in call order (the gate
        // is first come, first served).
        let gate = (calls.len() > limit).then(|| Semaphore::new(limit.min(Semaphore::MAX_PERMITS)));
        let turn = TurnRun {
            scope: &scope,
            cancellation: cancellation.as_ref(),
            gate: gate.as_ref(),
        };
        let answer = |index: usize| answers.get(index).and_then(Option::as_ref);
        let mut calls = calls.into_iter();
        // The turn of one call, the most common, awaits it in place; more
        // are joined (with one allocation for up to 30 calls).
        if calls.len() == 1
            && let Some(call) = calls.next()
        {
            return Ok(vec![self.outcome(driver, turn, call, answer(0)).await?]);
        }
        let outcomes = calls
            .enumerate()
            .map(|(index, call)| self.outcome(driver, turn, call, answer(index)));
        try_join_all(outcomes).await
    }

    /// One call of a turn and its answer: a cancelled call is answered as
    /// such, with the attempts it started.
    fn outcome<'a, D: Driver>(
        &'a self,
        driver: &'a D,
        turn: TurnRun<'a>,
        call: Call,
        answer: Option<&'a Answer>,
    ) -> impl Future<Output = Result<CallOutcome, D::Error>> + Send + 'a {
        async move {
            // Attempts started so far: what a cancelled call reports.
            let tried = AtomicU32::new(0);
            let (lowered, attempts, stop) = match turn.cancellation {
                // A turn that all runs at once, and that nothing cancels,
                // answers its calls with nothing around them.
                None if turn.gate.is_none() => {
                    self.answer(driver, turn, &call, answer, &tried).await?
                }
                None => self.gated(driver, turn, &call, answer, &tried).await?,
                Some(token) => tokio::select! {
                    biased;
                    () = token.cancelled() => (
                        cancelled_result(),
                        tried.load(Ordering::Relaxed),
                        StopReason::Cancelled,
                    ),
                    answered = self.gated(driver, turn, &call, answer, &tried) => answered?,
                },
            };
            Ok(CallOutcome {
                call,
                lowered,
                attempts,
                stop,
            })
        }
    }

    /// [`answer`](Self::answer), once the call has a place among those
    /// that run at once.
    fn gated<'a, D: Driver>(
        &'a self,
        driver: &'a D,
        turn: TurnRun<'a>,
        call: &'a Call,
        answer: Option<&'a Answer>,
        tried: &'a AtomicU32,
    ) -> impl Future<Output = Result<(Lowered, u32, StopReason), D::Error>> + Send + 'a {
        async move {
            let _place = match turn.gate {
                Some(gate) => gate.acquire().await.ok(),
                None => None,
            };
            self.answer(driver, turn, call, answer, tried).await
        }
    }

    /// One call, answered: looked up, attempted and retried as the policy
    /// says, each attempt a step of the driver; parked and resumed while
    /// the driver can wait for its answers.
    fn answer<'a, D: Driver>(
        &'a self,
        driver: &'a D,
        turn: TurnRun<'a>,
        call: &'a Call,
        answer: Option<&'a Answer>,
        tried: &'a AtomicU32,
    ) -> impl Future<Output = Result<(Lowered, u32, StopReason), D::Error>> + Send + 'a {
        let answering = self.answer_untraced(driver, turn, call, answer, tried);
        #[cfg(feature = "tracing")]
        let answering = super::span::traced(call, answering, |answered| match answered {
            Ok((lowered, _, _)) => Some(lowered),
            Err(_) => None,
        });
        answering
    }

    fn answer_untraced<'a, D: Driver>(
        &'a self,
        driver: &'a D,
        turn: TurnRun<'a>,
        call: &'a Call,
        answer: Option<&'a Answer>,
        tried: &'a AtomicU32,
    ) -> impl Future<Output = Result<(Lowered, u32, StopReason), D::Error>> + Send + 'a {
        async move {
            let registered = self.entry(&call.name);
            // The answer a durable driver resumed the call with.
            let mut resumed: Option<Box<Answer>> = None;
            let mut attempts: u32 = 0;
            let mut run: u32 = 0;
            loop {
                let mut attempt: u32 = 0;
                let (lowered, stop) = loop {
                    attempt = attempt.saturating_add(1);
                    if registered.is_some() {
                        tried.store(attempts.saturating_add(attempt), Ordering::Relaxed);
                    }
                    let answer = resumed.as_deref().or(answer);
                    let attempting = self.attempt(registered, call, answer, attempt, turn);
                    let Attempt { lowered, decision } =
                        driver.step(call, run, attempt, attempting).await?;
                    match decision {
                        Decision::Retry(delay) => {
                            // The failure's source is the tool's own error,
                            // whose `Drop` may panic.
                            drop_quietly(lowered);
                            driver.sleep(delay).await?;
                        }
                        Decision::Stop(stop) => break (lowered, stop),
                    }
                };
                // A call of a tool the toolbox does not have made no attempt.
                if registered.is_some() {
                    attempts = attempts.saturating_add(attempt);
                }
                let Some(request) = lowered.result.pending_request() else {
                    return Ok((lowered, attempts, stop));
                };
                let Some(answer) = driver.wait_for_answer(call, &request).await? else {
                    return Ok((lowered, attempts, stop));
                };
                drop_quietly(lowered);
                resumed = Some(Box::new(answer));
                run = run.saturating_add(1);
            }
        }
    }

    /// One attempt of a call, under its timeout, and what its retry policy
    /// says after it; a call of a tool the toolbox does not have is
    /// answered with [`UnknownTool`] and a decision to stop.
    fn attempt<'a>(
        &'a self,
        registered: Option<&'a Registered>,
        call: &'a Call,
        answer: Option<&'a Answer>,
        attempt: u32,
        turn: TurnRun<'a>,
    ) -> impl Future<Output = Attempt> + Send + 'a {
        async move {
            let Some(registered) = registered else {
                return Attempt::new(
                    self.unknown(&call.name),
                    Decision::Stop(StopReason::Permanent),
                );
            };
            let tool = &registered.tool;
            let timeout = registered.options.timeout.unwrap_or(self.timeout);
            let slot = OnceLock::new();
            let deadline = timeout.map(|limit| LazyDeadline::new(limit, now));
            let cx = CallContext::borrowed(
                &call.id,
                tool.name(),
                attempt,
                deadline.as_ref(),
                &slot,
                turn.cancellation,
                answer,
                turn.scope,
            );
            let lowered = if tool.blocks() {
                let call = off_executor(Arc::clone(tool), &call.arguments, &cx);
                within(deadline.as_ref(), tool.name(), &slot, call).await
            } else {
                match start(&**tool, &call.arguments, &cx) {
                    Ok(done) => done,
                    Err(running) => within(deadline.as_ref(), tool.name(), &slot, running).await,
                }
            };
            self.decided(registered, attempt, lowered)
        }
    }

    /// An attempt's answer and what its retry policy says after it; an
    /// answer to keep is cut to the tool's budget.
    fn decided(&self, registered: &Registered, attempt: u32, mut lowered: Lowered) -> Attempt {
        // Named here, inside the attempt, so that a journal keeps the id an
        // answer will be matched to.
        lowered.result.name_pending_request();
        let tool = &registered.tool;
        let policy = registered.options.retry.as_ref().unwrap_or(&self.retry);
        let decision = policy.decide_and_notify(tool.safety(), &lowered, attempt);
        if decision.is_retry() {
            return Attempt::new(lowered, decision);
        }
        let budget = registered.options.budget.as_ref().unwrap_or(&self.budget);
        if budget.fits(&lowered) {
            return Attempt::new(lowered, decision);
        }
        let schema = tool.output_schema();
        let schema = is_object_schema(schema).then(|| schema.as_value());
        Attempt::new(budget.apply(lowered, schema, &*self.artifacts), decision)
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

/// What every call of a running turn shares.
#[derive(Clone, Copy)]
struct TurnRun<'a> {
    scope: &'a Scope,
    cancellation: Option<&'a CancellationToken>,
    /// The places of a turn of more calls than may run at once.
    gate: Option<&'a Semaphore>,
}

/// Starts a call of `tool` in this task: its answer already (a synchronous
/// tool, or one that panicked starting), else the call to wait for, with
/// a panic in any poll caught.
#[inline]
fn start<'a>(
    tool: &'a dyn Tool,
    arguments: &Arguments,
    cx: &CallContext<'_>,
) -> Result<Lowered, impl Future<Output = Lowered> + Send + 'a> {
    let name = tool.name();
    match catch_unwind(AssertUnwindSafe(|| tool.call(arguments, cx).started())) {
        Ok(Ok(done)) => Ok(done),
        Ok(Err(running)) => Err(catch_future(name, running)),
        Err(payload) => Ok(ToolPanicked::caught(name, payload)),
    }
}

/// `call`, or the timed-out answer if it does not finish by its
/// `deadline` (its cancellation signal fired first). A call done at its
/// first poll needs no timer, so none is set, and no clock read, until it
/// waits.
fn within<'a, F>(
    deadline: Option<&'a LazyDeadline>,
    name: &'a str,
    cancellation: &'a OnceLock<CancellationToken>,
    mut call: F,
) -> impl Future<Output = Lowered> + Send + 'a
where
    F: Future<Output = Lowered> + Send + Unpin + 'a,
{
    async move {
        let Some(deadline) = deadline else {
            return (&mut call).await;
        };
        // Boxed: the timer of a call that waits is kept out of the future
        // of every call.
        let mut timer = None::<Pin<Box<tokio::time::Sleep>>>;
        std::future::poll_fn(|cx| {
            if let Poll::Ready(lowered) = Pin::new(&mut call).poll(cx) {
                return Poll::Ready(lowered);
            }
            let sleep = timer.get_or_insert_with(|| {
                Box::pin(match deadline.at() {
                    Some(at) => tokio::time::sleep_until(at.into()),
                    None => tokio::time::sleep(deadline.limit()),
                })
            });
            match sleep.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    if let Some(token) = cancellation.get() {
                        token.cancel();
                    }
                    Poll::Ready(timed_out(name, deadline.limit()))
                }
                Poll::Pending => Poll::Pending,
            }
        })
        .await
    }
}

/// The clock of a toolbox's deadlines: tokio's, which a test can pause.
fn now() -> Instant {
    tokio::time::Instant::now().into_std()
}

/// A blocking tool's call on tokio's blocking pool, with an owned copy of
/// its arguments and context (whose cancellation signal is the call's).
fn off_executor(
    tool: Arc<dyn Tool>,
    arguments: &Arguments,
    cx: &CallContext<'_>,
) -> impl Future<Output = Lowered> + Send + Unpin + 'static {
    let arguments = arguments.clone();
    let cx = cx.clone().into_owned();
    let name = tool.name().to_owned();
    let handle = tokio::runtime::Handle::current();
    let joined = tokio::task::spawn_blocking(move || match start(&*tool, &arguments, &cx) {
        Ok(done) => done,
        Err(running) => handle.block_on(running),
    });
    joined.map(move |joined| match joined {
        Ok(lowered) => lowered,
        Err(join) => match join.try_into_panic() {
            Ok(payload) => ToolPanicked::caught(&name, payload),
            Err(_) => cancelled_result(),
        },
    })
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
pub(crate) fn cancelled_result() -> Lowered {
    ToolResult::<(), ToolError>::fail(
        Failure::new(ToolError::new("the call was cancelled before it finished"))
            .with_source(Cancelled)
            .permanent(),
    )
    .lower()
}
