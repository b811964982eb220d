//! Peak heap of the two paths that handle megabytes at once, counted with a
//! counting global allocator in this test binary (a `realloc` counts as its
//! growth, as for `tests/toolbox_memory.rs`):
//!
//! - a 40,000-row list (~5.6 MB of JSON) cut to a 4 KB budget holds at most
//!   1.5x what serialising the list once holds: the whole is kept in the
//!   store without a second copy;
//! - `serde_json::to_string` of a result with an 8 MiB image holds at most
//!   1.5x the JSON it writes, and writes the bytes `to_json` writes.

use serde::Serialize;
use toolresult::budget::{ArtifactId, ArtifactStore};
use toolresult::budget::{Budget, MemoryStore};
use toolresult::canonical::{self, ContentPart};
use toolresult::{IntoToolResult, ToolResult};

mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

use counting::peak_of;

/// A row with a nested array, as in `benches/budget.rs`.
#[derive(Serialize)]
struct Row {
    id: u64,
    name: String,
    email: String,
    score: f64,
    active: bool,
    tags: Vec<String>,
}

fn row(i: u64) -> Row {
    Row {
        id: 10_000 + i,
        name: format!("Customer number {i}"),
        email: format!("customer{i}@example.com"),
        score: i as f64 * 1.25,
        active: !i.is_multiple_of(3),
        tags: vec!["retail".into(), format!("cohort-{}", i % 12)],
    }
}

#[test]
fn a_40000_row_list_cut_to_4kb_holds_at_most_1_5x_serialising_it_once() {
    let rows: Vec<Row> = (0..40_000).map(row).collect();
    let (floor, json) = peak_of(|| serde_json::to_string(&rows).unwrap());
    assert!(json.len() > 5_000_000, "{}", json.len());
    let budget = Budget::new().output_bytes(4096);
    // The rows are borrowed, so freeing them cannot hide what the cut holds;
    // the store is made inside, so the kept whole is counted.
    let (ours, (cut, store)) = peak_of(|| {
        let store = MemoryStore::new();
        let cut = budget.apply(ToolResult::<_>::ok(&rows).lower(), None, &store);
        (cut, store)
    });
    assert!(cut.result.output.len() <= 4096);
    assert!(
        cut.result
            .output
            .starts_with(r#"[{"id":10000,"name":"Customer number 0""#)
    );
    let kept = store
        .get(&ArtifactId::from_url_or_id(cut.result.parts[0].url().unwrap()).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(kept.bytes, json.as_bytes());
    eprintln!(
        "peak heap: serialising once {floor} B, lower + apply {ours} B = {:.3}x",
        ours as f64 / floor as f64
    );
    assert!(
        ours * 2 <= floor * 3,
        "lower + apply held {ours} B, serialising once {floor} B"
    );
}

#[test]
fn serde_json_to_string_of_an_8mib_image_holds_at_most_1_5x_its_json() {
    let bytes: Vec<u8> = (0..8u32 << 20).map(|i| (i * 31 % 251) as u8).collect();
    let part = ContentPart::from_bytes(bytes, "image/png").unwrap();
    let result = canonical::ToolResult::ok(part.describe()).with_parts([part]);
    let (direct, expected) = peak_of(|| result.to_json().unwrap());
    let (ours, json) = peak_of(|| serde_json::to_string(&result).unwrap());
    assert_eq!(json, expected);
    eprintln!(
        "peak heap for {} B of JSON: to_json {direct} B ({:.3}x), serde_json::to_string {ours} B ({:.3}x)",
        json.len(),
        direct as f64 / json.len() as f64,
        ours as f64 / json.len() as f64
    );
    assert!(
        ours * 2 <= json.len() * 3,
        "serde_json::to_string held {ours} B for {} B of JSON",
        json.len()
    );
}
