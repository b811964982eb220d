//! `run_turn`: a turn of tool calls inside a Restate handler, each attempt
//! journaled.

use std::future::Future;
use std::time::Duration;

use restate_sdk::prelude::{
    Context, ContextAwakeables, ContextSideEffects, ContextTimers, HandlerError, Json, RunFuture,
    RunRetryPolicy, TerminalError,
};
use toolresult::canonical::{Answer, Request};
use toolresult::provider::Call;
use toolresult::toolbox::{Attempt, CallOutcome, Driver, Toolbox, Turn};

use crate::Parked;

/// Runs one assistant turn inside a Restate handler, every call answered
/// exactly once, in call order, under its own id.
///
/// `turn` is what [`Toolbox::run`] takes: the calls, or a [`Turn`] of them
/// with values for the tools, an observer of their progress and logs, a
/// cancellation token, and the answers of parked calls resumed. Each call
/// is answered by the toolbox's own turn loop, as [`Toolbox::run`] answers
/// it (its tool looked up, run under its timeout, a panic or bad arguments
/// answered, retried as the toolbox's
/// [`RetryPolicy`](toolresult::retry::RetryPolicy) says): this crate is the
/// toolbox's [`Driver`](toolresult::toolbox::Driver) on Restate, which
/// keeps the state:
///
/// - **each attempt is a journaled step** (`ctx.run`, named
///   `call <id> attempt <n>`, or `call <id> run <r> attempt <n>` for a run
///   resumed with an answer): the toolbox's
///   [`Attempt`](toolresult::toolbox::Attempt) as JSON, its canonical
///   result, a summary of its Rust channel (never the source's text) and
///   the policy's decision, jitter included; a call that needs a person's
///   approval ([`Approval`](toolresult::tool::Approval)) is parked in a
///   step named `call <id> approval`, before its body runs. After
///   a crash or a replay a journaled attempt is read back, never run again;
///   an attempt the process died in runs again. Restate does not retry a
///   step itself: a failure is the step's value, and retrying is the
///   policy's;
/// - **the delay before a retry is a durable timer** (`ctx.sleep`): a
///   retry-after of an hour survives a restart, and the handler is
///   suspended meanwhile;
/// - **a permanent failure, or retries run out, answers the call** with the
///   model-facing error result: the handler goes on, the model reads it;
/// - **a pending [`Request`] is a Restate awakeable**: the request, with
///   the awakeable id in its `data` under
///   [`AWAKEABLE_KEY`](crate::AWAKEABLE_KEY), goes to `notify` as a
///   [`Parked`] call, in a journaled step of its own (named
///   `call <id> notify`) so it is sent once. The turn waits (suspended,
///   for days if need be) until the awakeable is resolved; the
///   [`Answer`] it is resolved with goes to the toolbox, which decides, as
///   for any driver, whether it resumes the call. A body that is not an
///   `Answer` answers the call with its pending request. An approval's
///   decision is the awakeable's value, journaled: after a crash the body
///   of an approved call runs once, with the decision read back, and a
///   toolbox that seals requests
///   ([`Toolbox::seal_requests`](toolresult::toolbox::Toolbox::seal_requests))
///   refuses an answer, to an approval or to a body's own request, without
///   the request's seal (`data.seal`, which the awakeable's resolver
///   copies into the answer's `data`:
///   [`Answer::with_seal_of`](toolresult::canonical::Answer::with_seal_of)),
///   for another call, or made up by whoever can reach Restate's ingress.
///
/// What the turn carries besides its calls is the handler's, not the
/// journal's: its values are attached again each time Restate runs the
/// handler (attach the same ones, or tools read back from the journal and
/// tools run afresh see different ones); the observer hears the attempts
/// this process runs, not those read back from the journal; a cancelled
/// turn drops the calls still running and answers them, and those not
/// started, as cancelled, as [`Toolbox::run`] does (an attempt it drops
/// leaves no result in the journal, so it runs again if Restate runs the
/// handler again before it returns). Restate's own cancellation of the
/// invocation is not the turn's: it ends the turn with Restate's terminal
/// error.
///
/// The calls run one after another: journaled steps of one handler do not
/// run concurrently.
///
/// A `notify` that fails (its future's `Err`) is retried by Restate as it
/// retries a failed step of the service: with the invocation's retry
/// policy, after which Restate pauses or kills the invocation.
///
/// # Errors
/// Only Restate's terminal errors: the invocation was cancelled (while it
/// slept or waited for an answer), or the awakeable was rejected instead
/// of resolved. A tool's failure is never an error here. Propagate it with
/// `?`.
///
/// # Example
/// A service whose handler takes an Anthropic assistant message and returns
/// the reply with the tool results, its tools reading the tenant the
/// invocation was sent for (an `x-tenant` header, which Restate keeps with
/// the invocation, so every run of the handler attaches the same one;
/// `examples/durable_agent.rs` in this crate is a whole program):
///
/// ```no_run
/// use restate_sdk::prelude::*;
/// use toolresult::provider::{Anthropic, PartPolicy, Provider};
/// use toolresult::tool::CallEvent;
/// use toolresult::toolbox::{Toolbox, Turn};
/// use toolresult_restate::{run_turn, Parked};
///
/// /// Read by the tools with `cx.get::<Tenant>()`.
/// #[derive(Clone)]
/// struct Tenant(String);
///
/// struct Agent {
///     toolbox: Toolbox,
/// }
///
/// #[restate_sdk::service]
/// impl Agent {
///     #[handler]
///     async fn turn(
///         &self,
///         ctx: Context<'_>,
///         Json(message): Json<serde_json::Value>,
///     ) -> HandlerResult<Json<serde_json::Value>> {
///         let calls = Anthropic::read_calls(&message.to_string()).map_err(TerminalError::from_error)?;
///         let tenant = ctx.headers().get("x-tenant").map_or("public", String::as_str).to_owned();
///         let turn = Turn::new(calls)
///             .with_value(Tenant(tenant))
///             .with_observer(|event: &CallEvent<'_>| println!("{event:?}"));
///         let outcomes = run_turn(&ctx, &self.toolbox, turn, |parked: Parked| async move {
///             // Send the request to whoever answers it, with its awakeable id.
///             println!("{}: resolve awakeable {}", parked.request.prompt, parked.awakeable_id());
///             Ok::<_, HandlerError>(())
///         })
///         .await?;
///         let reply = Anthropic::reply(&outcomes, PartPolicy::Placeholder).map_err(TerminalError::from_error)?;
///         Ok(Json(serde_json::to_value(reply)?))
///     }
/// }
///
/// # async fn serve() {
/// HttpServer::new(Endpoint::builder().bind(Agent { toolbox: Toolbox::new() }).build())
///     .listen_and_serve("127.0.0.1:9080".parse().unwrap())
///     .await;
/// # }
/// ```
pub async fn run_turn<N, F>(
    ctx: &Context<'_>,
    toolbox: &Toolbox,
    turn: impl Into<Turn>,
    notify: N,
) -> Result<Vec<CallOutcome>, TerminalError>
where
    N: Fn(Parked) -> F + Sync,
    F: Future<Output = Result<(), HandlerError>> + Send,
{
    toolbox.run_on(&Restate { ctx, notify }, turn).await
}

