//! A counting global allocator for the tests that assert allocations and
//! peak heap: every call is forwarded to the system allocator, and
//! thread-local counters keep the number of allocations (a `realloc`
//! counts as one) and the live and peak bytes. A test binary installs it
//! with `#[global_allocator] static GLOBAL: counting::Counting = counting::Counting;`.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The counting allocator.
pub struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn allocated() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

fn grew(bytes: isize) {
    LIVE.with(|live| {
        let now = live.get() + bytes;
        live.set(now);
        PEAK.with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// only additions are thread-local counters, which themselves never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        allocated();
        grew(layout.size() as isize);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        grew(-(layout.size() as isize));
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        allocated();
        grew(new_size as isize - layout.size() as isize);
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// How many allocations (and reallocations) `f` makes on this thread.
pub fn allocations_of<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

/// The most heap `f` holds at once above what was live when it started.
pub fn peak_of<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let start = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(start));
    let out = f();
    let peak = PEAK.with(Cell::get) - start;
    (usize::try_from(peak).unwrap_or(0), out)
}

/// The heap live on this thread now (what it allocated and did not free;
/// negative when it freed more than it allocated).
pub fn live() -> isize {
    LIVE.with(Cell::get)
}
