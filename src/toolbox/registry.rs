//! `Toolbox`: tools by name, each with its timeout and retry policy.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::budget::{ArtifactStore, Budget, MemoryStore};
use crate::retry::RetryPolicy;
use crate::tool::ArtifactReader;
use crate::tool::{self, Approval, Tool, Values};

use super::RegisterError;

/// The tools an agent offers the model, by name, and how each call of them
/// runs: its timeout, its retry policy (read with the tool's own
/// [`ToolSafety`](crate::tool::ToolSafety)), whether a synchronous tool runs
/// off the executor, and how many calls of a turn run at once.
///
/// [`run`](Self::run) answers every call of a turn exactly once, in call
/// order, under its own id: see the [module docs](super).
///
/// ```
/// use std::time::Duration;
/// use toolresult::retry::RetryPolicy;
/// use toolresult::tool::{self, ToolSafety};
/// use toolresult::toolbox::Toolbox;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct City { city: String }
///
/// let mut toolbox = Toolbox::new()
///     .timeout(Duration::from_secs(30))
///     .retry(RetryPolicy::new().max_attempts(3))
///     .concurrency(8);
/// toolbox.register(
///     tool::function("weather", "Weather in a city", |c: City| format!("sunny in {}", c.city))?
///         .with_safety(ToolSafety::ReadOnly),
/// )?;
/// toolbox
///     .register(tool::function("report", "A slow report", |c: City| c.city)?.blocking())?
///     .timeout(Duration::from_secs(120));
/// assert_eq!(toolbox.names().collect::<Vec<_>>(), ["weather", "report"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use = "a toolbox does nothing until it runs a turn"]
pub struct Toolbox {
    /// The tools in the order they were registered.
    entries: Vec<Registered>,
    /// Where each name is in `entries`.
    by_name: HashMap<String, usize>,
    pub(super) timeout: Option<Duration>,
    pub(super) retry: RetryPolicy,
    pub(super) concurrency: usize,
    pub(super) budget: Budget,
    pub(crate) artifacts: Arc<dyn ArtifactStore>,
    /// The values every tool reads from its context.
    pub(super) values: Option<Arc<Values>>,
    /// Whether a streamed call of a tool without its own word starts as
    /// soon as it is whole ([`Toolbox::start_early`]).
    pub(super) early: bool,
    /// Whether the reader of `artifacts` is registered.
    reader: bool,
    /// The keyring that seals the requests calls park on, and the approvals answered.
    pub(super) sealing: super::sealing::Sealing,
}

/// One registered tool and its own settings.
pub(super) struct Registered {
    name: String,
    pub(super) tool: Arc<dyn Tool>,
    pub(super) options: ToolOptions,
}

/// How one registered tool's calls run, where they differ from the
/// toolbox's defaults; returned by [`Toolbox::register`], which starts them
/// from what the tool asks for ([`Tool::timeout`], [`Tool::budget`],
/// [`Tool::approval`]).
/// (Whether a tool blocks its thread is the tool's own to say:
/// [`Tool::blocks`].)
#[derive(Debug, Clone, Default)]
pub struct ToolOptions {
    pub(super) timeout: Option<Option<Duration>>,
    pub(super) retry: Option<RetryPolicy>,
    pub(super) budget: Option<Budget>,
    pub(super) early: Option<bool>,
    pub(super) approval: Approval,
    pub(super) task: Option<crate::tool::TaskSupport>,
}

impl ToolOptions {
    /// This tool's timeout per attempt (`None`: no timeout), in place of the
    /// toolbox's.
    pub fn timeout(&mut self, timeout: impl Into<Option<Duration>>) -> &mut Self {
        self.timeout = Some(timeout.into());
        self
    }

    /// This tool's retry policy, in place of the toolbox's.
    pub fn retry(&mut self, policy: RetryPolicy) -> &mut Self {
        self.retry = Some(policy);
        self
    }

    /// This tool's output budget, in place of the toolbox's.
    pub fn budget(&mut self, budget: Budget) -> &mut Self {
        self.budget = Some(budget);
        self
    }

