//! The call context is free when a tool ignores it: a toolbox turn whose
//! tool takes no context allocates exactly as much as the same turn whose
//! tool takes one and reads it (the toolbox builds it on the stack,
//! borrowing what it holds), and building the context allocates nothing.
//! Counted with a counting global allocator in this test binary.

use toolresult::provider::Call;
use toolresult::tool::{self, Arguments, CallContext};
use toolresult::toolbox::Toolbox;

mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

use counting::allocations_of;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[test]
fn a_tool_that_ignores_its_context_costs_no_allocation_for_it() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let mut ignores = Toolbox::new();
    ignores
        .register(tool::function("add", "Add", |x: Add| (x.a + x.b).to_string()).unwrap())
        .unwrap();
    let mut reads = Toolbox::new();
    reads
        .register(
            tool::function("add", "Add", |x: Add, cx: &CallContext| {
                assert_eq!((cx.call_id(), cx.attempt()), ("call_1", 1));
                assert!(cx.deadline().is_some());
                (x.a + x.b).to_string()
            })
            .unwrap(),
        )
        .unwrap();
    let call = || {
        [Call::new(
            "call_1",
            "add",
            Arguments::Text(r#"{"a":2,"b":40}"#.to_owned()),
        )]
    };
    // Warm up once each: lazily made statics are not the call's cost.
    runtime.block_on(ignores.run(call()));
    runtime.block_on(reads.run(call()));
    let (ignoring, outcomes) = allocations_of(|| runtime.block_on(ignores.run(call())));
    assert_eq!(outcomes[0].lowered.result.output, "42");
    let (reading, outcomes) = allocations_of(|| runtime.block_on(reads.run(call())));
    assert_eq!(outcomes[0].lowered.result.output, "42");
    assert_eq!(ignoring, reading, "the context allocates nothing when read");
    assert!(ignoring > 0, "the count sees the turn's own allocations");
}

#[test]
fn building_and_reading_a_context_allocates_nothing() {
    let cx = CallContext::new("call_1", "add");
    let (n, ()) = allocations_of(|| {
        assert_eq!(cx.call_id(), "call_1");
        assert_eq!(cx.tool_name(), "add");
        assert!(cx.answer().is_none());
        assert!(cx.get::<u8>().is_none());
        cx.progress(1.0, Some(2.0), Some("half"));
    });
    assert_eq!(n, 0);
}
