//! What every typed tool is defined with: name, description, schemas,
//! safety, the timeout and budget it asks for, and its wording of
//! unexpected errors.

use std::time::Duration;

use schemars::{JsonSchema, Schema};

use super::name::{self, InvalidToolName};
use super::schema::{input_schema, model_facing_schema, output_schema};
use super::{ToolReturn, ToolSafety};
use crate::budget::Budget;
use crate::{Lowered, ToolError, UnexpectedError};

/// The parts of a tool's definition that do not depend on its body.
pub(crate) struct Definition {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) title: Option<String>,
    pub(crate) input: Schema,
    pub(crate) output: Schema,
    pub(crate) model_facing: Schema,
    pub(crate) safety: ToolSafety,
    pub(crate) blocks: bool,
    /// The timeout the tool asks for ([`Tool::timeout`](super::Tool::timeout)).
    pub(crate) timeout: Option<Option<Duration>>,
    /// The budget the tool asks for ([`Tool::budget`](super::Tool::budget)).
    pub(crate) budget: Option<Budget>,
    /// Whether a call needs approval ([`Tool::approval`](super::Tool::approval)).
    pub(crate) approval: super::Approval,
    /// Whether its calls run as tasks ([`Tool::task_support`](super::Tool::task_support)).
    pub(crate) task: super::TaskSupport,
    pub(crate) unexpected: Option<fn(&UnexpectedError) -> ToolError>,
}

impl Definition {
    /// The definition of a tool taking `Args` and returning `R`; the name
    /// is checked against every provider's rule, the schemas made once.
    pub(crate) fn of<Args: JsonSchema, R: ToolReturn>(
        name: String,
        description: String,
    ) -> Result<Self, InvalidToolName> {
        name::check(&name)?;
        Ok(Self::checked::<Args, R>(name, description))
    }

    /// The same, for a name checked already (by `#[tool]`, at compile time).
    pub(crate) fn checked<Args: JsonSchema, R: ToolReturn>(
        name: String,
        description: String,
    ) -> Self {
        Self {
            name,
            description,
            title: None,
            input: input_schema::<Args>(),
            output: output_schema::<R::Value>(),
            model_facing: model_facing_schema::<R::Value, R::Error>(),
            safety: ToolSafety::default(),
            blocks: false,
            timeout: None,
            budget: None,
            approval: super::Approval::never(),
            task: super::TaskSupport::Forbidden,
            unexpected: None,
        }
    }

    /// The last step of every call: the tool's own wording of unexpected
    /// errors, when it has one.
    #[inline]
    pub(crate) fn finish(&self, mut lowered: Lowered) -> Lowered {
        if let Some(formatter) = self.unexpected {
            lowered.reword_unexpected(formatter);
        }
        lowered
    }
}

