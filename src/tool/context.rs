//! `CallContext`: what a tool sees of its own call.

use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};

use crate::canonical::Answer;

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

/// What a tool reports while it runs, handed to the observer of its call
/// (`Turn::with_observer` in a toolbox, or
/// [`CallContext::with_observer`]), and, with the `tracing` feature, emitted
/// as a `tracing` event.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum CallEvent<'a> {
    /// Progress: `done` so far, out of `total` when it is known.
    Progress {
        /// The call's id.
        call_id: &'a str,
        /// The tool's name.
        tool: &'a str,
        /// How much is done.
        done: f64,
        /// How much there is in all, when known.
        total: Option<f64>,
        /// What the tool is doing, for a person.
        message: Option<&'a str>,
    },
    /// A log message, at one of MCP's (syslog's) levels.
    Log {
        /// The call's id.
        call_id: &'a str,
        /// The tool's name.
        tool: &'a str,
        /// How severe.
        level: LogLevel,
        /// The message.
        message: &'a str,
    },
}

/// The severity of a log message a tool sends through its context: the
/// syslog levels MCP's `logging` utility uses, least severe first.
///
/// ```
/// use toolresult::tool::LogLevel;
/// assert!(LogLevel::Warning > LogLevel::Info);
/// assert_eq!(LogLevel::Warning.as_str(), "warning");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// Normal operational messages.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// The level's name as MCP writes it: `debug`, `info`, ..., `emergency`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }
}

/// The observer of a call's events.
pub(crate) type Observer = Arc<dyn Fn(&CallEvent<'_>) + Send + Sync>;

/// A type map of values a caller attaches, looked up by type.
pub(crate) type Values = http::Extensions;

/// What the caller of a call shares with it: the observer of its events and
/// the values attached to its turn and to its toolbox (the turn's first).
#[derive(Clone, Default)]
pub(crate) struct Scope {
    pub(crate) observer: Option<Observer>,
    pub(crate) turn: Option<Arc<Values>>,
    pub(crate) toolbox: Option<Arc<Values>>,
}

/// When an attempt run by a toolbox times out: its limit after it began,
/// the beginning taken the first time anyone asks (the tool, or the
/// attempt's timer once the call waits), so that an attempt nobody asks
/// about reads no clock, and the tool reads the instant its timer fires.
pub(crate) struct LazyDeadline {
    limit: Duration,
    now: fn() -> Instant,
    at: OnceLock<Option<Instant>>,
}

impl LazyDeadline {
    /// `limit` after the first instant `now` gives when asked.
    pub(crate) fn new(limit: Duration, now: fn() -> Instant) -> Self {
        Self {
            limit,
            now,
            at: OnceLock::new(),
        }
    }

    /// The attempt's limit.
    pub(crate) fn limit(&self) -> Duration {
        self.limit
    }

    /// The deadline, fixed at the first call; `None` past what an
    /// `Instant` can hold.
    pub(crate) fn at(&self) -> Option<Instant> {
        *self.at.get_or_init(|| (self.now)().checked_add(self.limit))
    }
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

/// A call's deadline.
#[derive(Clone, Copy)]
enum Deadline<'a> {
    /// Known (or none).
    Fixed(Option<Instant>),
    /// Taken when first asked for.
    Lazy(&'a LazyDeadline),
}

impl Deadline<'_> {
    fn at(self) -> Option<Instant> {
        match self {
            Self::Fixed(at) => at,
            Self::Lazy(lazy) => lazy.at(),
        }
    }
}

/// The call's cancellation signal.
#[derive(Clone)]
enum Cancel<'a> {
    /// Made the first time the tool asks for it, as a child of the turn's
    /// token; whoever runs the call fires it through the slot (a timeout),
    /// or through the parent (the turn cancelled).
    Lazy {
        slot: &'a OnceLock<CancellationToken>,
        parent: Option<&'a CancellationToken>,
    },
    /// A token of its own.
    Token(CancellationToken),
}

impl<'a> Cancel<'a> {
    fn token(&self) -> &CancellationToken {
        match self {
            Self::Lazy { slot, parent } => slot.get_or_init(|| match parent {
                Some(parent) => parent.child_token(),
                None => CancellationToken::new(),
            }),
            Self::Token(token) => token,
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
    /// optional message. Costs a few nanoseconds when no one listens.
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
