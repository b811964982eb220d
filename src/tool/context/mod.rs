//! `CallContext`: what a tool sees of its own call.

mod cancellation;
mod deadline;
mod event;
mod scope;

use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};

use crate::canonical::Answer;

use cancellation::Cancel;
use deadline::Deadline;
pub(crate) use deadline::LazyDeadline;
pub(crate) use event::Observer;
pub use event::{CallEvent, LogLevel};
pub(crate) use scope::{Scope, Values};

/// What a tool sees of its own call: its id and tool name, the attempt, the
/// deadline, a cancellation signal, progress and log reporting, the
/// [`Answer`] of a resumed call, and the typed values its caller attached.
///
/// A tool that needs none of it does not mention it: `tool::function`
/// takes `|args: A| ..` as it always did. One that does says so in its
/// signature: a synchronous body takes `&CallContext`, an asynchronous one
/// owns its context, `CallContext<'static>` (a future may outlive the
/// borrow it was called with).
///
/// The toolbox builds one for every attempt, on the stack, borrowing what
/// it already holds: a tool that ignores it costs no allocation for it.
/// Outside a toolbox (a test, a server of your own), [`CallContext::new`]
/// makes one.
///
/// ```
/// use toolresult::tool::{self, CallContext, Tool};
/// use toolresult::tool::Arguments;
///
/// #[derive(Clone)]
/// struct Tenant(&'static str);
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Query { sql: String }
///
/// let query = tool::function("query", "Run a query", |q: Query, cx: &CallContext| {
///     let tenant = cx.get::<Tenant>().map_or("none", |t| t.0);
///     format!("{} for {tenant} (call {}, attempt {})", q.sql, cx.call_id(), cx.attempt())
/// })?;
///
/// let cx = CallContext::new("call_1", "query").with_value(Tenant("acme"));
/// let args = Arguments::Json(serde_json::json!({"sql": "select 1"}));
/// let lowered = pollster::block_on(query.call(&args, &cx));
/// assert_eq!(lowered.result.output, "select 1 for acme (call call_1, attempt 1)");
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
#[derive(Clone)]
pub struct CallContext<'a> {
    id: Cow<'a, str>,
    tool: Cow<'a, str>,
    attempt: u32,
    deadline: Deadline<'a>,
    cancel: Cancel<'a>,
    answer: Option<Held<'a, Answer>>,
    scope: Cow<'a, Scope>,
}

/// A value a context borrows, or owns behind a pointer: a context stays
/// small whichever it holds.
enum Held<'a, T> {
    Borrowed(&'a T),
    Owned(Arc<T>),
}

impl<T> Held<'_, T> {
    fn get(&self) -> &T {
        match self {
            Self::Borrowed(value) => value,
            Self::Owned(value) => value,
        }
    }
}

impl<T: Clone> Held<'_, T> {
    fn into_owned(self) -> Held<'static, T> {
        match self {
            Self::Borrowed(value) => Held::Owned(Arc::new(value.clone())),
            Self::Owned(value) => Held::Owned(value),
        }
    }
}

impl<T> Clone for Held<'_, T> {
    fn clone(&self) -> Self {
        match self {
            Self::Borrowed(value) => Self::Borrowed(value),
            Self::Owned(value) => Self::Owned(Arc::clone(value)),
        }
    }
}

impl CallContext<'static> {
    /// The context of call `id` of the tool `tool`, outside a toolbox: the
    /// first attempt, no deadline, a cancellation signal of its own, no
    /// answer, no values, no observer. The `with_*` methods set the rest.
    #[must_use]
    pub fn new(id: impl Into<String>, tool: impl Into<String>) -> Self {
        Self {
            id: Cow::Owned(id.into()),
            tool: Cow::Owned(tool.into()),
            attempt: 1,
            deadline: Deadline::Fixed(None),
            cancel: Cancel::Token(CancellationToken::new()),
            answer: None,
            scope: Cow::Owned(Scope::default()),
        }
    }
}