    /// Whether this tool's calls need a person's approval before the body
    /// runs, in place of what the tool declares ([`Tool::approval`]).
    ///
    /// ```
    /// use toolresult::tool::{self, Approval};
    /// use toolresult::toolbox::Toolbox;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Path { path: String }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox
    ///     .register(tool::function("rm", "Delete a file", |p: Path| p.path)?)?
    ///     .approval(Approval::always());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn approval(&mut self, approval: Approval) -> &mut Self {
        self.approval = approval;
        self
    }

    /// Whether this tool's calls, in a turn run from a stream
    /// ([`Toolbox::run_stream`]), start as soon as they are whole, in place
    /// of the toolbox's [`start_early`](Toolbox::start_early). Only a tool
    /// whose repeat is harmless ([`ToolSafety::allows_retry`](crate::tool::ToolSafety::allows_retry))
    /// ever starts early: a call started early may be run for nothing.
    pub fn start_early(&mut self, early: bool) -> &mut Self {
        self.early = Some(early);
        self
    }

    /// Whether this tool's calls run as tasks when served over MCP, in
    /// place of the tool's own [`Tool::task_support`](crate::tool::Tool::task_support).
    pub fn task_support(&mut self, task: crate::tool::TaskSupport) -> &mut Self {
        self.task = Some(task);
        self
    }
}

impl Default for Toolbox {
    fn default() -> Self {
        Self::new()
    }
}

impl Toolbox {
    /// The default per-attempt timeout: 60 seconds.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

    /// An empty toolbox: a 60 s timeout per attempt, the default
    /// [`RetryPolicy`] (3 attempts, only for tools whose safety allows a
    /// repeat call), and every call of a turn at once.
    pub fn new() -> Self {
        Self {
            entries: Vec::new(),
            by_name: HashMap::new(),
            timeout: Some(Self::DEFAULT_TIMEOUT),
            retry: RetryPolicy::new(),
            concurrency: usize::MAX,
            budget: Budget::new(),
            artifacts: Arc::new(MemoryStore::new()),
            values: None,
            early: false,
            reader: false,
            sealing: super::sealing::Sealing::default(),
        }
    }

