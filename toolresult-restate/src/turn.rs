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
use toolresult::toolbox::Toolbox;

use crate::journal::{JournaledAttempt, JournaledDecision};
use crate::{DurableOutcome, Parked};

/// Runs the calls of one assistant turn inside a Restate handler, every
/// call answered exactly once, in call order, under its own id.
///
/// Each call is answered as [`Toolbox::run`] answers it (its tool looked
/// up, run under its timeout, a panic or bad arguments answered, retried
/// as the toolbox's [`RetryPolicy`](toolresult::retry::RetryPolicy)
/// says), with Restate keeping the state:
///
/// - **each attempt is a journaled step** (`ctx.run`, named
///   `call <id> attempt <n>`, or `call <id> run <r> attempt <n>` for a run
///   resumed with an answer): its canonical result, a
///   [`ChannelSummary`](crate::ChannelSummary) of its Rust channel (never
///   the source's text) and the policy's decision, jitter included. After
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
///   for days if need be) until the awakeable is resolved with an
///   [`Answer`] whose `id` is the request's `id`; then the call runs again
///   with that answer (its tool reads it with
///   [`toolbox::answer`](toolresult::toolbox::answer())), with attempts
///   counted afresh, and that run's result answers the call. A body that
///   is not an `Answer`, or an answer to another request, does not resume
///   the call: the request is sent again with a new awakeable.
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
/// the reply with the tool results (`examples/durable_agent.rs` in this
/// crate is the whole program):
///
/// ```no_run
/// use restate_sdk::prelude::*;
/// use toolresult::provider::{Anthropic, PartPolicy, Provider};
/// use toolresult::toolbox::Toolbox;
/// use toolresult_restate::{run_turn, Parked};
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
///         let outcomes = run_turn(&ctx, &self.toolbox, calls, |parked: Parked| async move {
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
    calls: impl IntoIterator<Item = Call>,
    notify: N,
) -> Result<Vec<DurableOutcome>, TerminalError>
where
    N: Fn(Parked) -> F + Sync,
    F: Future<Output = Result<(), HandlerError>> + Send,
{
    let mut outcomes = Vec::new();
    for call in calls {
        outcomes.push(answer_call(ctx, toolbox, call, &notify).await?);
    }
    Ok(outcomes)
}

/// One call, answered: attempted and retried, parked and resumed until a
/// run of it stops on a result that is not a suspension.
async fn answer_call<N, F>(
    ctx: &Context<'_>,
    toolbox: &Toolbox,
    call: Call,
    notify: &N,
) -> Result<DurableOutcome, TerminalError>
where
    N: Fn(Parked) -> F + Sync,
    F: Future<Output = Result<(), HandlerError>> + Send,
{
    // A call of a tool the toolbox does not have is answered without
    // calling anything.
    let calls_a_tool = toolbox.get(&call.name).is_some();
    let mut attempts: u32 = 0;
    let mut answer: Option<Answer> = None;
    let mut run: u32 = 0;
    loop {
        let (last, stop, made) =
            attempt_until_stopped(ctx, toolbox, &call, answer.take(), run).await?;
        if calls_a_tool {
            attempts = attempts.saturating_add(made);
        }
        let JournaledAttempt {
            result,
            structured,
            channel,
            ..
        } = last;
        match result.pending_request() {
            Some(request) => {
                answer = Some(wait_for_answer(ctx, &call, request, notify).await?);
                run = run.saturating_add(1);
            }
            None => {
                return Ok(DurableOutcome {
                    call,
                    result,
                    channel,
                    stop,
                    attempts,
                    structured,
                });
            }
        }
    }
}

/// Attempts of one run of a call, each a journaled step, with a durable
/// timer between them, until the policy stops: the last attempt, why the
/// policy stopped, and how many attempts were made.
async fn attempt_until_stopped(
    ctx: &Context<'_>,
    toolbox: &Toolbox,
    call: &Call,
    answer: Option<Answer>,
    run: u32,
) -> Result<(JournaledAttempt, String, u32), TerminalError> {
    let mut attempt: u32 = 0;
    loop {
        attempt = attempt.saturating_add(1);
        let name = if run == 0 {
            format!("call {} attempt {attempt}", call.id)
        } else {
            format!("call {} run {run} attempt {attempt}", call.id)
        };
        let answer = answer.clone();
        let Json(journaled) = ctx
            .run(|| async move {
                let attempted = toolbox.attempt(call, answer, attempt).await;
                Ok(Json(JournaledAttempt::from(attempted)))
            })
            .name(name)
            .retry_policy(RunRetryPolicy::new().max_attempts(1))
            .await?;
        match &journaled.decision {
            JournaledDecision::Retry { delay_ms } => {
                ctx.sleep(Duration::from_millis(*delay_ms)).await?;
            }
            JournaledDecision::Stop { reason } => {
                let reason = reason.clone();
                return Ok((journaled, reason, attempt));
            }
        }
    }
}

/// The answer to a parked call: the request, with a new awakeable's id,
/// sent once through `notify`, then the awakeable awaited, until it is
/// resolved with an answer to this request.
async fn wait_for_answer<N, F>(
    ctx: &Context<'_>,
    call: &Call,
    request: Request,
    notify: &N,
) -> Result<Answer, TerminalError>
where
    N: Fn(Parked) -> F + Sync,
    F: Future<Output = Result<(), HandlerError>> + Send,
{
    loop {
        // Read as bytes: a body that is not an `Answer` asks again, where
        // reading it as one would fail the invocation over and over.
        let (awakeable, answered) = ctx.awakeable::<Vec<u8>>();
        let parked = Parked::new(call.clone(), request.clone(), awakeable);
        ctx.run(|| notify(parked))
            .name(format!("call {} notify", call.id))
            .await?;
        let body = answered.await?;
        if let Ok(answer) = serde_json::from_slice::<Answer>(&body)
            && answer.answers(&request)
        {
            return Ok(answer);
        }
    }
}
