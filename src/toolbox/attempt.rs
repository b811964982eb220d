//! One attempt of a call: its tool run under its timeout, a panic caught,
//! and what the retry policy says after it.

// The futures of a turn are blocks that own what they are given: an
// `async fn` keeps a second copy of each argument in its future.
#![allow(clippy::manual_async_fn)]

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::Poll;
use std::time::Instant;

use futures_util::FutureExt;
use tokio_util::sync::CancellationToken;

use super::registry::Registered;
use super::run::CallRun;
use super::{Attempt, Driver, answers};
use crate::Lowered;
use crate::canonical::Answer;
use crate::retry::{Decision, StopReason};
use crate::tool::{
    Arguments, CallContext, LazyDeadline, Tool, ToolPanicked, catch_future, is_object_schema,
};

impl<D: Driver> CallRun<'_, D> {
    /// Attempt number `attempt` of the call with `arguments` (the model's,
    /// or a person's edit of them), with `answer` if the call
    /// resumes, under its timeout, and what its retry policy says after
    /// it; a call of a tool the toolbox does not have is answered with
    /// [`UnknownTool`](super::UnknownTool) and a decision to stop.
    pub(super) fn attempt<'a>(
        &'a self,
        registered: Option<&'a Registered>,
        arguments: &'a Arguments,
        answer: Option<&'a Answer>,
        attempt: u32,
    ) -> impl Future<Output = Attempt> + Send + 'a {
        async move {
            let toolbox = self.toolbox;
            let Some(registered) = registered else {
                let unknown = answers::unknown_tool(&self.call.name, toolbox.names());
                return Attempt::new(unknown, Decision::Stop(StopReason::Permanent));
            };
            let tool = &registered.tool;
            let timeout = registered.options.timeout.unwrap_or(toolbox.timeout);
            let slot = OnceLock::new();
            let deadline = timeout.map(|limit| LazyDeadline::new(limit, now));
            let cx = CallContext::borrowed(
                &self.call.id,
                tool.name(),
                attempt,
                deadline.as_ref(),
                &slot,
                self.turn.cancellation,
                answer,
                self.turn.scope,
            );
            let lowered = if tool.blocks() {
                let call = off_executor(Arc::clone(tool), arguments, &cx);
                within(deadline.as_ref(), tool.name(), &slot, call).await
            } else {
                match start(&**tool, arguments, &cx) {
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
        // Named and sealed here, inside the attempt, so that a journal
        // keeps the id and the seal an answer will be matched to; here,
        // once for every tool, so that no request a body makes goes out
        // unsealed.
        lowered.result.name_pending_request();
        let toolbox = self.toolbox;
        toolbox.sealing.seal_pending(self.call, &mut lowered.result);
        let tool = &registered.tool;
        let policy = registered.options.retry.as_ref().unwrap_or(&toolbox.retry);
        let decision = policy.decide(tool.safety(), &lowered, attempt);
        if decision.is_retry() {
            return Attempt::new(lowered, decision);
        }
        let budget = registered
            .options
            .budget
            .as_ref()
            .unwrap_or(&toolbox.budget);
        if budget.fits(&lowered) {
            return Attempt::new(lowered, decision);
        }
        let schema = tool.output_schema();
        let schema = is_object_schema(schema).then(|| schema.as_value());
        Attempt::new(budget.apply(lowered, schema, &*toolbox.artifacts), decision)
    }
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
                    Poll::Ready(answers::timed_out(name, deadline.limit()))
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
            Err(_) => answers::cancelled(),
        },
    })
}