    /// The timeout of each attempt of a call (`None`: none), for tools
    /// without their own.
    pub fn timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.timeout = timeout.into();
        self
    }

    /// The retry policy for tools without their own.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// How many calls of a turn run at once (1: one after another, in call
    /// order; 0 reads as 1). By default, all of them.
    pub fn concurrency(mut self, limit: usize) -> Self {
        self.concurrency = limit.max(1);
        self
    }

    /// Whether, in a turn run from a stream ([`run_stream`](Self::run_stream)),
    /// a call starts as soon as it is whole, for tools without their own
    /// word ([`ToolOptions::start_early`]). By default no call starts
    /// before its message ends. Only a tool whose repeat is harmless
    /// ([`ToolSafety::allows_retry`](crate::tool::ToolSafety::allows_retry))
    /// ever starts early: a stream cut short cancels it, run for nothing.
    pub fn start_early(mut self, early: bool) -> Self {
        self.early = early;
        self
    }

    /// Whether a streamed call of `name` starts as soon as it is whole.
    pub(super) fn starts_early(&self, name: &str) -> bool {
        self.entry(name).is_some_and(|entry| {
            entry.options.early.unwrap_or(self.early) && entry.tool.safety().allows_retry()
        })
    }

    /// The toolbox with `value` attached (in place of one of its type):
    /// every tool reads it with [`CallContext::get`](crate::tool::CallContext::get),
    /// unless the turn attached one of the same type
    /// ([`Turn::with_value`](super::Turn::with_value)).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolresult::provider::Call;
    /// use toolresult::tool::{self, Arguments, CallContext};
    /// use toolresult::toolbox::Toolbox;
    ///
    /// #[derive(Clone)]
    /// struct Pool { name: &'static str }
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct NoArgs {}
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build()?.block_on(async {
    /// let mut toolbox = Toolbox::new().with_value(Pool { name: "main" });
    /// toolbox.register(tool::function("db", "Which database", |_: NoArgs, cx: &CallContext| {
    ///     cx.get::<Pool>().map(|pool| pool.name).unwrap_or("none").to_owned()
    /// })?)?;
    /// let outcomes = toolbox.run([Call::new("c1", "db", Arguments::Json(json!({})))]).await;
    /// assert_eq!(outcomes[0].lowered.result.output, "main");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_value<T: Clone + Send + Sync + 'static>(mut self, value: T) -> Self {
        let mut values = self.values.as_deref().cloned().unwrap_or_default();
        values.insert(value);
        self.values = Some(Arc::new(values));
        self
    }

    /// The output budget of each call's answer, for tools without their
    /// own: what is over is cut to fit and the whole kept as an artifact
    /// ([`Budget::apply`]). By default there is none.
    ///
    /// Register the reader too ([`register_reader`](Self::register_reader)),
    /// so the model can read back what was left out.
    pub fn budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// Where the whole of an answer cut to its budget is kept; by default
    /// a [`MemoryStore`] that lives as long as the toolbox. Pass an
    /// `Arc` of a store to keep a handle on it (to serve MCP's
    /// `resources/read`, say). The reader, if registered, reads this store.
    pub fn artifacts(mut self, store: impl ArtifactStore + 'static) -> Self {
        self.artifacts = Arc::new(store);
        if self.reader
            && let Ok(reader) = ArtifactReader::new(Arc::clone(&self.artifacts))
            && let Some(entry) = self
                .entries
                .iter_mut()
                .find(|entry| entry.name == ArtifactReader::NAME)
        {
            entry.tool = Arc::new(reader);
        }
        self
    }

    /// Adds a tool, with the timeout, budget and approval it asks for
    /// ([`Tool::timeout`], [`Tool::budget`], [`Tool::approval`]: what
    /// `#[tool(timeout = .., budget = .., approval = ..)]` gives) and the toolbox's defaults for the rest; the
    /// returned options set its own.
    ///
    /// # Errors
    /// A tool of the same name is already registered, or the name is one
    /// some provider would refuse (a tool made with [`tool::function`] was
    /// checked when it was defined; any other [`Tool`] is checked here).
    pub fn register(
        &mut self,
        tool: impl Tool + 'static,
    ) -> Result<&mut ToolOptions, RegisterError> {
        let name = tool.name().to_owned();
        tool::check_name(&name)?;
        if self.by_name.contains_key(&name) {
            return Err(RegisterError::Duplicate(name));
        }
        let options = ToolOptions {
            timeout: tool.timeout(),
            retry: None,
            budget: tool.budget(),
            early: None,
            approval: tool.approval(),
            task: None,
        };
        self.by_name.insert(name.clone(), self.entries.len());
        self.entries.push(Registered {
            name,
            tool: Arc::new(tool),
            options,
        });
        match self.entries.last_mut() {
            Some(registered) => Ok(&mut registered.options),
            None => Err(RegisterError::Duplicate(String::new())),
        }
    }

    /// Adds the [`ArtifactReader`] (`read_artifact`) over this toolbox's
    /// [`artifacts`](Self::artifacts), so the model can read back what a
    /// budget left out (also when [`artifacts`](Self::artifacts) is set
    /// after). Its own answers are not budgeted: a slice is at most
    /// [`ArtifactReader::MAX_LENGTH`] bytes of text, which JSON escaping
    /// can make longer (a control character is six bytes in JSON).
    ///
    /// # Errors
    /// A tool named `read_artifact` is already registered.
    pub fn register_reader(&mut self) -> Result<&mut ToolOptions, RegisterError> {
        let reader = ArtifactReader::new(Arc::clone(&self.artifacts))?;
        if self.entry(ArtifactReader::NAME).is_none() {
            self.reader = true;
        }
        let options = self.register(reader)?;
        Ok(options.budget(Budget::new()))
    }

    /// The tool named `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&dyn Tool> {
        self.entry(name).map(|entry| &*entry.tool)
    }

    /// The registered tools, in the order they were registered: declare
    /// them all with a provider's `declare_tools`
    /// (`Anthropic::declare_tools(&toolbox.tools())`).
    #[must_use]
    pub fn tools(&self) -> Vec<&dyn Tool> {
        self.entries.iter().map(|entry| &*entry.tool).collect()
    }

    /// The names of the registered tools, in the order they were registered.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|entry| entry.name.as_str())
    }

    /// Whether calls of the tool `name` run as tasks: its options' word,
    /// else the tool's own; `None` for a tool not registered.
    #[cfg(feature = "mcp-server")]
    pub(crate) fn task_support(&self, name: &str) -> Option<crate::tool::TaskSupport> {
        let entry = self.entry(name)?;
        Some(
            entry
                .options
                .task
                .unwrap_or_else(|| entry.tool.task_support()),
        )
    }

    #[inline]
    pub(super) fn entry(&self, name: &str) -> Option<&Registered> {
        // A few tools are found faster by comparing names than by hashing.
        if self.entries.len() <= 8 {
            return self.entries.iter().find(|entry| entry.name == name);
        }
        self.by_name.get(name).and_then(|&at| self.entries.get(at))
    }
}

impl fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolbox")
            .field("tools", &self.names().collect::<Vec<_>>())
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .field("concurrency", &self.concurrency)
            .field("early", &self.early)
            .field("budget", &self.budget)
            .field("artifacts", &self.artifacts)
            .finish()
    }
}
