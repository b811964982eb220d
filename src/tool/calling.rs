//! `Calling`: the future of one tool call.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::Lowered;

use super::panic::ToolPanicked;

/// The future of one call of a [`Tool`](super::Tool): done at once for a
/// synchronous tool, a boxed future for an asynchronous one.
///
/// It never panics, however it is polled: polled again after it gave its
/// answer, it gives an error result (naming `ToolPanicked`, with the
/// source saying it was polled after it completed) instead of the panic an
/// `async` block gives.
///
/// ```
/// use toolresult::tool::Calling;
/// use toolresult::{IntoToolResult, ToolResult};
///
/// let calling = Calling::ready(ToolResult::<_>::ok(42).lower());
/// assert_eq!(calling.now().map(|lowered| lowered.result.output).ok(), Some("42".to_owned()));
///
/// let later = Calling::new(async { ToolResult::<_>::ok("later").lower() });
/// assert_eq!(pollster::block_on(later).result.output, "later");
/// ```
#[must_use = "a call does nothing until it is awaited"]
pub struct Calling<'a>(State<'a>);

// Unboxed: a synchronous call's answer costs no allocation here.
#[allow(clippy::large_enum_variant)]
enum State<'a> {
    Ready(Lowered),
    Running(Pin<Box<dyn Future<Output = Lowered> + Send + 'a>>),
    Done,
}

impl<'a> Calling<'a> {
    /// A call answered already (a synchronous tool's).
    pub fn ready(lowered: Lowered) -> Self {
        Self(State::Ready(lowered))
    }

    /// A call still running: `future` gives its answer.
    pub fn new(future: impl Future<Output = Lowered> + Send + 'a) -> Self {
        Self(State::Running(Box::pin(future)))
    }

    /// The answer, when the call is answered already; else the call, to
    /// await.
    ///
    /// # Errors
    /// The call is still running: `self`, to await.
    pub fn now(self) -> Result<Lowered, Self> {
        match self.0 {
            State::Ready(lowered) => Ok(lowered),
            other => Err(Self(other)),
        }
    }

    /// The answer, when the call is answered already; else the future
    /// that gives it, without the room an answer takes (what a runner
    /// keeps while the call runs).
    #[inline]
    pub(crate) fn started(
        self,
    ) -> Result<Lowered, Pin<Box<dyn Future<Output = Lowered> + Send + 'a>>> {
        match self.0 {
            State::Ready(lowered) => Ok(lowered),
            State::Running(future) => Err(future),
            State::Done => Ok(polled_after_completion()),
        }
    }
}

/// The answer of a call polled again after it gave its answer.
fn polled_after_completion() -> Lowered {
    ToolPanicked::new("", &"the call was polled after it completed").lower()
}

impl Future for Calling<'_> {
    type Output = Lowered;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Lowered> {
        let this = &mut self.0;
        if let State::Running(future) = this {
            let lowered = std::task::ready!(future.as_mut().poll(cx));
            *this = State::Done;
            return Poll::Ready(lowered);
        }
        match std::mem::replace(this, State::Done) {
            State::Ready(lowered) => Poll::Ready(lowered),
            _ => Poll::Ready(polled_after_completion()),
        }
    }
}

impl fmt::Debug for Calling<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match self.0 {
            State::Ready(_) => "ready",
            State::Running(_) => "running",
            State::Done => "done",
        };
        f.debug_tuple("Calling").field(&state).finish()
    }
}
