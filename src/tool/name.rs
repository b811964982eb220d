//! Tool names every provider accepts.

use std::fmt;

use crate::canonical::shorten;

/// The longest tool name, in bytes (OpenAI, Anthropic and Gemini all stop at 64).
const MAX_LEN: usize = 64;

/// A tool name that some provider would refuse, and why.
///
/// A tool is declared to whichever provider the agent talks to, so its name
/// must pass every provider's rule, checked when the tool is defined:
/// 1 to 64 characters of ASCII letters, digits, `_` and `-`, starting with a
/// letter or `_`. (OpenAI and Anthropic take `^[a-zA-Z0-9_-]{1,64}$`; Gemini
/// takes up to 64 of `a-zA-Z0-9_.:-` starting with a letter or `_`; MCP
/// takes up to 128 of `A-Za-z0-9_.-`.)
///
/// ```
/// use toolresult::tool;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NoArgs {}
///
/// let refused = tool::function("3d.render", "Render", |_: NoArgs| "done").unwrap_err();
/// assert_eq!(
///     refused.to_string(),
///     "invalid tool name `3d.render`: it starts with `3`; a tool name starts with an ASCII letter or `_`"
/// );
/// assert!(tool::function("render_3d", "Render", |_: NoArgs| "done").is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid tool name `{shown}`: {problem}")]
pub struct InvalidToolName {
    shown: String,
    problem: Problem,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Problem {
    Empty,
    TooLong(usize),
    BadStart(char),
    BadChar(char, usize),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("it is empty"),
            Self::TooLong(len) => write!(
                f,
                "it is {len} bytes long; a tool name has at most {MAX_LEN}"
            ),
            Self::BadStart(c) => write!(
                f,
                "it starts with `{}`; a tool name starts with an ASCII letter or `_`",
                c.escape_debug()
            ),
            Self::BadChar(c, at) => write!(
                f,
                "it holds `{}` at byte {at}; a tool name holds only ASCII letters, digits, `_` and `-`",
                c.escape_debug()
            ),
        }
    }
}

/// Checks `name` against every provider's rule.
pub(crate) fn check(name: &str) -> Result<(), InvalidToolName> {
    let first = name.chars().next();
    let problem = if let Some(c) = first.filter(|c| !(c.is_ascii_alphabetic() || *c == '_')) {
        Problem::BadStart(c)
    } else if first.is_none() {
        Problem::Empty
    } else if let Some((at, c)) = name
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    {
        Problem::BadChar(c, at)
    } else if name.len() > MAX_LEN {
        Problem::TooLong(name.len())
    } else {
        return Ok(());
    };
    Err(InvalidToolName {
        shown: shown(name),
        problem,
    })
}

/// The name as the error shows it: its first 64 characters, control
/// characters escaped, then `…` when there were more.
pub(crate) fn shown(name: &str) -> String {
    shorten(name).escape_debug().collect()
}
