//! The borrowed parse path (`from_str`, `from_slice`, `&Value`) and the
//! owned one (`from_reader`, an owned `Value`) agree: any canonical result
//! or part, and any mangled JSON of one, parses the same way on every path
//! (the same value, or an error on every path), and what parses
//! re-serialises to the same bytes.

mod strategies;

use std::fmt::Debug;

use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use strategies::*;
use toolresult::canonical::{ContentPart, ToolResult};

/// `input` parsed on every path: `Ok` values, or the path's error text.
fn every_path<T: DeserializeOwned>(input: &str) -> Vec<(&'static str, Result<T, String>)> {
    let text = |r: Result<T, serde_json::Error>| r.map_err(|e| e.to_string());
    let mut paths = vec![
        ("from_str", text(serde_json::from_str(input))),
        ("from_slice", text(serde_json::from_slice(input.as_bytes()))),
        (
            "from_reader",
            text(serde_json::from_reader(input.as_bytes())),
        ),
    ];
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(input) {
        paths.push(("&Value", text(T::deserialize(&value))));
        paths.push(("Value", text(serde_json::from_value(value))));
    }
    paths
}

/// Every path gives the same value, or every path refuses; a value parsed
/// re-serialises to the bytes the first path's does.
fn assert_paths_agree<T>(input: &str) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let paths = every_path::<T>(input);
    let (_, first) = &paths[0];
    for (path, parsed) in &paths[1..] {
        match (first, parsed) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "{} differs from from_str", path),
            (Err(_), Err(_)) => {}
            (a, b) => prop_assert!(false, "from_str gave {:?} but {} gave {:?}", a, path, b),
        }
    }
    if let Ok(value) = first {
        let bytes = serde_json::to_string(value).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for (path, parsed) in &paths {
            if let Ok(parsed) = parsed {
                let again = serde_json::to_string(parsed)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(&again, &bytes, "{} re-serialised differently", path);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn results_parse_alike_on_every_path(result in tool_result()) {
        let json = serde_json::to_string(&result).map_err(|e| TestCaseError::fail(e.to_string()))?;
        assert_paths_agree::<ToolResult>(&json)?;
        let parsed: ToolResult = serde_json::from_reader(json.as_bytes())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(parsed, result);
    }

    #[test]
    fn parts_parse_alike_on_every_path(part in part()) {
        let json = serde_json::to_string(&part).map_err(|e| TestCaseError::fail(e.to_string()))?;
        assert_paths_agree::<ContentPart>(&json)?;
    }

    #[test]
    fn mangled_results_parse_alike_on_every_path(json in mangled_json(tool_result())) {
        assert_paths_agree::<ToolResult>(&json)?;
    }

    #[test]
    fn mangled_parts_parse_alike_on_every_path(json in mangled_json(part())) {
        assert_paths_agree::<ContentPart>(&json)?;
    }
}
