//! `tools/list`: the toolbox's declarations, a page at a time.

use rmcp::ErrorData;
use rmcp::model::{ListToolsResult, Tool};

/// The page of `tools` that starts at `cursor` (the index of its first
/// tool, as the previous page's `nextCursor` gave it), at most `size`
/// long, with the cursor of the next page when there is one.
///
/// # Errors
/// An `invalid_params` error for a cursor this server did not give.
pub(super) fn page(
    tools: &[Tool],
    cursor: Option<&str>,
    size: usize,
) -> Result<ListToolsResult, ErrorData> {
    let start = match cursor {
        None => 0,
        Some(cursor) => cursor
            .parse::<usize>()
            .ok()
            .filter(|&start| start > 0 && start < tools.len())
            .ok_or_else(|| ErrorData::invalid_params(format!("invalid cursor {cursor:?}"), None))?,
    };
    let end = start.saturating_add(size.max(1)).min(tools.len());
    let mut result =
        ListToolsResult::with_all_items(tools.get(start..end).unwrap_or_default().to_vec());
    result.next_cursor = (end < tools.len()).then(|| end.to_string());
    Ok(result)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn tools(n: usize) -> Vec<Tool> {
        (0..n)
            .map(|i| Tool::new(format!("t{i}"), "a tool", Arc::new(serde_json::Map::new())))
            .collect()
    }

    fn names(result: &ListToolsResult) -> Vec<&str> {
        result.tools.iter().map(|tool| &*tool.name).collect()
    }

    #[test]
    fn pages_follow_their_cursors_to_the_end() {
        let tools = tools(5);
        let first = page(&tools, None, 2).unwrap();
        assert_eq!(
            (names(&first), first.next_cursor.as_deref()),
            (vec!["t0", "t1"], Some("2"))
        );
        let second = page(&tools, Some("2"), 2).unwrap();
        assert_eq!(
            (names(&second), second.next_cursor.as_deref()),
            (vec!["t2", "t3"], Some("4"))
        );
        let last = page(&tools, Some("4"), 2).unwrap();
        assert_eq!(
            (names(&last), last.next_cursor.as_deref()),
            (vec!["t4"], None)
        );
    }

    #[test]
    fn a_cursor_not_given_is_an_invalid_params_error() {
        let tools = tools(3);
        for cursor in ["0", "3", "x", "-1", ""] {
            let err = page(&tools, Some(cursor), 2).unwrap_err();
            assert_eq!(err.code, rmcp::model::ErrorCode::INVALID_PARAMS, "{cursor}");
            assert_eq!(err.message, format!("invalid cursor {cursor:?}"));
        }
    }

    #[test]
    fn no_tools_is_one_empty_page() {
        let empty = page(&[], None, 10).unwrap();
        assert!(empty.tools.is_empty() && empty.next_cursor.is_none());
    }
}
