//! One `tools/call`, run by the toolbox as a turn of one call: the one
//! place this module calls the toolbox.

use std::sync::Arc;

use rmcp::model::{JsonObject, NumberOrString};
use rmcp::service::{Peer, RoleServer};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::elicit::Elicit;
use crate::canonical::{Answer, Request, ToolResult};
use crate::provider::Call;
use crate::provider::mcp::call_id;
use crate::retry::StopReason;
use crate::tool::{Arguments, CallEvent};
use crate::toolbox::{CallOutcome, Toolbox, Turn};
use crate::{IntoToolResult, Lowered};

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

/// The call `name` with `arguments` (absent: `{}`) as the request `id`.
pub(super) fn new_call(id: &NumberOrString, name: &str, arguments: JsonObject) -> Call {
    Call::new(call_id(id), name, Arguments::Json(Value::Object(arguments)))
}

/// Runs `call` through the toolbox's own turn: its timeout, retries,
/// budget, panics caught, a cancelled call answered as cancelled, a parked
/// one asking the client and running again with its answer. With
/// `answer`, the call was parked on the request it answers in an earlier
/// round, and is resumed with it ([`Turn::resume`], the toolbox's check).
pub(super) async fn run<O>(
    toolbox: &Arc<Toolbox>,
    call: Call,
    answer: Option<Answer>,
    scope: CallScope<O>,
) -> Option<Lowered>
where
    O: Fn(&CallEvent<'_>) + Send + Sync + 'static,
{
    let turn = match answer {
        Some(answer) => {
            // The call as it parked in the earlier round: nothing of it
            // was kept but its sealed state, which names its request.
            let request = Request::new(Request::INPUT, "").with_id(answer.id.clone());
            let parked = CallOutcome {
                call,
                lowered: ToolResult::pending(request).lower(),
                attempts: 0,
                stop: StopReason::Suspended,
                not_resumed: None,
            };
            // The server's own sealed state vouches for the answer.
            let answer = toolbox.vouch(&parked.call, answer);
            Turn::default().resume(&parked, answer).ok()?
        }
        None => Turn::new([call]),
    };
    let turn = turn
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
