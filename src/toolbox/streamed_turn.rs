//! A turn run from a provider's stream: a call whose tool allows it starts
//! as soon as it is whole, the rest when the message ends, every call
//! answered by the loop of [`run`](super::Toolbox::run).

use std::collections::{BTreeMap, BTreeSet};
use std::pin::pin;

use futures_util::stream::FuturesUnordered;
use futures_util::{Stream, StreamExt};
use tokio_util::sync::CancellationToken;

use super::driver::InProcess;
use super::run::{QuietScope, TurnRun, in_order, placed};
use super::{CallOutcome, Toolbox, Turn};
use crate::provider::stream::Dialect;
use crate::provider::{CallStream, ReadCallsError, StreamEnd, Streamed};

impl Toolbox {
    /// Runs the calls of an assistant message as its provider streams it:
    /// `events` are the server-sent events' `data`, as the HTTP client
    /// yields them, read by a [`CallStream`] of the provider `P`. A call
    /// whose tool [starts early](Self::start_early) (only a tool whose
    /// repeat is harmless) starts as soon as it is whole, while the model
    /// still writes the next one; the others start when the message ends.
    /// Every call is answered exactly once, in call order, under its id,
    /// by the same rules as [`run`](Self::run) (timeouts, retries,
    /// [`concurrency`](Self::concurrency), which early calls count
    /// against too).
    ///
    /// `turn` gives the tools their values, observer and cancellation (a
    /// cancelled turn cancels the calls already running and answers every
    /// call as cancelled); calls of its own (resumed ones) are answered
    /// first, started when the message ends.
    ///
    /// Gives the outcomes, for the provider's `reply`, and the message
    /// ([`Streamed`]), for the transcript. A message that did not finish
    /// ([`StreamEnd`] other than `Finished`: cut at the output limit,
    /// filtered, an error, the events over before its finish) runs no
    /// call: the calls started early are cancelled (their cancellation
    /// signal fires and their futures are dropped), none answers, the
    /// outcomes are empty and [`Streamed::end`] says why. An HTTP error
    /// mid-stream is such an end: stop yielding events.
    ///
    /// ```
    /// use futures_util::stream;
    /// use toolresult::provider::{Anthropic, PartPolicy, Provider};
    /// use toolresult::tool::{self, ToolSafety};
    /// use toolresult::toolbox::{Toolbox, Turn};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct City { city: String }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
    /// let mut toolbox = Toolbox::new().start_early(true);
    /// toolbox.register(
    ///     tool::function("weather", "Weather in a city", |c: City| format!("sunny in {}", c.city))?
    ///         .with_safety(ToolSafety::ReadOnly),
    /// )?;
    /// let events = stream::iter([
    ///     r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"weather","input":{}}}"#,
    ///     r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\":\"Oslo\"}"}}"#,
    ///     r#"{"type":"content_block_stop","index":0}"#,
    ///     r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"}}"#,
    /// ]);
    /// let (outcomes, message) = toolbox.run_stream::<Anthropic>(Turn::default(), events).await?;
    /// assert_eq!(outcomes[0].call.id, "toolu_1");
    /// assert_eq!(outcomes[0].lowered.result.output, "sunny in Oslo");
    /// let reply = Anthropic::reply(&outcomes, PartPolicy::Placeholder)?;
    /// assert_eq!(serde_json::to_value(&reply)?["content"][0]["tool_use_id"], "toolu_1");
    /// assert_eq!(message.calls().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The stream's first [`ReadCallsError`] (an event not JSON or not the
    /// provider's, a malformed call): the calls started early are
    /// cancelled and none answers.
    pub async fn run_stream<P: Dialect>(
        &self,
        turn: impl Into<Turn>,
        events: impl Stream<Item = impl AsRef<str>>,
    ) -> Result<(Vec<CallOutcome>, Streamed<P>), ReadCallsError> {
        let Turn {
            calls: own,
            answers,
            values,
            observer,
            cancellation,
            approved,
        } = turn.into();
        let approved = std::sync::Mutex::new(approved);
        let scope = QuietScope::of(self, values, observer);
        // The calls' own token: the caller's cancels it, and so does a
        // message that does not finish, reaching the calls started early.
        let token = cancellation
            .as_ref()
            .map_or_else(CancellationToken::new, CancellationToken::child_token);
        let cancel_on_drop = token.clone().drop_guard();
        let turn = TurnRun {
            scope: &scope.0,
            cancellation: Some(&token),
            approved: &approved,
        };
        let driver = InProcess;
        let limit = self.concurrency.max(1);
        let answer = |index: usize| answers.get(index).and_then(Option::as_ref);
        let start = |index, call| placed(index, self.outcome(&driver, turn, call, answer(index)));

        let mut reader = CallStream::<P>::new();
        let mut running = FuturesUnordered::new();
        let mut started = BTreeSet::new();
        let mut done = BTreeMap::new();
        // The place of the next call the stream gives out.
        let mut next = own.len();
        let mut events = pin!(events);
        loop {
            tokio::select! {
                Some((index, answered)) = running.next(), if !running.is_empty() => {
                    match answered {
                        Ok(outcome) => done.insert(index, outcome),
                        Err(never) => match never {},
                    };
                }
                event = events.next() => {
                    let Some(event) = event else { break };
                    for call in reader.push(event.as_ref())? {
                        let index = next;
                        next += 1;
                        if running.len() < limit && self.starts_early(&call.name) {
                            started.insert(index);
                            running.push(start(index, call));
                        }
                    }
                }
            }
        }
        let streamed = reader.finish()?;
        if streamed.end() != &StreamEnd::Finished {
            token.cancel();
            return Ok((Vec::new(), streamed));
        }
        let count = own.len() + streamed.calls().len();
        let waiting = own
            .into_iter()
            .chain(streamed.calls().iter().cloned())
            .enumerate()
            .filter(|(index, _)| !started.contains(index))
            .map(|(index, call)| start(index, call));
        let outcomes = match in_order(running, waiting, done, limit, count).await {
            Ok(outcomes) => outcomes,
            Err(never) => match never {},
        };
        // Answered: a tool's work handed off with the token outlives it.
        cancel_on_drop.disarm();
        Ok((outcomes, streamed))
    }
}
