//! A server's question (an elicitation, or an input request of an
//! input-required result) as the local call's [`Request`], and the
//! [`Answer`] to it as the server's reply.

use std::collections::VecDeque;

use rmcp::model::{
    ElicitRequestParams, ElicitResult, ElicitationAction, InputRequest, InputRequests,
    InputResponses, RequestMetaObject, RequestParamsMeta,
};
use serde_json::{Map, Value, json};

use crate::canonical::{Answer, Request, SEAL};
use crate::mcp::REQUEST_META;

/// Where a form's schema goes in the request's `data`, as the crate's
/// server reads it (`McpServer::REQUESTED_SCHEMA`).
const REQUESTED_SCHEMA: &str = "requestedSchema";
/// The reason of a declined answer that cancels rather than declines
/// (`McpServer::CANCELLED`).
const CANCELLED: &str = "cancel";

/// The request `id` a caller sees for `params`: a form is an `input`
/// request whose `data.requestedSchema` is the form's schema; a URL
/// elicitation is one with the `url` to visit. What the server shows of
/// its own request (its kind and data, under [`REQUEST_META`]: the tool,
/// arguments and reason of an approval) is the request's kind and data.
pub(super) fn request(id: String, params: &ElicitRequestParams) -> Request {
    let asked = match params {
        ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => {
            let schema = serde_json::to_value(requested_schema).unwrap_or(Value::Null);
            Request::input(message.clone())
                .with_id(id)
                .with_data(Map::from_iter([(REQUESTED_SCHEMA.to_owned(), schema)]))
        }
        ElicitRequestParams::UrlElicitationParams { message, url, .. } => {
            Request::input(message.clone())
                .with_id(id)
                .with_url(url.clone())
        }
        // A mode of a later revision: what it asks, in words.
        other => Request::input(
            serde_json::to_value(other)
                .ok()
                .and_then(|value| value.get("message")?.as_str().map(str::to_owned))
                .unwrap_or_default(),
        )
        .with_id(id),
    };
    shown(asked, params)
}

/// `asked` with the kind and data the server shows under
/// [`REQUEST_META`]: its own keys (the form's schema) and a seal (only
/// the local toolbox seals the local request) are never the server's to
/// set.
fn shown(mut asked: Request, params: &ElicitRequestParams) -> Request {
    let Some(Value::Object(shown)) = params.meta().and_then(|meta| meta.0.get(REQUEST_META)) else {
        return asked;
    };
    if let Some(kind) = shown.get("kind").and_then(Value::as_str)
        && !kind.is_empty()
    {
        asked.kind = kind.to_owned();
    }
    if let Some(Value::Object(data)) = shown.get("data") {
        let own = asked.data.get_or_insert_with(Map::new);
        for (key, value) in data {
            if key != SEAL && !own.contains_key(key) {
                own.insert(key.clone(), value.clone());
            }
        }
    }
    asked
}

/// The server's reply for `answer`: a granted answer accepts with its
/// `data` as the form's content (none for a URL); a declined one declines,
/// or cancels when its reason is `cancel`.
pub(super) fn reply(answer: &Answer, form: bool) -> ElicitResult {
    if answer.ok {
        let result = ElicitResult::new(ElicitationAction::Accept);
        if form {
            let mut content = answer.data.clone().unwrap_or_default();
            // The local toolbox's seal, checked already: not the server's.
            content.remove(SEAL);
            return result.with_content(Value::Object(content));
        }
        return result;
    }
    if answer.reason.as_deref() == Some(CANCELLED) {
        ElicitResult::new(ElicitationAction::Cancel)
    } else {
        ElicitResult::new(ElicitationAction::Decline)
    }
}

