//! Running a turn: every call answered exactly once, in call order, by one
//! loop, whatever the driver.

// The futures of a turn are blocks that own what they are given: an
// `async fn` keeps a second copy of each argument in its future, and a
// call's future is moved into place once per call.
#![allow(clippy::manual_async_fn)]

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use futures_util::future::try_join_all;
use futures_util::stream::FuturesUnordered;
use futures_util::{FutureExt, StreamExt};
use tokio_util::sync::CancellationToken;

use super::approval::{self, Gate};
use super::driver::InProcess;
use super::turn::{Resumed, check_answer};
use super::{Attempt, CallOutcome, Driver, ResumeError, Toolbox, Turn, answers};
use crate::Lowered;
use crate::canonical::{Answer, Request};
use crate::provider::Call;
use crate::retry::{Decision, StopReason};
use crate::tool::{Observer, Scope, Values, drop_quietly};

impl Toolbox {
    /// The most times one call is resumed with an answer in one turn on a
    /// [`Driver`] that waits for answers. A call that parks again after
    /// that is answered with its pending request, resumable by a later
    /// turn, and says why in [`CallOutcome::not_resumed`].
    pub const MAX_RESUMES: u32 = 16;

    /// Runs the calls of one assistant turn and answers each exactly once,
    /// in call order, under its own id.
    ///
    /// `turn` is the calls, or a [`Turn`] of them with values for the
    /// tools, an observer, a cancellation token or answers of parked calls.
    /// Calls run at once (up to [`concurrency`](Self::concurrency); a call
    /// past the limit is not started, and holds no memory, until one ends),
    /// each attempt under its timeout; a failure is retried when the retry
    /// policy, reading the Rust channel and the tool's safety, says so; a
    /// panic, bad arguments or an unknown tool name is an error result the
    /// model can act on. A value of the turn, or its observer, whose `Drop`
    /// panics costs no outcome: the panic is swallowed. Needs a tokio
    /// runtime with its timer.
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
    /// same, and so is the check of each answer the driver gives back:
    /// one for another request is refused, and a call is resumed at most
    /// [`MAX_RESUMES`](Self::MAX_RESUMES) times (see
    /// [`CallOutcome::not_resumed`]).
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
            approved,
        } = turn.into();
        let approved = Mutex::new(approved);
        // The caller's values and observer are dropped with the turn: a
        // `Drop` of theirs that panics must not take the outcomes with it.
        let scope = QuietScope::of(self, values, observer);
        let turn = TurnRun {
            scope: &scope.0,
            cancellation: cancellation.as_ref(),
            approved: &approved,
        };
        let answer = |index: usize| answers.get(index).and_then(Option::as_ref);
        let limit = if D::CONCURRENT { self.concurrency } else { 1 }.max(1);
        let count = calls.len();
        let mut calls = calls.into_iter();
        // The turn of one call, the most common, awaits it in place.
        if count == 1
            && let Some(call) = calls.next()
        {
            return Ok(vec![self.outcome(driver, turn, call, answer(0)).await?]);
        }
        let outcomes = calls
            .enumerate()
            .map(|(index, call)| self.outcome(driver, turn, call, answer(index)));
        // A turn that all runs at once is joined (one allocation for up to
        // 30 calls); a longer one builds each call's future only once the
        // call has a place, so that its memory is bounded by the limit.
        if count <= limit {
            return try_join_all(outcomes).await;
        }
        let waiting = outcomes
            .enumerate()
            .map(|(index, outcome)| placed(index, outcome));
        in_order(
            FuturesUnordered::new(),
            waiting,
            BTreeMap::new(),
            limit,
            count,
        )
        .await
    }

    /// One call of a turn and its answer: a cancelled call is answered as
    /// such, with the attempts it started.
    pub(super) fn outcome<'a, D: Driver>(
        &'a self,
        driver: &'a D,
        turn: TurnRun<'a>,
        call: Call,
        resumed: Option<&'a Resumed>,
    ) -> impl Future<Output = Result<CallOutcome, D::Error>> + Send + 'a {
        async move {
            // Attempts started so far: what a cancelled call reports.
            let tried = AtomicU32::new(0);
            let run = CallRun {
                toolbox: self,
                driver,
                turn,
                call: &call,
                answer: resumed.map(|resumed| &resumed.answer),
                parked: resumed.map(|resumed| &resumed.request),
                tried: &tried,
            };
            let ended = match turn.cancellation {
                None => run.answer().await?,
                Some(token) => tokio::select! {
                    biased;
                    () = token.cancelled() => Ended {
                        lowered: answers::cancelled(),
                        attempts: tried.load(Ordering::Relaxed),
                        stop: StopReason::Cancelled,
                        not_resumed: None,
                    },
                    answered = run.answer() => answered?,
                },
            };
            Ok(CallOutcome {
                call,
                lowered: ended.lowered,
                attempts: ended.attempts,
                stop: ended.stop,
                not_resumed: ended.not_resumed,
            })
        }
    }
}

