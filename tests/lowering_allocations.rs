//! Lowering a success allocates nothing beyond the serialisation it cannot
//! avoid: counted with a counting global allocator in this test binary.

use serde::Serialize;
use toolresult::{IntoToolResult, ToolError, ToolResult};

mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

use counting::allocations_of as count;

#[derive(Serialize, Clone)]
struct Row {
    id: u64,
    name: String,
    tags: Vec<String>,
}

fn rows(n: usize) -> Vec<Row> {
    (0..n)
        .map(|i| Row {
            id: i as u64,
            name: format!("row number {i}"),
            tags: vec!["a".into(), "b".into()],
        })
        .collect()
}

#[test]
fn a_small_success_is_one_allocation() {
    let value = rows(1);
    let (n, lowered) = count(|| ToolResult::<_>::ok(value).lower().result);
    assert_eq!(n, 1, "only the output string");
    assert!(lowered.output.starts_with(r#"[{"id":0"#));
}

#[test]
fn a_success_allocates_what_serde_json_does_and_no_more() {
    for size in [1, 16, 1000] {
        let value = rows(size);
        let (floor, json) = count(|| serde_json::to_string(&value).unwrap());
        let owned = value.clone();
        let (ours, lowered) = count(move || ToolResult::<_>::ok(owned).lower().result);
        assert_eq!(lowered.output, json);
        assert_eq!(ours, floor, "size {size}");
    }
}

#[test]
fn a_failure_allocates_what_serde_json_does_and_no_more() {
    let error = ToolError::new("No such config key: nope").with_suggestion("try region");
    #[derive(Serialize)]
    struct Envelope<'a> {
        error: &'a ToolError,
    }
    let (floor, json) = count(|| serde_json::to_string(&Envelope { error: &error }).unwrap());
    let (ours, lowered) = count(|| ToolResult::<u8>::fail(error).lower().result);
    assert_eq!(lowered.output, json);
    assert_eq!(ours, floor);
    assert_eq!(ours, 1, "only the output string");
}
