//! The suspension handshake (SPEC §10): a `Request` a tool parks on, and the
//! `Answer` that resumes it.

use serde::de::MapAccess;
use serde::de::value::MapAccessDeserializer;
use serde::{Deserialize, Deserializer, Serialize};

use super::object_only::{self, FromObject};
use serde_json::{Map, Value};

/// What a suspended tool call is waiting for: input, an approval, a login.
///
/// A result carrying a request under `metadata.pending` is a suspension; build
/// one with [`ToolResult::pending`](super::ToolResult::pending) and read it back
/// with [`ToolResult::pending_request`](super::ToolResult::pending_request).
///
/// ```
/// use toolresult::canonical::Request;
/// let request = Request::input("Which environment?").with_id("req-1");
/// assert_eq!(
///     serde_json::to_string(&request)?,
///     r#"{"id":"req-1","kind":"input","prompt":"Which environment?"}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Request {
    /// The correlation key an [`Answer`] echoes. Empty is filled in by `pending`.
    pub id: String,
    /// What is asked for: `input`, `authorization`, or a kind of your own.
    pub kind: String,
    /// What the person or host is asked.
    pub prompt: String,
    /// Where to go to answer (a login page, say).
    #[serde(skip_serializing_if = "is_absent")]
    pub url: Option<String>,
    /// Free-form data for the host.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Map<String, Value>>,
    /// When the request lapses (RFC 3339).
    #[serde(rename = "expiresAt", skip_serializing_if = "is_absent")]
    pub expires_at: Option<String>,
}

/// The derived reading of a [`Request`]'s object entries.
#[derive(Deserialize)]
#[serde(remote = "Request")]
struct RequestObject {
    #[serde(default, deserialize_with = "null_as_empty")]
    id: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    kind: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    prompt: String,
    #[serde(default, deserialize_with = "empty_as_none")]
    url: Option<String>,
    #[serde(default)]
    data: Option<Map<String, Value>>,
    #[serde(rename = "expiresAt", default, deserialize_with = "empty_as_none")]
    expires_at: Option<String>,
}

impl<'de> Deserialize<'de> for Request {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        object_only::deserialize(deserializer)
    }
}

impl<'de> FromObject<'de> for Request {
    const EXPECTING: &'static str = "a request object";

    fn from_object<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        RequestObject::deserialize(MapAccessDeserializer::new(map))
    }
}

impl Request {
    /// The kind asking for free-form input.
    pub const INPUT: &'static str = "input";
    /// The kind asking for a login at `url`.
    pub const AUTHORIZATION: &'static str = "authorization";
    /// The kind a toolbox parks a call on before its body runs, asking a
    /// person to approve it (see [`Approval`](crate::tool::Approval)). Its
    /// `data` shows the call: `tool`, `arguments` (as the model sent
    /// them), `reason` (why it needs approval), the `requestedSchema` of
    /// an MCP form (a `decision`, `approve` or `reject`, and a `message`),
    /// and `seal` when the toolbox seals requests. Answer it with
    /// [`Answer::approve`], [`Answer::approve_edited`],
    /// [`Answer::approve_always`] or [`Answer::reject`].
    pub const APPROVAL: &'static str = "approval";
    /// The prompt of an authorization request when none is given.
    pub const DEFAULT_AUTHORIZATION_PROMPT: &'static str = "Authorization required to continue";

    /// A request of any kind.
    #[must_use]
    pub fn new(kind: impl Into<String>, prompt: impl Into<String>) -> Self {
        Self {
            kind: kind.into(),
            prompt: prompt.into(),
            ..Self::default()
        }
    }

    /// A request for input.
    #[must_use]
    pub fn input(prompt: impl Into<String>) -> Self {
        Self::new(Self::INPUT, prompt)
    }

    /// A request to log in at `url`, with the default prompt.
    ///
    /// ```
    /// let request = toolresult::canonical::Request::authorization("https://example.com/login");
    /// assert_eq!(request.prompt, "Authorization required to continue");
    /// ```
    #[must_use]
    pub fn authorization(url: impl Into<String>) -> Self {
        Self::new(Self::AUTHORIZATION, Self::DEFAULT_AUTHORIZATION_PROMPT).with_url(url)
    }

    /// The same request with this id.
    #[must_use]
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = id.into();
        self
    }

    /// The same request with this prompt.
    #[must_use]
    pub fn with_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.prompt = prompt.into();
        self
    }

    /// The same request with this url (an empty one clears it).
    #[must_use]
    pub fn with_url(mut self, url: impl Into<String>) -> Self {
        self.url = Some(url.into()).filter(|u| !u.is_empty());
        self
    }

    /// The same request with this data.
    #[must_use]
    pub fn with_data(mut self, data: Map<String, Value>) -> Self {
        self.data = Some(data);
        self
    }

    /// The same request with this expiry (RFC 3339).
    #[must_use]
    pub fn with_expires_at(mut self, expires_at: impl Into<String>) -> Self {
        self.expires_at = Some(expires_at.into()).filter(|e| !e.is_empty());
        self
    }
}

/// The host's reply to a [`Request`], handed to the tool when it runs again.
///
/// ```
/// use toolresult::canonical::Answer;
/// let answer = Answer::declined("req-1", "user cancelled");
/// assert_eq!(
///     serde_json::to_string(&answer)?,
///     r#"{"id":"req-1","ok":false,"reason":"user cancelled"}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Answer {
    /// The id of the request answered.
    pub id: String,
    /// Whether the request was granted.
    pub ok: bool,
    /// What was answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Map<String, Value>>,
    /// Why it was declined.
    #[serde(skip_serializing_if = "is_absent")]
    pub reason: Option<String>,
}