/// A call's outcome with its place in the turn.
pub(super) fn placed<F: Future>(
    index: usize,
    outcome: F,
) -> impl Future<Output = (usize, F::Output)> {
    outcome.map(move |answered| (index, answered))
}

/// The outcomes of a turn's `count` calls, in call order: those `running`
/// and those `done` already, then the `waiting` ones, each started once
/// fewer than `limit` run.
pub(super) async fn in_order<F, E>(
    mut running: FuturesUnordered<F>,
    mut waiting: impl Iterator<Item = F>,
    // Outcomes that came before an earlier call's, by their place.
    mut early: BTreeMap<usize, CallOutcome>,
    limit: usize,
    count: usize,
) -> Result<Vec<CallOutcome>, E>
where
    F: Future<Output = (usize, Result<CallOutcome, E>)>,
{
    let mut ordered = Vec::with_capacity(count);
    while let Some(next) = early.remove(&ordered.len()) {
        ordered.push(next);
    }
    loop {
        while running.len() < limit
            && let Some(outcome) = waiting.next()
        {
            running.push(outcome);
        }
        let Some((index, answered)) = running.next().await else {
            break;
        };
        let outcome = answered?;
        if index != ordered.len() {
            early.insert(index, outcome);
            continue;
        }
        ordered.push(outcome);
        while let Some(next) = early.remove(&ordered.len()) {
            ordered.push(next);
        }
    }
    Ok(ordered)
}

/// What every call of a running turn shares.
#[derive(Clone, Copy)]
pub(super) struct TurnRun<'a> {
    pub(super) scope: &'a Scope,
    pub(super) cancellation: Option<&'a CancellationToken>,
    /// The tools whose calls need no approval for the rest of the turn.
    pub(super) approved: &'a Mutex<Vec<String>>,
}

/// One call of a running turn, and all that answering it reads.
pub(super) struct CallRun<'a, D> {
    pub(super) toolbox: &'a Toolbox,
    pub(super) driver: &'a D,
    pub(super) turn: TurnRun<'a>,
    pub(super) call: &'a Call,
    /// The answer the turn resumes the call with.
    pub(super) answer: Option<&'a Answer>,
    /// The request that answer is for: what the call stays parked on when
    /// the answer is refused.
    pub(super) parked: Option<&'a Request>,
    /// Attempts started so far, read by a cancellation.
    pub(super) tried: &'a AtomicU32,
}

/// How a call ended, its call aside.
pub(super) struct Ended {
    pub(super) lowered: Lowered,
    pub(super) attempts: u32,
    pub(super) stop: StopReason,
    pub(super) not_resumed: Option<Box<ResumeError>>,
}

