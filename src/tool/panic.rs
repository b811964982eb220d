//! A panic inside a tool body, caught and lowered into a safe error result.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::{Failure, IntoToolResult, Lowered, ToolError, ToolResult};

/// A tool body panicked. The payload's text is kept here, for Rust alone:
/// the model is told only that the tool failed with an unexpected
/// `ToolPanicked` error, never what the panic said.
///
/// ```
/// use toolresult::tool::{self, Arguments, CallContext, Tool, ToolPanicked};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// let boom = tool::function("boom", "Always panics", |_: NoArgs| -> Result<u8, toolresult::Failure> {
///     panic!("token=SECRET")
/// })?;
/// let lowered = pollster::block_on(boom.call(&Arguments::Json(serde_json::Value::Null), &CallContext::new("c1", "boom")));
/// assert!(!lowered.result.output.contains("SECRET"));
/// let panicked = lowered.diagnostics.source().unwrap().downcast_ref::<ToolPanicked>().unwrap();
/// assert_eq!(panicked.message(), "token=SECRET");
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the tool `{tool}` panicked: {message}")]
#[non_exhaustive]
pub struct ToolPanicked {
    tool: String,
    message: String,
}

impl ToolPanicked {
    /// The panic of the tool `tool`, with the text of its payload (a
    /// payload that is neither `&str` nor `String` reads as
    /// `a panic payload that is not a string`).
    #[must_use]
    pub(crate) fn new(tool: impl Into<String>, payload: &(dyn Any + Send)) -> Self {
        let message = if let Some(text) = payload.downcast_ref::<&'static str>() {
            (*text).to_owned()
        } else if let Some(text) = payload.downcast_ref::<String>() {
            text.clone()
        } else {
            "a panic payload that is not a string".to_owned()
        };
        Self {
            tool: tool.into(),
            message,
        }
    }

    /// The name of the tool that panicked.
    #[must_use]
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The text of the panic payload.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The error result: the unexpected-error message (by the formatter in
    /// force, naming `ToolPanicked`), this panic as the source, never
    /// transient (a panic is a bug; the same call would panic again).
    pub(crate) fn lower(self) -> Lowered {
        ToolResult::<(), ToolError>::fail(Failure::unexpected(self).permanent()).lower()
    }
}

impl ToolPanicked {
    /// The error result of a caught panic of `tool`. The payload is dropped
    /// under its own catch: a payload whose `Drop` panics again must not
    /// unwind into the caller.
    pub(crate) fn caught(tool: &str, payload: Box<dyn Any + Send>) -> Lowered {
        let lowered = Self::new(tool, payload.as_ref()).lower();
        drop_quietly(payload);
        lowered
    }
}

/// Runs `body`, lowering a panic into the [`ToolPanicked`] result.
#[inline]
pub(crate) fn catch_blocking(tool: &str, body: impl FnOnce() -> Lowered) -> Lowered {
    catch_unwind(AssertUnwindSafe(body))
        .unwrap_or_else(|payload| ToolPanicked::caught(tool, payload))
}

/// `inner`, with a panic in any of its polls lowered into the
/// [`ToolPanicked`] result.
#[cfg(feature = "toolbox")]
pub(crate) fn catch_future<F>(tool: &str, inner: F) -> CatchPanic<'_, F>
where
    F: Future<Output = Lowered> + Unpin,
{
    CatchPanic::new(tool, inner)
}

/// Drops `value`, catching a panic of its destructor. The payload of that
/// second panic is leaked rather than dropped: its destructor could panic
/// in turn, and nothing may unwind out of a tool call.
pub(crate) fn drop_quietly<T>(value: T) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(move || drop(value))) {
        std::mem::forget(payload);
    }
}

/// A future that lowers a panic in any poll of its inner future into the
/// [`ToolPanicked`] result, and is then done. The inner future is `Unpin`
/// (a boxed future, as `Tool::call` gives), so it is held as it is.
pub(crate) struct CatchPanic<'a, F> {
    tool: &'a str,
    inner: Option<F>,
}

impl<'a, F: Future<Output = Lowered> + Unpin> CatchPanic<'a, F> {
    pub(crate) fn new(tool: &'a str, inner: F) -> Self {
        Self {
            tool,
            inner: Some(inner),
        }
    }
}

/// A call dropped before it finished (a timeout, a cancelled turn) drops
/// the tool's future here, under a catch: its state's `Drop` may panic too.
impl<F> Drop for CatchPanic<'_, F> {
    fn drop(&mut self) {
        drop_quietly(self.inner.take());
    }
}

impl<F: Future<Output = Lowered> + Unpin> Future for CatchPanic<'_, F> {
    type Output = Lowered;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Lowered> {
        let this = &mut *self;
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(
                ToolPanicked::new(this.tool, &"the tool was polled after it completed").lower(),
            );
        };
        match catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(lowered)) => {
                drop_quietly(this.inner.take());
                Poll::Ready(lowered)
            }
            Err(payload) => {
                drop_quietly(this.inner.take());
                Poll::Ready(ToolPanicked::caught(this.tool, payload))
            }
        }
    }
}