/// The derived reading of a [`Answer`]'s object entries.
#[derive(Deserialize)]
#[serde(remote = "Answer")]
struct AnswerObject {
    #[serde(default, deserialize_with = "null_as_empty")]
    id: String,
    #[serde(default)]
    ok: bool,
    #[serde(default)]
    data: Option<Map<String, Value>>,
    #[serde(default, deserialize_with = "empty_as_none")]
    reason: Option<String>,
}

impl<'de> Deserialize<'de> for Answer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        object_only::deserialize(deserializer)
    }
}

impl<'de> FromObject<'de> for Answer {
    const EXPECTING: &'static str = "an answer object";

    fn from_object<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        AnswerObject::deserialize(MapAccessDeserializer::new(map))
    }
}

impl Answer {
    /// A granted answer carrying `data`.
    #[must_use]
    pub fn granted(id: impl Into<String>, data: Option<Map<String, Value>>) -> Self {
        Self {
            id: id.into(),
            ok: true,
            data,
            reason: None,
        }
    }

    /// A declined answer with its reason.
    #[must_use]
    pub fn declined(id: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ok: false,
            data: None,
            reason: Some(reason.into()).filter(|r| !r.is_empty()),
        }
    }

    /// Approves the call `request` (of kind [`Request::APPROVAL`]) asks
    /// about: its body runs with the arguments the model sent. The answer
    /// carries the request's seal back, if it has one.
    ///
    /// ```
    /// use toolresult::canonical::{Answer, Request};
    /// let request = Request::new(Request::APPROVAL, "Approve `deploy`?").with_id("approval-1");
    /// assert_eq!(serde_json::to_string(&Answer::approve(&request))?, r#"{"id":"approval-1","ok":true}"#);
    /// assert_eq!(
    ///     serde_json::to_string(&Answer::reject(&request, "not on a Friday"))?,
    ///     r#"{"id":"approval-1","ok":false,"reason":"not on a Friday"}"#
    /// );
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[must_use]
    pub fn approve(request: &Request) -> Self {
        Self::granted(&request.id, None).with_seal_of(request)
    }

    /// Approves the call `request` asks about with `arguments` in place of
    /// the model's: the toolbox checks them against the tool's input
    /// schema, and refuses an edit that does not fit
    /// ([`ResumeError::EditRefused`](crate::toolbox::ResumeError::EditRefused)),
    /// which the model never sees.
    #[must_use]
    pub fn approve_edited(request: &Request, arguments: Map<String, Value>) -> Self {
        let data = Map::from_iter([(ARGUMENTS.to_owned(), Value::Object(arguments))]);
        Self::granted(&request.id, Some(data)).with_seal_of(request)
    }

    /// Approves the call `request` asks about, and every later call of
    /// the same tool in the turn (to keep it longer, give the tool to the
    /// next turns: [`Turn::approve_always`](crate::toolbox::Turn::approve_always)).
    #[must_use]
    pub fn approve_always(request: &Request) -> Self {
        let data = Map::from_iter([(ALWAYS.to_owned(), Value::Bool(true))]);
        Self::granted(&request.id, Some(data)).with_seal_of(request)
    }

    /// Rejects the call `request` asks about: the call is answered with an
    /// error result holding `message`, which the model reads, and is never
    /// retried.
    #[must_use]
    pub fn reject(request: &Request, message: impl Into<String>) -> Self {
        Self::declined(&request.id, message).with_seal_of(request)
    }

    /// The same answer carrying `request`'s seal (its `data.seal`), if it
    /// has one: what the answer to a request of a toolbox that seals them
    /// ([`Toolbox::seal_requests`](crate::toolbox::Toolbox::seal_requests))
    /// must bring back. The decisions of an approval ([`approve`](Self::approve)
    /// and the others) carry it already.
    ///
    /// ```
    /// use serde_json::{Map, json};
    /// use toolresult::canonical::{Answer, Request};
    ///
    /// let data = Map::from_iter([("seal".to_owned(), json!("v1.abc"))]);
    /// let request = Request::input("Your name?").with_id("name-1").with_data(data);
    /// let name = Map::from_iter([("name".to_owned(), json!("Ada"))]);
    /// let answer = Answer::granted(&request.id, Some(name)).with_seal_of(&request);
    /// assert_eq!(
    ///     serde_json::to_string(&answer)?,
    ///     r#"{"id":"name-1","ok":true,"data":{"name":"Ada","seal":"v1.abc"}}"#
    /// );
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[must_use]
    pub fn with_seal_of(mut self, request: &Request) -> Self {
        if let Some(seal) = request.data.as_ref().and_then(|data| data.get(SEAL)) {
            self.data
                .get_or_insert_with(Map::new)
                .insert(SEAL.to_owned(), seal.clone());
        }
        self
    }

    /// Whether this answers `request` (the ids match).
    #[must_use]
    pub fn answers(&self, request: &Request) -> bool {
        !self.id.is_empty() && self.id == request.id
    }
}

/// The keys of an approval's request and answer `data`.
pub(crate) const SEAL: &str = "seal";
pub(crate) const ARGUMENTS: &str = "arguments";
pub(crate) const ALWAYS: &str = "always";

fn is_absent(value: &Option<String>) -> bool {
    value.as_deref().is_none_or(str::is_empty)
}

fn empty_as_none<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<String>::deserialize(deserializer)?.filter(|s| !s.is_empty()))
}

pub(crate) fn null_as_empty<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(deserializer)?.unwrap_or_default())
}
