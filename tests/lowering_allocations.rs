//! Lowering a success allocates nothing beyond the serialisation it cannot
//! avoid: counted with a counting global allocator in this test binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use serde::Serialize;
use toolresult::{IntoToolResult, ToolError, ToolResult};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// only addition is a thread-local counter, which itself never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

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
