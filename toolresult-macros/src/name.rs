//! The tool-name rule, checked at compile time: the same rule, and the same
//! words, as `toolresult::tool::InvalidToolName`.

/// The longest tool name, in bytes.
const MAX_LEN: usize = 64;

/// Why `name` is not a tool name every provider accepts, if it is not.
pub(crate) fn problem(name: &str) -> Option<String> {
    let first = name.chars().next();
    let problem = if let Some(c) = first.filter(|c| !(c.is_ascii_alphabetic() || *c == '_')) {
        format!(
            "it starts with `{}`; a tool name starts with an ASCII letter or `_`",
            c.escape_debug()
        )
    } else if first.is_none() {
        "it is empty".to_owned()
    } else if let Some((at, c)) = name
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    {
        format!(
            "it holds `{}` at byte {at}; a tool name holds only ASCII letters, digits, `_` and `-`",
            c.escape_debug()
        )
    } else if name.len() > MAX_LEN {
        format!(
            "it is {} bytes long; a tool name has at most {MAX_LEN}",
            name.len()
        )
    } else {
        return None;
    };
    Some(format!("invalid tool name `{name}`: {problem}"))
}

#[cfg(test)]
mod tests {
    use super::problem;

    #[test]
    fn names_follow_the_library_rule() {
        assert_eq!(problem("get_weather"), None);
        assert_eq!(problem("a-b_9"), None);
        assert_eq!(
            problem("3d").as_deref(),
            Some(
                "invalid tool name `3d`: it starts with `3`; a tool name starts with an ASCII letter or `_`"
            )
        );
        assert_eq!(
            problem("a.b").as_deref(),
            Some(
                "invalid tool name `a.b`: it holds `.` at byte 1; a tool name holds only ASCII letters, digits, `_` and `-`"
            )
        );
        assert_eq!(
            problem("").as_deref(),
            Some("invalid tool name ``: it is empty")
        );
        assert!(problem(&"a".repeat(65)).is_some());
        assert_eq!(problem(&"a".repeat(64)), None);
    }
}
