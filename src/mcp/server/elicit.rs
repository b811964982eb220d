//! A call parked on a [`Request`] asks the client: `elicitation/create`,
//! and the client's accept, decline or cancel is the [`Answer`] the call
//! runs again with.

use std::convert::Infallible;
use std::time::Duration;

use rmcp::model::{
    CallToolResponse, CallToolResult, ClientCapabilities, ElicitRequest, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationSchema, InputRequest, InputRequests,
    InputRequiredResult, InputResponses, MetaObject, RequestMetaObject,
};
use rmcp::service::{Peer, RoleServer};
use serde_json::{Map, Value, json};

use crate::canonical::{Answer, Request, SEAL};
use crate::mcp::REQUEST_META;
use crate::provider::Call;
use crate::toolbox::Driver;

/// See [`McpServer::REQUESTED_SCHEMA`](super::McpServer::REQUESTED_SCHEMA).
pub(crate) const REQUESTED_SCHEMA: &str = "requestedSchema";
/// See [`McpServer::DECLINED`](super::McpServer::DECLINED).
pub(crate) const DECLINED: &str = "decline";
/// See [`McpServer::CANCELLED`](super::McpServer::CANCELLED).
pub(crate) const CANCELLED: &str = "cancel";

/// The elicitation modes a client declared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Modes {
    form: bool,
    url: bool,
}

impl Modes {
    /// Forms and URLs: how a task's input request is asked when no one
    /// client is at hand to say which it takes (any client may read it).
    pub(super) const ALL: Self = Self {
        form: true,
        url: true,
    };

    pub(super) fn of(capabilities: Option<&ClientCapabilities>) -> Self {
        let Some(elicitation) = capabilities.and_then(|caps| caps.elicitation.as_ref()) else {
            return Self::default();
        };
        // A client that names neither mode takes forms (MCP 2025-06-18).
        let neither = elicitation.form.is_none() && elicitation.url.is_none();
        Self {
            form: neither || elicitation.form.is_some(),
            url: elicitation.url.is_some(),
        }
    }
}

/// The driver of a call served over MCP: attempts and delays as in
/// process (the driver's provided ones); a parked call asks the client,
/// when it can be asked.
pub(super) struct Elicit {
    peer: Peer<RoleServer>,
    modes: Modes,
    /// How long the client has to answer each elicitation.
    timeout: Duration,
    /// The responses a 2026-07-28 client sent with its call before it was
    /// asked, by request id: a request with one is answered by it.
    responses: Option<InputResponses>,
}

impl Elicit {
    pub(super) fn new(peer: Peer<RoleServer>, modes: Modes, timeout: Duration) -> Self {
        Self {
            peer,
            modes,
            timeout,
            responses: None,
        }
    }

    /// The same driver, answering each request it has a response to (an
    /// elicitation result under the request's id) with that response,
    /// without asking. A response of another shape is not an answer: the
    /// request is asked as it would be without it.
    pub(super) fn with_responses(mut self, responses: Option<InputResponses>) -> Self {
        self.responses = responses;
        self
    }
}

impl Driver for Elicit {
    type Error = Infallible;

    async fn wait_for_answer(
        &self,
        _: &Call,
        request: &Request,
    ) -> Result<Option<Answer>, Infallible> {
        let given = self
            .responses
            .as_ref()
            .and_then(|responses| responses.get(&request.id))
            .and_then(|response| serde_json::from_value::<ElicitResult>(response.clone()).ok());
        if let Some(result) = given {
            return Ok(Some(answer(&request.id, result)));
        }
        let Some(params) = params(request, self.modes) else {
            return Ok(None);
        };
        // The client asked on this session answers it: an approval's seal
        // goes back with its answer. A client that fails to answer, or
        // does not answer in time (rmcp
        // then cancels the request), leaves the call parked: its pending
        // request is the answer, as for a client that cannot be asked.
        Ok(self
            .peer
            .create_elicitation_with_timeout(params, Some(self.timeout))
            .await
            .ok()
            .map(|result| answer(&request.id, result).with_seal_of(request)))
    }
}