/// The builder methods and the `Tool` accessors both tool types share.
macro_rules! defined_tool {
    ($tool:ident) => {
        impl<Args, X, F> $tool<Args, X, F> {
            /// The same tool declaring what it does to the world (the
            /// default promises nothing): the retry policy reads it, and MCP
            /// declarations carry it as annotations.
            pub fn with_safety(mut self, safety: $crate::tool::ToolSafety) -> Self {
                self.definition.safety = safety;
                self
            }

            /// The same tool needing a person's approval of its calls as
            /// `approval` says ([`Tool::approval`](crate::tool::Tool::approval)):
            /// see [`Approval`](crate::tool::Approval).
            pub fn with_approval(mut self, approval: $crate::tool::Approval) -> Self {
                self.definition.approval = approval;
                self
            }

            /// The same tool declaring whether its calls run as tasks,
            /// answered at once and read later (the default: never).
            pub fn with_task_support(mut self, task: $crate::tool::TaskSupport) -> Self {
                self.definition.task = task;
                self
            }

            /// The same tool with a name for people, `title` (MCP's
            /// `Tool.title`, which clients show in place of the name).
            ///
            /// ```
            /// use toolresult::tool::{self, Tool};
            ///
            /// #[derive(serde::Deserialize, schemars::JsonSchema)]
            /// struct City { city: String }
            ///
            /// let weather = tool::function("weather", "Weather in a city", |c: City| c.city)?
            ///     .with_title("Weather");
            /// assert_eq!(weather.title(), Some("Weather"));
            /// # Ok::<(), toolresult::tool::InvalidToolName>(())
            /// ```
            pub fn with_title(mut self, title: impl Into<String>) -> Self {
                self.definition.title = Some(title.into());
                self
            }

            /// The same tool wording its unexpected errors (a `?` on any
            /// error, a panic) with `formatter`, which sees the error's type
            /// and I/O kind, never its text. The default is
            /// [`UnexpectedError::default_message`](crate::UnexpectedError::default_message).
            ///
            /// ```
            /// use toolresult::tool::{self, Tool};
            /// use toolresult::{Failure, ToolError, UnexpectedError};
            ///
            /// #[derive(serde::Deserialize, schemars::JsonSchema)]
            /// struct Path { path: String }
            ///
            /// fn terse(e: &UnexpectedError) -> ToolError {
            ///     ToolError::new("internal error").with_suggestion(format!("report `{}`", e.type_name))
            /// }
            ///
            /// let read = tool::function("read", "Read a file", |p: Path| -> Result<String, Failure> {
            ///     Ok(std::fs::read_to_string(p.path)?)
            /// })?
            /// .with_unexpected_message(terse);
            /// let args = tool::Arguments::Json(serde_json::json!({"path": "/no/such/file"}));
            /// let lowered = pollster::block_on(read.call(&args, &tool::CallContext::new("c1", "read")));
            /// assert_eq!(
            ///     lowered.result.output,
            ///     r#"{"error":{"message":"internal error","suggestion":"report `std::io::Error`"}}"#
            /// );
            /// # Ok::<(), toolresult::tool::InvalidToolName>(())
            /// ```
            pub fn with_unexpected_message(
                mut self,
                formatter: fn(&$crate::UnexpectedError) -> $crate::ToolError,
            ) -> Self {
                self.definition.unexpected = Some(formatter);
                self
            }
        }

        impl<Args, X, F> std::fmt::Debug for $tool<Args, X, F> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($tool))
                    .field("name", &self.definition.name)
                    .field("description", &self.definition.description)
                    .field("safety", &self.definition.safety)
                    .finish_non_exhaustive()
            }
        }
    };
}

/// The `Tool` methods read from the definition.
macro_rules! definition_accessors {
    () => {
        fn name(&self) -> &str {
            &self.definition.name
        }

        fn description(&self) -> &str {
            &self.definition.description
        }

        fn title(&self) -> Option<&str> {
            self.definition.title.as_deref()
        }

        fn input_schema(&self) -> &schemars::Schema {
            &self.definition.input
        }

        fn output_schema(&self) -> &schemars::Schema {
            &self.definition.output
        }

        fn model_facing_schema(&self) -> &schemars::Schema {
            &self.definition.model_facing
        }

        fn safety(&self) -> $crate::tool::ToolSafety {
            self.definition.safety
        }

        fn timeout(&self) -> Option<Option<std::time::Duration>> {
            self.definition.timeout
        }

        fn approval(&self) -> $crate::tool::Approval {
            self.definition.approval.clone()
        }

        fn check_arguments(&self, args: &$crate::tool::Arguments) -> Result<(), $crate::Lowered> {
            match $crate::tool::InvalidArguments::decode_arguments::<Args>(args) {
                Ok(_) => Ok(()),
                Err(invalid) => Err(self.definition.finish(invalid.lower(&self.definition.name))),
            }
        }

        fn budget(&self) -> Option<$crate::budget::Budget> {
            self.definition.budget
        }

        fn task_support(&self) -> $crate::tool::TaskSupport {
            self.definition.task
        }
    };
}

pub(crate) use {defined_tool, definition_accessors};