impl<'a> CallContext<'a> {
    /// The context of one attempt inside a runner that owns the pieces:
    /// borrows them, allocates nothing.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn borrowed(
        id: &'a str,
        tool: &'a str,
        attempt: u32,
        deadline: Option<&'a LazyDeadline>,
        slot: &'a OnceLock<CancellationToken>,
        parent: Option<&'a CancellationToken>,
        answer: Option<&'a Answer>,
        scope: &'a Scope,
    ) -> Self {
        Self {
            id: Cow::Borrowed(id),
            tool: Cow::Borrowed(tool),
            attempt,
            deadline: match deadline {
                Some(lazy) => Deadline::Lazy(lazy),
                None => Deadline::Fixed(None),
            },
            cancel: Cancel::Lazy { slot, parent },
            answer: answer.map(Held::Borrowed),
            scope: Cow::Borrowed(scope),
        }
    }

    /// The provider's id of the call.
    #[must_use]
    pub fn call_id(&self) -> &str {
        &self.id
    }

    /// The name of the tool called.
    #[must_use]
    pub fn tool_name(&self) -> &str {
        &self.tool
    }

    /// The attempt, from 1: a retry of the call is attempt 2, and so on.
    #[must_use]
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// When this attempt times out, if it has a timeout. In a toolbox it is
    /// fixed the first time it is read or the call first waits, whichever
    /// comes first: the instant the attempt's timer fires.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline.at()
    }

    /// Whether the call was cancelled: its turn was cancelled, it timed
    /// out, or (over MCP) its client cancelled it.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancel.token().is_cancelled()
    }

    /// Completes when the call is cancelled; race it against the work
    /// (`tokio::select!`) to stop early.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolresult::tool::CallContext;
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true).build()?.block_on(async {
    /// let cx = CallContext::new("c1", "slow");
    /// let token = cx.cancellation_token();
    /// tokio::spawn(async move { tokio::time::sleep(Duration::from_secs(1)).await; token.cancel() });
    /// let stopped = tokio::select! {
    ///     () = cx.cancelled() => "stopped",
    ///     () = tokio::time::sleep(Duration::from_secs(3600)) => "finished",
    /// };
    /// assert_eq!(stopped, "stopped");
    /// assert!(cx.is_cancelled());
    /// # });
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn cancelled(&self) -> WaitForCancellationFuture<'_> {
        self.cancel.token().cancelled()
    }

    /// The call's cancellation token, to hand to work the tool starts
    /// (a spawned task, a child process's watchdog).
    #[must_use]
    pub fn cancellation_token(&self) -> CancellationToken {
        self.cancel.token().clone()
    }

    /// Reports progress: `done` so far, out of `total` when known, with an
    /// optional message. When no one listens it costs a check and nothing more.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use toolresult::tool::{CallContext, CallEvent};
    ///
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let sink = Arc::clone(&seen);
    /// let cx = CallContext::new("c1", "index").with_observer(move |event: &CallEvent<'_>| {
    ///     if let CallEvent::Progress { done, total, .. } = *event {
    ///         sink.lock().unwrap().push((done, total));
    ///     }
    /// });
    /// cx.progress(1.0, Some(4.0), Some("reading"));
    /// cx.progress(4.0, Some(4.0), None);
    /// assert_eq!(*seen.lock().unwrap(), [(1.0, Some(4.0)), (4.0, Some(4.0))]);
    /// ```
    #[inline]
    pub fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        #[cfg(feature = "tracing")]
        tracing::debug!(
            gen_ai.tool.name = %self.tool,
            gen_ai.tool.call.id = %self.id,
            done,
            total,
            message,
            "tool progress"
        );
        if let Some(observer) = &self.scope.observer {
            observer(&CallEvent::Progress {
                call_id: &self.id,
                tool: &self.tool,
                done,
                total,
                message,
            });
        }
    }

    /// Sends a log message to whoever runs the call (over MCP, a
    /// `notifications/message` at or above the client's level).
    #[inline]
    pub fn log(&self, level: LogLevel, message: &str) {
        #[cfg(feature = "tracing")]
        tracing::debug!(
            gen_ai.tool.name = %self.tool,
            gen_ai.tool.call.id = %self.id,
            level = level.as_str(),
            message,
            "tool log"
        );
        if let Some(observer) = &self.scope.observer {
            observer(&CallEvent::Log {
                call_id: &self.id,
                tool: &self.tool,
                level,
                message,
            });
        }
    }

    /// The [`Answer`] a suspended call was resumed with; `None` on a call's
    /// first run.
    ///
    /// ```
    /// use toolresult::canonical::{Answer, Request};
    /// use toolresult::tool::CallContext;
    /// use toolresult::ToolResult;
    ///
    /// fn deploy(cx: &CallContext) -> ToolResult<&'static str> {
    ///     match cx.answer() {
    ///         Some(answer) if answer.ok => ToolResult::ok("deployed"),
    ///         Some(_) => ToolResult::ok("not deployed: declined"),
    ///         None => ToolResult::pending(Request::input("Deploy to production?").with_id("deploy-1")),
    ///     }
    /// }
    /// assert!(deploy(&CallContext::new("c1", "deploy")).pending_request().is_some());
    /// let resumed = CallContext::new("c1", "deploy").with_answer(Answer::granted("deploy-1", None));
    /// assert_eq!(deploy(&resumed).value(), Some(&"deployed"));
    /// ```
    #[must_use]
    pub fn answer(&self) -> Option<&Answer> {
        self.answer.as_ref().map(Held::get)
    }

    /// The value of type `T` the caller attached to the call's turn, else
    /// to its toolbox.
    #[must_use]
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        let turn = self.scope.turn.as_deref().and_then(Values::get::<T>);
        turn.or_else(|| self.scope.toolbox.as_deref().and_then(Values::get::<T>))
    }

    /// This context, owning what it borrowed: for a future that outlives
    /// the call it was made in. Its cancellation signal is the same one.
    #[must_use]
    pub fn into_owned(self) -> CallContext<'static> {
        let cancel = match self.cancel {
            Cancel::Token(token) => token,
            lazy @ Cancel::Lazy { .. } => lazy.token().clone(),
        };
        CallContext {
            id: Cow::Owned(self.id.into_owned()),
            tool: Cow::Owned(self.tool.into_owned()),
            attempt: self.attempt,
            deadline: Deadline::Fixed(self.deadline.at()),
            cancel: Cancel::Token(cancel),
            answer: self.answer.map(Held::into_owned),
            scope: Cow::Owned(self.scope.into_owned()),
        }
    }

    /// The same context, at attempt `attempt`.
    #[must_use]
    pub fn with_attempt(mut self, attempt: u32) -> Self {
        self.attempt = attempt;
        self
    }

    /// The same context, with a deadline.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Deadline::Fixed(Some(deadline));
        self
    }

    /// The same context, cancelled through `token`.
    #[must_use]
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancel = Cancel::Token(token);
        self
    }

    /// The same context, resumed with `answer`.
    #[must_use]
    pub fn with_answer(mut self, answer: Answer) -> Self {
        self.answer = Some(Held::Owned(Arc::new(answer)));
        self
    }

    /// The same context, with `value` attached (in place of one of its
    /// type), as a turn attaches it.
    #[must_use]
    pub fn with_value<T: Clone + Send + Sync + 'static>(mut self, value: T) -> Self {
        let scope = self.scope.to_mut();
        let mut values = scope.turn.as_deref().cloned().unwrap_or_default();
        values.insert(value);
        scope.turn = Some(Arc::new(values));
        self
    }

    /// The same context, its events handed to `observer`.
    #[must_use]
    pub fn with_observer(
        mut self,
        observer: impl Fn(&CallEvent<'_>) + Send + Sync + 'static,
    ) -> Self {
        self.scope.to_mut().observer = Some(Arc::new(observer));
        self
    }
}

impl fmt::Debug for CallContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("call_id", &self.id)
            .field("tool", &self.tool)
            .field("attempt", &self.attempt)
            .field("deadline", &self.deadline.at())
            .field("answer", &self.answer())
            .finish_non_exhaustive()
    }
}