/// The answer to a 2026-07-28 request whose call parked on `request`,
/// `pending` being its pending result as MCP writes it. That protocol has
/// no server-to-client request (rmcp refuses to send one): the call is
/// answered with an input-required result (SEP-2322), `request` its one
/// input request under the request's id, in a mode the client takes
/// (`modes`), and `state` (the call's, sealed) its `requestState`. With
/// no state (the server holds no key), or a request the client cannot be
/// asked, it is answered with its pending result, complete.
pub(super) fn parked_alone(
    request: &Request,
    modes: Modes,
    pending: CallToolResult,
    state: Option<String>,
) -> CallToolResponse {
    let (Some(state), Some(asked)) = (state, input_request(request, modes)) else {
        return CallToolResponse::Complete(pending);
    };
    let requests = InputRequests::from_iter([(request.id.clone(), asked)]);
    CallToolResponse::InputRequired(InputRequiredResult::new(Some(requests), Some(state)))
}

/// The input request asking for `request` (kept under the request's id),
/// in a mode of `modes`: its `elicitation/create` ([`params`]).
pub(super) fn input_request(request: &Request, modes: Modes) -> Option<InputRequest> {
    params(request, modes).map(|params| InputRequest::Elicitation(ElicitRequest::new(params)))
}

/// The `elicitation/create` asking for `request`: a URL elicitation for a
/// request with a URL, else a form whose schema is the request's
/// `data.requestedSchema`, or for a request without one, a single text
/// field `input` for a request of kind `input` and no field at all (a
/// confirmation) for any other kind. `None` when the client does not take
/// that mode (a request with a URL is never asked as a form), or the
/// schema is not one MCP allows.
pub(super) fn params(request: &Request, modes: Modes) -> Option<ElicitRequestParams> {
    if let Some(url) = &request.url {
        // A request with a URL (an authorization, a payment) is never a
        // bare form: accepting it would grant what the user never saw.
        // MCP wants URL mode for such interactions.
        return modes
            .url
            .then(|| ElicitRequestParams::UrlElicitationParams {
                meta: shown(request),
                message: request.prompt.clone(),
                url: url.clone(),
                elicitation_id: request.id.clone(),
            });
    }
    if !modes.form {
        return None;
    }
    let schema = match request
        .data
        .as_ref()
        .and_then(|data| data.get(REQUESTED_SCHEMA))
    {
        Some(schema) => schema.clone(),
        None if request.kind == Request::INPUT => json!({
            "type": "object",
            "properties": {"input": {"type": "string", "description": request.prompt}},
            "required": ["input"],
        }),
        None => json!({"type": "object", "properties": {}}),
    };
    let requested_schema = serde_json::from_value::<ElicitationSchema>(schema).ok()?;
    Some(ElicitRequestParams::FormElicitationParams {
        meta: shown(request),
        message: request.prompt.clone(),
        requested_schema,
    })
}

/// What `request` shows beyond its prompt, its URL and its form, under
/// [`REQUEST_META`]: its kind and its data, but for its seal (the
/// server's, which never leaves it) and its form's schema (which the
/// elicitation carries). `None` for an `input` request with nothing more.
fn shown(request: &Request) -> Option<RequestMetaObject> {
    let mut data = request.data.clone().unwrap_or_default();
    data.remove(REQUESTED_SCHEMA);
    data.remove(SEAL);
    if request.kind == Request::INPUT && data.is_empty() {
        return None;
    }
    let mut shown = Map::from_iter([("kind".to_owned(), Value::String(request.kind.clone()))]);
    if !data.is_empty() {
        shown.insert("data".to_owned(), Value::Object(data));
    }
    let meta = Map::from_iter([(REQUEST_META.to_owned(), Value::Object(shown))]);
    Some(RequestMetaObject(MetaObject(meta)))
}

