//! `Parked`: a call waiting for an answer, as the answering side is told.

use toolresult::canonical::Request;
use toolresult::provider::Call;

/// The key under the [`Request`]'s `data` that holds the Restate awakeable
/// id to resolve with the [`Answer`](toolresult::canonical::Answer).
///
/// ```
/// assert_eq!(toolresult_restate::AWAKEABLE_KEY, "awakeable");
/// ```
pub const AWAKEABLE_KEY: &str = "awakeable";

/// A call parked on a pending [`Request`], handed to the `notify` hook of
/// [`run_turn`](crate::run_turn) once (the hook runs as a journaled step):
/// the hook tells whoever answers (a person, through a chat message or a
/// web page; another service).
///
/// The answering side resolves the awakeable, from any process, through
/// Restate's ingress with the [`Answer`](toolresult::canonical::Answer)'s
/// JSON, whose `id` is the request's `id`:
///
/// ```text
/// curl -X POST http://127.0.0.1:8080/restate/awakeables/$AWAKEABLE/resolve \
///      -H 'content-type: application/json' -d '{"id":"approve-1.4.2","ok":true}'
/// ```
///
/// The request as the tool made it, with the awakeable id added to its
/// `data` under [`AWAKEABLE_KEY`], so a request forwarded as JSON carries
/// all an answering side needs.
///
/// ```
/// use serde_json::json;
/// use toolresult::canonical::Request;
/// use toolresult::provider::Call;
/// use toolresult::tool::Arguments;
/// use toolresult_restate::Parked;
///
/// // What a notify hook does with it: here, the message it would send.
/// fn message(parked: &Parked) -> String {
///     format!(
///         "{} (answer {} with id {})",
///         parked.request.prompt,
///         parked.awakeable_id(),
///         parked.request.id
///     )
/// }
///
/// let call = Call::new("toolu_1", "deploy", Arguments::Json(json!({"version": "1.4.2"})));
/// let request = Request::input("Deploy 1.4.2?").with_id("approve-1.4.2");
/// let parked = Parked::new(call, request, "sign_1abc");
/// assert_eq!(message(&parked), "Deploy 1.4.2? (answer sign_1abc with id approve-1.4.2)");
/// assert_eq!(
///     serde_json::to_string(&parked.request)?,
///     r#"{"id":"approve-1.4.2","kind":"input","prompt":"Deploy 1.4.2?","data":{"awakeable":"sign_1abc"}}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Parked {
    /// The call parked.
    pub call: Call,
    /// What it waits for; `data` holds the awakeable id under
    /// [`AWAKEABLE_KEY`].
    pub request: Request,
    awakeable: String,
}

impl Parked {
    /// A parked call: `request` with `awakeable` added to its `data`.
    /// [`run_turn`](crate::run_turn) makes these; a test of a notify hook
    /// makes its own.
    #[must_use]
    pub fn new(call: Call, mut request: Request, awakeable: impl Into<String>) -> Self {
        let awakeable = awakeable.into();
        request
            .data
            .get_or_insert_with(Default::default)
            .insert(AWAKEABLE_KEY.to_owned(), awakeable.clone().into());
        Self {
            call,
            request,
            awakeable,
        }
    }

    /// The id of the Restate awakeable to resolve with the answer.
    #[must_use]
    pub fn awakeable_id(&self) -> &str {
        &self.awakeable
    }
}
