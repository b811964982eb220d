//! The `Answer` a resumed call runs with, where its tool can read it.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use crate::canonical::Answer;

thread_local! {
    static CURRENT: RefCell<Option<Arc<Answer>>> = const { RefCell::new(None) };
}

/// The [`Answer`] the running call was resumed with
/// ([`Toolbox::resume`](super::Toolbox::resume)); `None` on a call's first
/// run, and outside a call.
///
/// A tool that suspends (returns a pending [`Request`](crate::canonical::Request))
/// reads it when it runs again: it is set while the tool's body runs, on
/// whichever thread runs it.
///
/// ```
/// use toolresult::canonical::Request;
/// use toolresult::toolbox;
/// use toolresult::ToolResult;
///
/// fn deploy() -> ToolResult<&'static str> {
///     match toolbox::answer() {
///         Some(answer) if answer.ok => ToolResult::ok("deployed"),
///         Some(_) => ToolResult::ok("not deployed: declined"),
///         None => ToolResult::pending(Request::input("Deploy to production?").with_id("deploy-1")),
///     }
/// }
/// assert!(toolbox::answer().is_none());
/// assert!(deploy().pending_request().is_some());
/// ```
#[must_use]
pub fn answer() -> Option<Answer> {
    CURRENT.with(|current| current.borrow().as_deref().cloned())
}

/// Runs `f` with `answer` as the current answer, restoring the previous one
/// after (also when `f` panics).
pub(crate) fn with_answer<R>(answer: Option<&Arc<Answer>>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Arc<Answer>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|current| *current.borrow_mut() = previous);
        }
    }
    let previous = CURRENT.with(|current| current.replace(answer.cloned()));
    let _restore = Restore(previous);
    f()
}

/// A future whose every poll runs with its answer as the current one.
pub(crate) struct WithAnswer<F> {
    answer: Option<Arc<Answer>>,
    inner: F,
}

impl<F: Future + Unpin> WithAnswer<F> {
    pub(crate) fn new(answer: Option<Arc<Answer>>, inner: F) -> Self {
        Self { answer, inner }
    }
}

impl<F: Future + Unpin> Future for WithAnswer<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = &mut *self;
        let inner = Pin::new(&mut this.inner);
        // A first run inside no resumed call has nothing to set.
        if this.answer.is_none() && CURRENT.with(|current| current.borrow().is_none()) {
            return inner.poll(cx);
        }
        with_answer(this.answer.as_ref(), || inner.poll(cx))
    }
}
