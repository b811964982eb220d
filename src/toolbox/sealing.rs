//! The seal of the requests a call parks on (feature `seal`): each
//! request's seal over its call, and the checks of the seal an answer
//! brings back.

#[cfg(feature = "seal")]
use serde_json::{Map, Value};

use super::ResumeError;
#[cfg(feature = "seal")]
use crate::canonical::shorten;
use crate::canonical::{Answer, Request};
use crate::provider::Call;
#[cfg(feature = "seal")]
use crate::tool::Arguments;

/// The keyring that seals the requests calls park on, and the approvals
/// whose answers a caller brought.
#[derive(Default)]
pub(super) struct Sealing {
    #[cfg(feature = "seal")]
    keyring: Option<crate::seal::Keyring>,
    #[cfg(feature = "seal")]
    spent: std::sync::Mutex<std::collections::HashSet<String>>,
}

impl Sealing {
    /// Adds the seal of the approval request `request` of `call` to its
    /// `data` (a body's requests are sealed by
    /// [`seal_pending`](Self::seal_pending)).
    #[cfg_attr(not(feature = "seal"), allow(clippy::unused_self, unused_variables))]
    pub(super) fn seal(&self, call: &Call, request: &mut Request) {
        #[cfg(feature = "seal")]
        if self.keyring.is_some() {
            self.seal_into(call, &request.id, request.data.get_or_insert_with(Map::new));
        }
    }

    /// Seals the request `result` of `call` is suspended on, if it is.
    #[cfg_attr(not(feature = "seal"), allow(clippy::unused_self, unused_variables))]
    pub(super) fn seal_pending(&self, call: &Call, result: &mut crate::canonical::ToolResult) {
        #[cfg(feature = "seal")]
        if self.keyring.is_some()
            && let Some(request) = result.pending_object_mut()
        {
            // Named already (`name_pending_request`): sealed in place.
            let id = request
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let data = request.entry("data").or_insert(Value::Null);
            if data.is_null() {
                *data = Value::Object(Map::new());
            }
            if let Some(data) = data.as_object_mut() {
                self.seal_into(call, &id, data);
            }
        }
    }

    /// Adds the seal of request `id` of `call` to `data`.
    #[cfg(feature = "seal")]
    fn seal_into(&self, call: &Call, id: &str, data: &mut Map<String, Value>) {
        if let Some(keyring) = &self.keyring {
            let arguments = text_of(&call.arguments);
            let binding = binding(call, &arguments, id);
            if let Ok(token) = keyring.seal(SEALED, &binding, None) {
                data.insert(crate::canonical::SEAL.to_owned(), Value::String(token));
            }
        }
    }

    /// Checks the seal `answer` brings back for the request of `call` it
    /// answers (the ids already matched).
    #[cfg_attr(not(feature = "seal"), allow(clippy::unused_self, unused_variables))]
    pub(super) fn open(&self, call: &Call, answer: &Answer) -> Result<(), ResumeError> {
        #[cfg(feature = "seal")]
        if let Some(keyring) = &self.keyring {
            use crate::seal::SealError;
            let id = shorten(&answer.id);
            let token = answer
                .data
                .as_ref()
                .and_then(|data| data.get(crate::canonical::SEAL))
                .and_then(Value::as_str)
                .ok_or_else(|| ResumeError::Unsealed {
                    request: id.clone(),
                })?;
            let arguments = text_of(&call.arguments);
            let binding = binding(call, &arguments, &answer.id);
            return match keyring.open::<String>(token, &binding, std::time::SystemTime::now()) {
                Ok(payload) if payload == SEALED => Ok(()),
                Ok(_) => Err(ResumeError::Forged {
                    request: id,
                    why: "it seals something other than a request".to_owned(),
                }),
                Err(SealError::OtherCall { field }) => {
                    Err(ResumeError::OtherCall { request: id, field })
                }
                Err(other) => Err(ResumeError::Forged {
                    request: id,
                    why: other.to_string(),
                }),
            };
        }
        Ok(())
    }

    /// `answer` of `call`, carrying the seal its request was asked with
    /// when it carries none: for a carrier whose own seal vouches for the
    /// answer (an MCP request state).
    #[cfg(feature = "mcp-server")]
    fn vouch(&self, call: &Call, mut answer: Answer) -> Answer {
        let data = answer.data.get_or_insert_with(Map::new);
        if !data.contains_key(crate::canonical::SEAL) {
            self.seal_into(call, &answer.id.clone(), data);
        }
        if data.is_empty() {
            answer.data = None;
        }
        answer
    }

    /// Records that the caller brought the answer to request `id`.
    #[cfg_attr(not(feature = "seal"), allow(clippy::unused_self, unused_variables))]
    pub(super) fn spend(&self, id: &str) -> Result<(), ResumeError> {
        #[cfg(feature = "seal")]
        if self.keyring.is_some()
            && let Ok(mut spent) = self.spent.lock()
            && !spent.insert(id.to_owned())
        {
            return Err(ResumeError::Replayed {
                request: shorten(id),
            });
        }
        Ok(())
    }
}