/// The toolbox's [`Driver`] on a Restate handler's context: each attempt a
/// journaled step, each delay a durable timer, each parked call an
/// awakeable. The turn's rules are the toolbox's own.
struct Restate<'a, 'ctx, N> {
    ctx: &'a Context<'ctx>,
    notify: N,
}

impl<N, F> Driver for Restate<'_, '_, N>
where
    N: Fn(Parked) -> F + Sync,
    F: Future<Output = Result<(), HandlerError>> + Send,
{
    type Error = TerminalError;

    /// Journaled steps of one handler do not run at once.
    const CONCURRENT: bool = false;

    async fn step(
        &self,
        call: &Call,
        run: u32,
        attempt: u32,
        attempting: impl Future<Output = Attempt> + Send,
    ) -> Result<Attempt, TerminalError> {
        let name = match (run, attempt) {
            // The toolbox parking a call for a person's approval.
            (0, 0) => format!("call {} approval", call.id),
            (0, _) => format!("call {} attempt {attempt}", call.id),
            _ => format!("call {} run {run} attempt {attempt}", call.id),
        };
        // Restate does not retry the step itself: a failure is the
        // step's value, and retrying is the policy's.
        let Json(attempt) = self
            .ctx
            .run(|| async move { Ok(Json(attempting.await)) })
            .name(name)
            .retry_policy(RunRetryPolicy::new().max_attempts(1))
            .await?;
        Ok(attempt)
    }

    async fn sleep(&self, delay: Duration) -> Result<(), TerminalError> {
        self.ctx.sleep(delay).await
    }

    /// The request, with a new awakeable's id, sent once through `notify`,
    /// then the awakeable awaited: the answer it is resolved with, which
    /// the toolbox checks against the request as it checks any driver's.
    async fn wait_for_answer(
        &self,
        call: &Call,
        request: &Request,
    ) -> Result<Option<Answer>, TerminalError> {
        // Read as bytes: a body that is not an `Answer` leaves the call
        // pending, where reading it as one would fail the invocation on
        // every replay.
        let (awakeable, answered) = self.ctx.awakeable::<Vec<u8>>();
        let parked = Parked::new(call.clone(), request.clone(), awakeable);
        self.ctx
            .run(|| (self.notify)(parked))
            .name(format!("call {} notify", call.id))
            .await?;
        let body = answered.await?;
        Ok(serde_json::from_slice::<Answer>(&body).ok())
    }
}
