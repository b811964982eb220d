//! What a provider fills in to have its stream read: the one shape behind
//! [`CallStream`](super::CallStream), kept out of the public API.
//!
//! Sealed on purpose: `Dialect` is the bound of `CallStream<P>` and
//! `Toolbox::run_stream::<P>`, declared `pub` (a bound of a public item
//! must be) in a module the crate does not export, so no one outside can
//! name or implement it. Its methods take the reader's private state and
//! write the provider's JSON by hand; made nameable it would freeze that
//! state into the API, and folded into `Provider` it would ask `Mcp`,
//! which has no stream, for a reader. A user names the four providers that
//! stream (`OpenAiChat`, `OpenAiResponses`, `Anthropic`, `Gemini`), each a
//! public type, which is all a caller of `CallStream::<P>` writes.

use std::fmt;

use serde::Serializer;
use serde_json::Value;

use super::Streamed;
use crate::provider::{Call, ReadCallsError};

/// A provider whose stream [`CallStream`](super::CallStream) reads.
pub trait Dialect: Sized {
    /// What the reader keeps between events.
    type Reader: Default + fmt::Debug;
    /// The assembled message, less its calls (kept once, in [`Streamed`]).
    type Message: fmt::Debug + Clone + PartialEq;

    /// Reads one event's data, adding the calls it made whole to `ready`.
    fn push_text(
        reader: &mut Self::Reader,
        event: &str,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError>;

    /// [`push_text`](Self::push_text) for a parsed event.
    fn push_value(
        reader: &mut Self::Reader,
        event: &Value,
        ready: &mut Vec<Call>,
    ) -> Result<(), ReadCallsError>;

    /// The assembled message and why the stream ended.
    fn finish(reader: Self::Reader) -> Result<Streamed<Self>, ReadCallsError>;

    /// Writes the assembled message, `calls` in their places, as the
    /// provider's own JSON: what its `read_calls` reads.
    fn write<S: Serializer>(
        calls: &[Call],
        message: &Self::Message,
        serializer: S,
    ) -> Result<S::Ok, S::Error>;
}