/// The answer to request `id` of the client's reply: granted with the
/// content the user gave, or declined with the reason [`DECLINED`] or
/// [`CANCELLED`].
pub(super) fn answer(id: &str, result: ElicitResult) -> Answer {
    match result.action {
        ElicitationAction::Accept => {
            let data = match result.content {
                Some(Value::Object(content)) => Some(content),
                Some(Value::Null) | None => None,
                Some(other) => Some(Map::from_iter([("value".to_owned(), other)])),
            };
            Answer::granted(id, data)
        }
        ElicitationAction::Decline => Answer::declined(id, DECLINED),
        _ => Answer::declined(id, CANCELLED),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORM: Modes = Modes {
        form: true,
        url: false,
    };

    #[test]
    fn a_request_without_a_schema_asks_for_text_or_a_confirmation() {
        let input = params(&Request::input("Which city?").with_id("r1"), FORM).unwrap();
        assert_eq!(
            serde_json::to_string(&input).unwrap(),
            r#"{"mode":"form","message":"Which city?","requestedSchema":{"type":"object","properties":{"input":{"type":"string","description":"Which city?"}},"required":["input"]}}"#
        );
        let approve = params(&Request::new("approval", "Deploy?").with_id("r2"), FORM).unwrap();
        assert_eq!(
            serde_json::to_string(&approve).unwrap(),
            r#"{"mode":"form","_meta":{"toolresult/request":{"kind":"approval"}},"message":"Deploy?","requestedSchema":{"type":"object","properties":{}}}"#
        );
    }

    #[test]
    fn what_a_request_shows_goes_in_the_meta_never_its_seal() {
        let data = json!({"tool": "deploy", "arguments": {"env": "prod"}, "reason": "always",
            "seal": "v1.secret", REQUESTED_SCHEMA: {"type": "object", "properties": {}}});
        let Value::Object(data) = data else { panic!() };
        let request = Request::new(Request::APPROVAL, "Deploy?").with_data(data);
        let asked = serde_json::to_value(params(&request, FORM).unwrap()).unwrap();
        assert_eq!(
            asked["_meta"],
            json!({"toolresult/request": {"kind": "approval", "data":
                {"tool": "deploy", "arguments": {"env": "prod"}, "reason": "always"}}})
        );
        assert!(!asked.to_string().contains("v1.secret"), "{asked}");
    }

    #[test]
    fn the_schema_comes_from_the_request_data() {
        let schema =
            json!({"type": "object", "properties": {"age": {"type": "integer", "default": 30}}});
        let request = Request::input("Age?")
            .with_data(Map::from_iter([(REQUESTED_SCHEMA.to_owned(), schema)]));
        let asked = serde_json::to_value(params(&request, FORM).unwrap()).unwrap();
        assert_eq!(
            asked["requestedSchema"]["properties"]["age"],
            json!({"type": "integer", "default": 30})
        );
    }

    #[test]
    fn a_schema_mcp_does_not_allow_is_not_asked() {
        let nested = json!({"type": "object", "properties": {"a": {"type": "object"}}});
        let request =
            Request::input("?").with_data(Map::from_iter([(REQUESTED_SCHEMA.to_owned(), nested)]));
        assert!(params(&request, FORM).is_none());
    }

    #[test]
    fn a_url_goes_to_a_client_that_takes_urls_and_nothing_to_one_that_takes_nothing() {
        let login = Request::authorization("https://example.com/login").with_id("r3");
        let url = Modes {
            form: false,
            url: true,
        };
        assert_eq!(
            serde_json::to_string(&params(&login, url).unwrap()).unwrap(),
            r#"{"mode":"url","_meta":{"toolresult/request":{"kind":"authorization"}},"message":"Authorization required to continue","url":"https://example.com/login","elicitationId":"r3"}"#
        );
        assert!(params(&login, Modes::default()).is_none());
    }

    #[test]
    fn a_url_is_never_asked_as_a_form() {
        // Accepting a bare "Authorization required" form would resume the
        // tool as granted with nothing granted, and the link lost.
        let login = Request::authorization("https://example.com/login").with_id("r3");
        assert!(params(&login, FORM).is_none());
        let both = Modes {
            form: true,
            url: true,
        };
        let asked = serde_json::to_value(params(&login, both).unwrap()).unwrap();
        assert_eq!(asked["mode"], "url");
    }

    #[test]
    fn each_action_is_an_answer() {
        let accepted =
            ElicitResult::new(ElicitationAction::Accept).with_content(json!({"city": "Oslo"}));
        assert_eq!(
            serde_json::to_string(&answer("r1", accepted)).unwrap(),
            r#"{"id":"r1","ok":true,"data":{"city":"Oslo"}}"#
        );
        assert_eq!(
            serde_json::to_string(&answer("r1", ElicitResult::new(ElicitationAction::Decline)))
                .unwrap(),
            r#"{"id":"r1","ok":false,"reason":"decline"}"#
        );
        assert_eq!(
            serde_json::to_string(&answer("r1", ElicitResult::new(ElicitationAction::Cancel)))
                .unwrap(),
            r#"{"id":"r1","ok":false,"reason":"cancel"}"#
        );
    }
}
