//! `Driver`: where a turn's attempts run and its waits happen.

use std::convert::Infallible;
use std::future::Future;
use std::time::Duration;

use futures_util::FutureExt;

use super::Attempt;
use crate::canonical::{Answer, Request};
use crate::provider::Call;

/// Where a turn's attempts run and its waits happen: in this process (what
/// [`Toolbox::run`](super::Toolbox::run) uses), or on a durable execution
/// engine that keeps each attempt in a journal, waits out a retry's delay
/// on a timer of its own and parks a call until its answer comes from
/// anywhere (the `toolresult-restate` crate fills it in for Restate).
///
/// The turn's rules live in the toolbox, once, whatever the driver: each
/// call looked up, attempted under its timeout, retried as the policy
/// says, a parked call resumed with its answer, every call answered once,
/// in call order. A driver only says how a step is kept, how a delay is
/// waited, and whether a parked call can wait for its answer.
///
/// ```
/// use std::convert::Infallible;
/// use std::sync::Mutex;
/// use toolresult::canonical::{Answer, Request};
/// use toolresult::provider::Call;
/// use toolresult::tool::{self, Arguments};
/// use toolresult::toolbox::{Attempt, Driver, Toolbox};
///
/// /// Keeps every attempt's journal entry, as a durable engine would; its
/// /// delays are the provided tokio timers.
/// #[derive(Default)]
/// struct Journal(Mutex<Vec<String>>);
///
/// impl Driver for Journal {
///     type Error = Infallible;
///     async fn step(&self, call: &Call, run: u32, attempt: u32, attempting: impl Future<Output = Attempt> + Send) -> Result<Attempt, Infallible> {
///         let done = attempting.await;
///         self.0.lock().unwrap().push(format!("{} {run}/{attempt}: {}", call.id, serde_json::to_string(&done).unwrap()));
///         Ok(done)
///     }
///     async fn wait_for_answer(&self, _: &Call, _: &Request) -> Result<Option<Answer>, Infallible> {
///         Ok(None)
///     }
/// }
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
/// let mut toolbox = Toolbox::new();
/// toolbox.register(tool::function("now", "The time", |_: NoArgs| "noon")?)?;
/// let journal = Journal::default();
/// let outcomes = toolbox
///     .run_on(&journal, [Call::new("c1", "now", Arguments::Json(serde_json::json!({})))])
///     .await?;
/// assert_eq!(outcomes[0].lowered.result.output, "noon");
/// assert_eq!(
///     journal.0.lock().unwrap()[0],
///     r#"c1 0/1: {"result":{"output":"noon","isError":false},"structured":false,"channel":{},"decision":{"stop":{"reason":"succeeded"}}}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Driver: Sync {
    /// What stops a turn on this driver (a durable engine's own
    /// cancellation); a tool's failure is never one.
    type Error;

    /// Whether the calls of a turn may run at once (up to the toolbox's
    /// [`concurrency`](super::Toolbox::concurrency)); a journal that must
    /// see its steps one after another says no.
    const CONCURRENT: bool = true;

    /// Runs one attempt of `call` (`attempting`, which runs the tool under
    /// its timeout and asks the policy), and gives it back: in process as
    /// it is; a durable engine journals it (its serialised form holds no
    /// source error) and reads it back after a restart instead of running
    /// the tool again. `run` counts the call's runs resumed with an answer
    /// (0 for its first), `attempt` its attempts in this run, from 1.
    ///
    /// Provided: the attempt as it is, kept nowhere (in process).
    fn step(
        &self,
        call: &Call,
        run: u32,
        attempt: u32,
        attempting: impl Future<Output = Attempt> + Send,
    ) -> impl Future<Output = Result<Attempt, Self::Error>> + Send {
        let _ = (call, run, attempt);
        // The attempt itself, not a future around a second copy of it.
        attempting.map(Ok)
    }

    /// Waits `delay` before a retry: a timer in process, a durable timer on
    /// an engine.
    ///
    /// Provided: a tokio timer (in process).
    fn sleep(&self, delay: Duration) -> impl Future<Output = Result<(), Self::Error>> + Send {
        tokio::time::sleep(delay).map(Ok)
    }

    /// A call parked on `request`: the [`Answer`] to run it again with,
    /// once it comes; `None` to answer the call with the pending request
    /// (in process, where the turn ends and a later turn resumes it).
    fn wait_for_answer(
        &self,
        call: &Call,
        request: &Request,
    ) -> impl Future<Output = Result<Option<Answer>, Self::Error>> + Send;
}

/// The in-process driver: attempts run as they are and delays are tokio
/// timers (the provided [`Driver::step`] and [`Driver::sleep`]), a parked
/// call answers with its request.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct InProcess;

impl Driver for InProcess {
    type Error = Infallible;

    async fn wait_for_answer(&self, _: &Call, _: &Request) -> Result<Option<Answer>, Infallible> {
        Ok(None)
    }
}
