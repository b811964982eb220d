//! Reading a provider's stream: each call as soon as it is whole, then the
//! assembled message and why it ended.

mod assembler;
mod dialect;
mod end;
mod event;
mod streamed;

use std::fmt;

use serde_json::Value;

use super::{Call, ReadCallsError};
pub(crate) use assembler::{Calls, is_whole};
pub(crate) use dialect::Dialect;
pub use end::StreamEnd;
pub(crate) use event::{Data, ErrorBody, from_text, from_value};
pub use streamed::Streamed;

/// A provider's stream, read one event at a time: each call is given out
/// the moment it is whole, in call order, and [`finish`](Self::finish)
/// gives the assembled message and why it ended. One reader a provider,
/// with the same verbs: `CallStream::<OpenAiChat>`, `CallStream::<OpenAiResponses>`,
/// `CallStream::<Anthropic>`, `CallStream::<Gemini>`. (The bound on `P` is
/// sealed: these four are the providers that stream.)
///
/// Feed it each server-sent event's `data` as the HTTP client yields it,
/// as text ([`push`](Self::push)) or as a parsed JSON value
/// ([`push_value`](Self::push_value)); the crate makes no HTTP call.
///
/// The rules, the same for every provider where its stream has the case:
/// - a call is whole when the stream says so (Responses'
///   `function_call_arguments.done` or `output_item.done`, Anthropic's
///   `content_block_stop`, a Gemini `functionCall` part, or the last of
///   its Vertex AI `partialArgs`), or, in Chat Completions, which has no
///   such event, when a later call opens or the message finishes;
/// - a new id at a used index opens a new call, and so does another tool
///   name on a call that has one (parallel calls sharing index 0);
/// - a fragment without an index belongs to the call with its id, or, with
///   no id, to the call being written; with an id no call has, it opens one;
/// - empty and `null` fragments change nothing; nothing is prefilled:
///   the arguments are the text the fragments add, and a whole value given
///   elsewhere (Anthropic's `input` at a block's start, a Responses item's
///   `arguments` when it opens, its `.done` text) counts only when no
///   fragment added any; a call given whole in one fragment keeps its
///   arguments;
/// - arguments grow by appending, in time linear in their length;
/// - the message ends at the provider's finish (or its error): events
///   after it are still read as JSON but change nothing;
/// - a call is checked as `read_calls` checks it (an id and a name, not
///   empty, no id twice in the message) with the same [`ReadCallsError`],
///   its path in the assembled message (`tool_calls[1].id`);
/// - a whole call whose arguments are not JSON (nor blank) is held, with
///   every call after it, until the message finishes: it may have been cut
///   by the output limit. At a [`StreamEnd::Finished`] it is given out as
///   sent, and the tool answers it with its bad-arguments error, in words
///   the model can act on; the other calls go on.
///
/// A stream that ends without its finish, or for the output limit, a
/// content filter, a refusal or an error, runs none of its calls:
/// [`Streamed::calls`] is then empty and [`Streamed::end`] says why. The
/// call the limit cut is never given out. Calls given out before such an
/// end were whole; start one early only when running it for nothing is
/// harmless.
///
/// Memory: the reader keeps the message once (each call's arguments, the
/// text, reasoning and signatures), no more than the assembled message
/// `read_calls` would read.
///
/// ```
/// use toolresult::provider::{CallStream, OpenAiChat, Provider, StreamEnd};
///
/// let events = [
///     r#"{"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"add","arguments":""}}]}}]}"#,
///     r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1}"}}]}}]}"#,
///     r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"now","arguments":"{}"}}]}}]}"#,
///     r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
///     "[DONE]",
/// ];
/// let mut stream = CallStream::<OpenAiChat>::new();
/// let mut started = Vec::new();
/// for event in events {
///     for call in stream.push(event)? {
///         started.push(call.id); // call_1 as call_2 opens, call_2 at the finish
///     }
/// }
/// assert_eq!(started, ["call_1", "call_2"]);
///
/// let turn = stream.finish()?;
/// assert_eq!(turn.end(), &StreamEnd::Finished);
/// let message = serde_json::to_string(&turn)?;
/// assert_eq!(OpenAiChat::read_calls(&message)?, turn.calls());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct CallStream<P: Dialect> {
    reader: P::Reader,
    /// The calls made whole by the event being read.
    ready: Vec<Call>,
    /// The first error: the stream is not read past it.
    failed: Option<ReadCallsError>,
}

impl<P: Dialect> CallStream<P> {
    /// A reader for a new stream.
    #[must_use]
    pub fn new() -> Self {
        Self {
            reader: P::Reader::default(),
            ready: Vec::new(),
            failed: None,
        }
    }

    /// Reads one event's data (the text after `data: `; a Chat
    /// Completions `[DONE]` too) and gives out the calls it made whole, in
    /// order.
    ///
    /// # Errors
    /// [`ReadCallsError`] when the event is not JSON or not the provider's
    /// event, or a call in it is malformed (no id or name, an empty one,
    /// another type, the id of an earlier call). The stream is not read
    /// past an error: every later `push` and `finish` give it again.
    pub fn push(&mut self, event: &str) -> Result<std::vec::Drain<'_, Call>, ReadCallsError> {
        self.read(|reader, ready| P::push_text(reader, event, ready))
    }

    /// [`push`](Self::push) for an event the HTTP client already parsed.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolresult::provider::{Anthropic, CallStream};
    ///
    /// let mut stream = CallStream::<Anthropic>::new();
    /// let start = json!({"type": "content_block_start", "index": 0,
    ///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "now", "input": {}}});
    /// assert_eq!(stream.push_value(&start)?.count(), 0);
    /// let stop = json!({"type": "content_block_stop", "index": 0});
    /// assert_eq!(stream.push_value(&stop)?.map(|call| call.id).collect::<Vec<_>>(), ["toolu_1"]);
    /// # Ok::<(), toolresult::provider::ReadCallsError>(())
    /// ```
    ///
    /// # Errors
    /// As [`push`](Self::push).
    pub fn push_value(
        &mut self,
        event: &Value,
    ) -> Result<std::vec::Drain<'_, Call>, ReadCallsError> {
        self.read(|reader, ready| P::push_value(reader, event, ready))
    }

    fn read(
        &mut self,
        read: impl FnOnce(&mut P::Reader, &mut Vec<Call>) -> Result<(), ReadCallsError>,
    ) -> Result<std::vec::Drain<'_, Call>, ReadCallsError> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        self.ready.clear();
        if let Err(err) = read(&mut self.reader, &mut self.ready) {
            self.ready.clear();
            self.failed = Some(err.clone());
            return Err(err);
        }
        Ok(self.ready.drain(..))
    }

    /// The assembled message, once the events are over: why the stream
    /// ended, the calls to run (every call when it finished, none
    /// otherwise), and the message for the transcript (serialise the
    /// [`Streamed`]).
    ///
    /// # Errors
    /// The stream's first [`ReadCallsError`], if it had one.
    pub fn finish(self) -> Result<Streamed<P>, ReadCallsError> {
        match self.failed {
            Some(err) => Err(err),
            None => P::finish(self.reader),
        }
    }
}

impl<P: Dialect> Default for CallStream<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: Dialect> fmt::Debug for CallStream<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallStream")
            .field("reader", &self.reader)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}