impl<D: Driver> CallRun<'_, D> {
    /// The call, answered: looked up, attempted and retried as the policy
    /// says, each attempt a step of the driver; parked and resumed while
    /// the driver gives back answers that match, up to the limit.
    fn answer(&self) -> impl Future<Output = Result<Ended, D::Error>> + Send + '_ {
        let answering = self.answer_untraced();
        #[cfg(feature = "tracing")]
        let answering = super::span::traced(self.call, answering, |answered| match answered {
            Ok(ended) => Some(&ended.lowered),
            Err(_) => None,
        });
        answering
    }

    fn answer_untraced(&self) -> impl Future<Output = Result<Ended, D::Error>> + Send + '_ {
        async move {
            let (call, driver) = (self.call, self.driver);
            let registered = self.toolbox.entry(&call.name);
            // A call that needs approval is parked before its body runs.
            let (mut given, mut arguments) = (self.answer, None);
            if let Some(registered) = registered
                && !registered.options.approval.is_never()
            {
                match self.approve(registered).await? {
                    Gate::Answered(ended) => return Ok(ended),
                    Gate::Run { consumed, edited } => {
                        if consumed {
                            given = None;
                        }
                        arguments = edited;
                    }
                }
            }
            // The turn's answer to the body's own request is checked (its
            // seal) before the body runs again; refused, the call stays
            // parked on the request.
            if let (Some(answer), Some(parked)) = (given, self.parked)
                && let Err(refused) = self.toolbox.sealing.open(call, answer)
            {
                let lowered = approval::pending(parked);
                return Ok(approval::ended(
                    lowered,
                    StopReason::Suspended,
                    Some(Box::new(refused)),
                ));
            }
            let arguments = arguments.as_ref().unwrap_or(&call.arguments);
            // The answer the driver resumed the call with.
            let mut resumed: Option<Box<Answer>> = None;
            let mut attempts: u32 = 0;
            let mut run: u32 = 0;
            loop {
                let mut attempt: u32 = 0;
                let (lowered, stop) = loop {
                    attempt = attempt.saturating_add(1);
                    if registered.is_some() {
                        let tried = attempts.saturating_add(attempt);
                        self.tried.store(tried, Ordering::Relaxed);
                    }
                    let answer = resumed.as_deref().or(given);
                    let attempting = self.attempt(registered, arguments, answer, attempt);
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
                let mut ended = Ended {
                    lowered,
                    attempts,
                    stop,
                    not_resumed: None,
                };
                let Some(request) = ended.lowered.result.pending_request() else {
                    return Ok(ended);
                };
                if run >= Toolbox::MAX_RESUMES {
                    ended.not_resumed = Some(Box::new(ResumeError::TooManyResumes {
                        limit: Toolbox::MAX_RESUMES,
                    }));
                    return Ok(ended);
                }
                let Some(answer) = driver.wait_for_answer(call, &request).await? else {
                    return Ok(ended);
                };
                let checked = check_answer(&request, &answer)
                    .and_then(|()| self.toolbox.sealing.open(call, &answer));
                if let Err(refused) = checked {
                    ended.not_resumed = Some(Box::new(refused));
                    return Ok(ended);
                }
                drop_quietly(ended);
                resumed = Some(Box::new(answer));
                run = run.saturating_add(1);
            }
        }
    }
}

/// The scope of a turn, dropped quietly: a panic in the `Drop` of a value
/// or an observer the caller gave is swallowed.
pub(super) struct QuietScope(pub(super) Scope);

impl QuietScope {
    /// The scope of a turn of `toolbox` given `values` and `observer`.
    pub(super) fn of(
        toolbox: &Toolbox,
        values: Option<Values>,
        observer: Option<Observer>,
    ) -> Self {
        Self(Scope {
            observer,
            turn: values.map(Arc::new),
            toolbox: toolbox.values.clone(),
        })
    }
}

impl Drop for QuietScope {
    fn drop(&mut self) {
        // One by one: a second panic while the first unwinds would abort.
        // The toolbox's values outlive the turn: the toolbox holds them.
        if let Some(observer) = self.0.observer.take() {
            drop_quietly(observer);
        }
        if let Some(values) = self.0.turn.take() {
            drop_quietly(values);
        }
    }
}