/// The questions of a server's input requests, by key, to ask the caller
/// one at a time; and the responses this client gives without asking
/// (roots: it shares none). A request of a kind it did not declare
/// (sampling) is left unanswered.
pub(super) fn asks_of(
    requests: InputRequests,
) -> (VecDeque<(String, ElicitRequestParams)>, InputResponses) {
    let mut asks = VecDeque::new();
    let mut responses = InputResponses::new();
    for (key, request) in requests {
        match request {
            InputRequest::Elicitation(elicit) => {
                let mut params = elicit.params;
                // rmcp reads the request's `_meta` into its extensions: it
                // goes back with the question, for what the server shows.
                if params.meta().is_none()
                    && let Some(meta) = elicit.extensions.get::<RequestMetaObject>()
                {
                    params.set_meta(meta.clone());
                }
                asks.push_back((key, params));
            }
            InputRequest::ListRoots(_) => {
                responses.insert(key, json!({"roots": []}));
            }
            _ => {}
        }
    }
    (asks, responses)
}

/// Whether `params` is a form (whose accepted reply carries content).
pub(super) fn is_form(params: &ElicitRequestParams) -> bool {
    matches!(params, ElicitRequestParams::FormElicitationParams { .. })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_form_is_an_input_request_with_its_schema_and_its_answer_the_content() {
        let params: ElicitRequestParams = serde_json::from_value(json!({
            "mode": "form", "message": "Name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
        }))
        .unwrap();
        let asked = request("q1".into(), &params);
        assert_eq!(
            serde_json::to_value(&asked).unwrap(),
            json!({"id": "q1", "kind": "input", "prompt": "Name?", "data": {"requestedSchema":
                {"type": "object", "properties": {"name": {"type": "string"}}}}})
        );
        let data = Map::from_iter([("name".to_owned(), json!("Ada"))]);
        assert_eq!(
            serde_json::to_value(reply(&Answer::granted("q1", Some(data)), true)).unwrap(),
            json!({"action": "accept", "content": {"name": "Ada"}})
        );
        assert_eq!(
            serde_json::to_value(reply(&Answer::declined("q1", "cancel"), true)).unwrap(),
            json!({"action": "cancel"})
        );
        assert_eq!(
            serde_json::to_value(reply(&Answer::declined("q1", "no"), true)).unwrap(),
            json!({"action": "decline"})
        );
    }

    #[test]
    fn what_the_server_shows_is_the_requests_kind_and_data_but_a_seal() {
        let params: ElicitRequestParams = serde_json::from_value(json!({
            "mode": "form", "message": "Approve?",
            "requestedSchema": {"type": "object", "properties": {}},
            "_meta": {"toolresult/request": {"kind": "approval", "data": {
                "tool": "deploy", "reason": "always", "seal": "theirs",
                "requestedSchema": "not the form's"}}},
        }))
        .unwrap();
        let asked = request("q3".into(), &params);
        assert_eq!(asked.kind, "approval");
        assert_eq!(
            serde_json::to_value(&asked.data).unwrap(),
            json!({"requestedSchema": {"type": "object", "properties": {}},
                "tool": "deploy", "reason": "always"})
        );
        // The local seal an answer carries stays here.
        let data = Map::from_iter([
            ("seal".to_owned(), json!("ours")),
            ("always".to_owned(), json!(true)),
        ]);
        assert_eq!(
            serde_json::to_value(reply(&Answer::granted("q3", Some(data)), true)).unwrap(),
            json!({"action": "accept", "content": {"always": true}})
        );
    }

    #[test]
    fn a_url_elicitation_carries_its_url_and_is_accepted_without_content() {
        let params: ElicitRequestParams = serde_json::from_value(json!({
            "mode": "url", "message": "Sign in", "url": "https://example.com/a", "elicitationId": "e1",
        }))
        .unwrap();
        let asked = request("q2".into(), &params);
        assert_eq!(asked.url.as_deref(), Some("https://example.com/a"));
        assert!(!is_form(&params));
        assert_eq!(
            serde_json::to_value(reply(&Answer::granted("q2", None), false)).unwrap(),
            json!({"action": "accept"})
        );
    }
}