impl super::Toolbox {
    /// `answer` of `call`, vouched for by a carrier that sealed the call's
    /// state itself (an MCP request state): it carries its request's seal.
    #[cfg(feature = "mcp-server")]
    pub(crate) fn vouch(&self, call: &Call, answer: Answer) -> Answer {
        self.sealing.vouch(call, answer)
    }
}

/// What a request's seal holds.
#[cfg(feature = "seal")]
const SEALED: &str = "request";

/// The arguments' text, byte for byte as the seal binds them.
#[cfg(feature = "seal")]
fn text_of(arguments: &Arguments) -> std::borrow::Cow<'_, str> {
    match arguments {
        Arguments::Text(text) => std::borrow::Cow::Borrowed(text),
        Arguments::Json(value) => std::borrow::Cow::Owned(value.to_string()),
    }
}

#[cfg(feature = "seal")]
fn binding<'a>(
    call: &'a Call,
    arguments: &'a str,
    request: &'a str,
) -> [(&'static str, &'a str); 4] {
    [
        ("call", &call.id),
        ("tool", &call.name),
        ("arguments", arguments),
        ("request", request),
    ]
}

#[cfg(feature = "seal")]
impl super::Toolbox {
    /// The toolbox sealing every request a call parks on with `keyring`
    /// (feature `seal`): an approval, and any request a tool's body parks
    /// on (a remote MCP tool's question too) carries a seal (in its
    /// `data.seal`) over the call's id, the tool, the arguments as the
    /// model sent them and the request's id, and an answer must bring it
    /// back before the call runs again ([`Answer::approve`] and the other
    /// decisions copy it from the request, as
    /// [`Answer::with_seal_of`] does for any answer). An answer without
    /// it, with a seal made up or changed, for another call or for the
    /// call with its arguments changed, or (an approval's) brought by a
    /// [`Turn`](super::Turn) a second time, is refused, saying which
    /// ([`ResumeError`]), and the call stays parked: its body does not run.
    ///
    /// **Without a keyring nothing of this is checked**: an answer whose id
    /// matches the request's resumes the call, whoever made it, and the
    /// same answer resumes the same parked call as often as it is brought.
    /// Only leave it out when every answer comes from a party you trust
    /// over a channel you trust.
    ///
    /// The toolbox remembers the id of each approval a `Turn` brought
    /// while it lives; an answer a [`Driver`](super::Driver) brings (a
    /// Restate awakeable, an MCP elicitation) is the driver's to bring once.
    ///
    /// ```
    /// use toolresult::canonical::{Answer, Request};
    /// use toolresult::provider::Call;
    /// use toolresult::seal::Keyring;
    /// use toolresult::tool::{self, Approval, Arguments, CallContext};
    /// use toolresult::toolbox::{ResumeError, Toolbox, Turn};
    /// use toolresult::ToolResult;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Env { env: String }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
    /// let mut toolbox = Toolbox::new().seal_requests(Keyring::new([7u8; 32])?);
    /// toolbox.register(tool::function("deploy", "Deploy", |e: Env| format!("deployed to {}", e.env))?
    ///     .with_approval(Approval::always()))?;
    /// toolbox.register(tool::function("tag", "Tag", |e: Env, cx: &CallContext| match cx.answer() {
    ///     Some(answer) => ToolResult::<String>::ok(format!("tagged {} {}", e.env, answer.data.as_ref().unwrap()["tag"])),
    ///     None => ToolResult::pending(Request::input("Which tag?").with_id("tag-1")),
    /// })?)?;
    /// let call = Call::new("c1", "deploy", Arguments::Text(r#"{"env":"prod"}"#.into()));
    /// let parked = toolbox.run([call]).await;
    /// let request = parked[0].lowered.result.pending_request().unwrap();
    ///
    /// // An answer made up without the seal is refused, and the call stays parked.
    /// let made_up = Answer::granted(&request.id, None);
    /// let refused = toolbox.run(Turn::default().resume(&parked[0], made_up)?).await;
    /// assert!(matches!(refused[0].not_resumed.as_deref(), Some(ResumeError::Unsealed { .. })));
    ///
    /// let done = toolbox.run(Turn::default().resume(&parked[0], Answer::approve(&request))?).await;
    /// assert_eq!(done[0].lowered.result.output, "deployed to prod");
    ///
    /// // The body's own request is sealed too: its answer carries the seal back.
    /// let parked = toolbox.run([Call::new("c2", "tag", Arguments::Text(r#"{"env":"prod"}"#.into()))]).await;
    /// let request = parked[0].lowered.result.pending_request().unwrap();
    /// assert!(request.data.as_ref().is_some_and(|data| data.contains_key("seal")));
    /// let tag = serde_json::Map::from_iter([("tag".to_owned(), "v2".into())]);
    /// let answer = Answer::granted(&request.id, Some(tag)).with_seal_of(&request);
    /// let done = toolbox.run(Turn::default().resume(&parked[0], answer)?).await;
    /// assert_eq!(done[0].lowered.result.output, r#"tagged prod "v2""#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn seal_requests(mut self, keyring: crate::seal::Keyring) -> Self {
        self.sealing.keyring = Some(keyring);
        self
    }
}
