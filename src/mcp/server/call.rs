//! One `tools/call`, run by the toolbox as a turn of one call: the one
//! place this module calls the toolbox.

use std::sync::Arc;

use rmcp::model::{JsonObject, NumberOrString};
use rmcp::service::{Peer, RoleServer};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::elicit::Elicit;
use crate::Lowered;
use crate::provider::Call;
use crate::provider::mcp::call_id;
use crate::tool::{Arguments, CallEvent};
use crate::toolbox::{Toolbox, Turn};

/// What a `tools/call` brings to its call besides its name and arguments.
pub(super) struct CallScope<O> {
    /// The client's cancellation of the request (`notifications/cancelled`,
    /// or the client gone).
    pub(super) cancellation: CancellationToken,
    /// The observer of the call's progress and log events.
    pub(super) observer: O,
    /// The client, attached to the call's context for a tool that asks it
    /// something of its own (`sampling/createMessage`, say).
    pub(super) peer: Peer<RoleServer>,
    /// The driver: asks the client when the call parks on a request.
    pub(super) driver: Elicit,
}

/// Runs the call `name` with `arguments` (absent: `{}`) as the request
/// `id`, through the toolbox's own turn: its timeout, retries, budget,
/// panics caught, a cancelled call answered as cancelled, a parked one
/// asking the client and running again with its answer.
pub(super) async fn run<O>(
    toolbox: &Arc<Toolbox>,
    id: &NumberOrString,
    name: &str,
    arguments: Option<JsonObject>,
    scope: CallScope<O>,
) -> Option<Lowered>
where
    O: Fn(&CallEvent<'_>) + Send + Sync + 'static,
{
    let arguments = Value::Object(arguments.unwrap_or_default());
    let call = Call::new(call_id(id), name, Arguments::Json(arguments));
    let turn = Turn::new([call])
        .with_cancellation(scope.cancellation)
        .with_observer(scope.observer)
        .with_value(scope.peer);
    // Boxed: rmcp spawns the handler's future and moves it whole, and a
    // turn's state machine is large; the box is one small pointer to move.
    let outcomes = match Box::pin(toolbox.run_on(&scope.driver, turn)).await {
        Ok(outcomes) => outcomes,
        Err(never) => match never {},
    };
    outcomes.into_iter().next().map(|outcome| outcome.lowered)
}
