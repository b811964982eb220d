//! The state of a call parked at MCP 2026-07-28 (SEP-2322): sealed into
//! the `requestState` of its input-required result, opened when the
//! client sends the call again with its `inputResponses`. Nothing of the
//! call is kept between the rounds: any replica holding the key resumes
//! it.

use std::time::{Duration, SystemTime};

use rmcp::model::{ElicitResult, InputResponses, JsonObject};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::elicit;
use crate::canonical::Answer;
use crate::seal::{Keyring, SealError};

/// The keyring that seals parked calls' states, and how long a state
/// stays valid.
#[derive(Clone, Debug)]
pub(super) struct States {
    keyring: Keyring,
    ttl: Duration,
}

/// What resuming a parked call needs, as its `requestState` carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Parked {
    /// The call's id, kept over its rounds (a round's JSON-RPC id is not).
    pub(super) call: String,
    /// The tool called.
    pub(super) tool: String,
    /// The call's arguments.
    pub(super) arguments: JsonObject,
    /// The round this state was sealed after, from 1.
    pub(super) attempt: u32,
    /// The id of the request the call is parked on: its input request's key.
    pub(super) request: String,
}

impl States {
    pub(super) fn new(keyring: Keyring, ttl: Duration) -> Self {
        Self { keyring, ttl }
    }

    /// `parked`, sealed for its tool and arguments, valid for the TTL from
    /// `now`.
    pub(super) fn seal(&self, parked: &Parked, now: SystemTime) -> Result<String, SealError> {
        let arguments = arguments_json(&parked.arguments);
        self.keyring.seal(
            parked,
            &binding(&parked.tool, &arguments),
            now.checked_add(self.ttl),
        )
    }

    /// The state `token` sealed for the call of `tool` with `arguments`,
    /// and the client's response to its request; `None` when `responses`
    /// holds none for it (the client is to be asked again). The token is
    /// opened once, whatever came with it: a tampered, expired or another
    /// call's state is refused even without a response, and the response
    /// is then looked up by the request's id the state names.
    ///
    /// # Errors
    /// The token is tampered with, expired, another call's, or not a state.
    pub(super) fn open(
        &self,
        token: &str,
        tool: &str,
        arguments: &JsonObject,
        responses: Option<&InputResponses>,
        now: SystemTime,
    ) -> Result<Option<(Parked, Value)>, SealError> {
        let arguments = arguments_json(arguments);
        let parked = self
            .keyring
            .open::<Parked>(token, &binding(tool, &arguments), now)?;
        let response = responses.and_then(|responses| responses.get(&parked.request));
        Ok(response.cloned().map(|response| (parked, response)))
    }
}

/// The answer to request `id` of the client's input response: an
/// elicitation result read as the elicitation path reads it.
///
/// # Errors
/// The response is not an elicitation result (the message says why).
pub(super) fn answer(id: &str, response: Value) -> Result<Answer, String> {
    let result = serde_json::from_value::<ElicitResult>(response).map_err(|error| {
        format!("the input response `{id}` is not an elicitation result: {error}")
    })?;
    Ok(elicit::answer(id, result))
}

/// The arguments as the binding holds them: their JSON text.
fn arguments_json(arguments: &JsonObject) -> String {
    Value::Object(arguments.clone()).to_string()
}

/// What a state is bound to: the call as the client sends it again, its
/// tool and its arguments (the request's id is in the state itself, so
/// one MAC opens it whatever the responses).
fn binding<'a>(tool: &'a str, arguments: &'a str) -> [(&'a str, &'a str); 2] {
    [("tool", tool), ("arguments", arguments)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn states() -> States {
        States::new(Keyring::new([9u8; 32]).unwrap(), Duration::from_secs(60))
    }

    fn parked() -> Parked {
        Parked {
            call: "7".into(),
            tool: "ask".into(),
            arguments: JsonObject::from_iter([("city".to_owned(), json!("Oslo"))]),
            attempt: 1,
            request: "name".into(),
        }
    }

    #[test]
    fn a_state_opens_for_its_call_with_its_response() {
        let now = SystemTime::now();
        let token = states().seal(&parked(), now).unwrap();
        let responses = InputResponses::from_iter([
            ("extra".to_owned(), json!(1)),
            ("name".to_owned(), json!({"action": "accept"})),
        ]);
        let (opened, response) = states()
            .open(&token, "ask", &parked().arguments, Some(&responses), now)
            .unwrap()
            .unwrap();
        assert_eq!(opened, parked());
        assert_eq!(response, json!({"action": "accept"}));
        // No response for the request: ask again.
        let wrong = InputResponses::from_iter([("other".to_owned(), json!({}))]);
        let missing = states().open(&token, "ask", &parked().arguments, Some(&wrong), now);
        assert!(missing.unwrap().is_none());
    }

    #[test]
    fn the_response_is_found_among_any_number_of_others() {
        // The request's id is read from the state, not guessed among the
        // responses' keys: twenty keys sorted before it do not hide it.
        let now = SystemTime::now();
        let token = states().seal(&parked(), now).unwrap();
        let mut responses: InputResponses = (0..20)
            .map(|n| (format!("a{n:02}"), json!({"action": "decline"})))
            .collect();
        responses.insert("name".to_owned(), json!({"action": "accept"}));
        let (_, response) = states()
            .open(&token, "ask", &parked().arguments, Some(&responses), now)
            .unwrap()
            .unwrap();
        assert_eq!(response, json!({"action": "accept"}));
    }

    #[test]
    fn a_state_is_checked_without_any_response() {
        let now = SystemTime::now();
        let token = states().seal(&parked(), now).unwrap();
        let other_tool = states().open(&token, "tell", &parked().arguments, None, now);
        assert_eq!(
            other_tool.unwrap_err().to_string(),
            "sealed token was issued for another call: its `tool` differs"
        );
        let forged = format!("{token}-TAMPERED");
        let tampered = states().open(&forged, "ask", &parked().arguments, None, now);
        assert!(matches!(
            tampered,
            Err(SealError::Malformed { .. } | SealError::Tampered)
        ));
        let empty = InputResponses::new();
        let unanswered = states().open(&token, "ask", &parked().arguments, Some(&empty), now);
        assert!(unanswered.unwrap().is_none());
    }

    #[test]
    fn another_calls_state_is_refused_naming_what_differs() {
        let now = SystemTime::now();
        let token = states().seal(&parked(), now).unwrap();
        let other = JsonObject::from_iter([("city".to_owned(), json!("Bergen"))]);
        let refused = states().open(&token, "ask", &other, None, now).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "sealed token was issued for another call: its `arguments` differs"
        );
        let late = now + Duration::from_secs(61);
        let expired = states().open(&token, "ask", &parked().arguments, None, late);
        assert!(matches!(expired, Err(SealError::Expired { .. })));
    }

    #[test]
    fn a_response_that_is_not_an_elicitation_result_is_refused() {
        let refused = answer("name", json!(12345)).unwrap_err();
        assert!(refused.starts_with("the input response `name` is not an elicitation result"));
        let declined = answer("name", json!({"action": "decline"})).unwrap();
        assert_eq!(declined, Answer::declined("name", elicit::DECLINED));
    }
}
