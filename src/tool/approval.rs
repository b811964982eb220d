//! `Approval`: whether a call needs a person's approval before its body
//! runs.

use std::fmt;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::CallContext;

/// The test of one call: `Some(why)` when it needs approval.
type Test = dyn Fn(&Value, &CallContext<'_>) -> Option<String> + Send + Sync;

/// Whether a call of a tool needs a person's approval before its body
/// runs: [`never`](Self::never) (the default), [`always`](Self::always),
/// or [`when`](Self::when) a function of the call's arguments and context
/// says why.
///
/// A tool declares it ([`Tool::approval`](super::Tool::approval),
/// [`FunctionTool::with_approval`](super::FunctionTool::with_approval),
/// `#[tool(approval = always)]`); its registration may say otherwise
/// ([`ToolOptions::approval`](crate::toolbox::ToolOptions::approval)). A
/// toolbox parks a call that needs approval before its body runs, on a
/// [`Request`](crate::canonical::Request) of kind
/// [`APPROVAL`](crate::canonical::Request::APPROVAL); arguments that do
/// not decode are answered as bad arguments before anyone is asked.
///
/// ```
/// use toolresult::tool::{self, Approval, Tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Pay { cents: u64 }
///
/// let pay = tool::function("pay", "Pay an invoice", |p: Pay| format!("paid {}", p.cents))?
///     .with_approval(Approval::when(|p: &Pay, _| {
///         (p.cents > 10_000).then(|| format!("{} cents is over the 100.00 limit", p.cents))
///     }));
/// let cx = tool::CallContext::new("c1", "pay");
/// assert_eq!(pay.approval().reason(&serde_json::json!({"cents": 50_000}), &cx).as_deref(),
///     Some("50000 cents is over the 100.00 limit"));
/// assert_eq!(pay.approval().reason(&serde_json::json!({"cents": 5}), &cx), None);
/// assert!(Approval::never().is_never());
/// # Ok::<(), toolresult::tool::InvalidToolName>(())
/// ```
#[derive(Clone, Default)]
#[must_use]
pub struct Approval(Kind);

#[derive(Clone, Default)]
enum Kind {
    #[default]
    Never,
    Always,
    When(Arc<Test>),
}

impl Approval {
    /// The reason a call that always needs approval is given.
    pub const ALWAYS_REASON: &'static str = "every call of this tool needs approval";

    /// No call needs approval (the default).
    pub fn never() -> Self {
        Self(Kind::Never)
    }

    /// Every call needs approval.
    pub fn always() -> Self {
        Self(Kind::Always)
    }

    /// A call needs approval when `test`, given the call's arguments
    /// decoded as `A` and its context, says why (`Some(reason)`; the
    /// person asked reads the reason). Arguments that do not decode as `A`
    /// need approval: the test fails closed.
    pub fn when<A, F>(test: F) -> Self
    where
        A: DeserializeOwned,
        F: Fn(&A, &CallContext<'_>) -> Option<String> + Send + Sync + 'static,
    {
        Self(Kind::When(Arc::new(
            move |arguments, cx| match A::deserialize(arguments) {
                Ok(arguments) => test(&arguments, cx),
                Err(_) => Some("its arguments could not be read to decide".to_owned()),
            },
        )))
    }

    /// Whether no call needs approval.
    #[must_use]
    pub fn is_never(&self) -> bool {
        matches!(self.0, Kind::Never)
    }

    /// Why the call with `arguments` (as JSON) needs approval, or `None`
    /// when it does not.
    #[must_use]
    pub fn reason(&self, arguments: &Value, cx: &CallContext<'_>) -> Option<String> {
        match &self.0 {
            Kind::Never => None,
            Kind::Always => Some(Self::ALWAYS_REASON.to_owned()),
            Kind::When(test) => test(arguments, cx),
        }
    }
}

impl fmt::Debug for Approval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Kind::Never => "Approval::never()",
            Kind::Always => "Approval::always()",
            Kind::When(_) => "Approval::when(..)",
        })
    }
}
