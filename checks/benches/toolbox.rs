//! The toolbox, beside hand-written glue and the floor.
//!
//! - `one_call`: one trivial call from the provider's JSON message to the
//!   provider's JSON reply (OpenAI Chat), against two baselines written by
//!   hand with `serde_json`: the guarded glue, with the guarantees a careful
//!   user writes (an owned call id, the body under `tokio::time::timeout`,
//!   a panic caught, bad arguments answered), and the bare glue, without
//!   them (a borrowed id, no timeout, no panic caught).
//! - `sixteen_waits`: 16 calls of a tool that waits 20 ms, against the
//!   slowest call alone (one 20 ms wait).
//! - `anthropic_images`: a turn of 16 results with a 1 MiB image each,
//!   rendered for Anthropic into a writer (the peak heap of the same
//!   rendering is asserted in `tests/toolbox_memory.rs`).
//!
//! For instruction counts,
//! `TOOLBOX_ONE_CALL_COUNT=<turns>:<glue|guarded|toolbox>`
//! makes that many one-call turns and exits: run it under
//! `valgrind --tool=callgrind` at two counts (1000 and 2000, say) and take
//! the difference, so that the set-up cancels out.

mod common;

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use criterion::{Criterion, black_box, criterion_group};
use serde::{Deserialize, Serialize};
use serde_json::json;
use toolresult::canonical::{ContentPart, ToolResult as Canonical};
use toolresult::provider::{Anthropic, CallRef, OpenAiChat, PartPolicy, Provider};
use toolresult::tool;
use toolresult::toolbox::Toolbox;

const MESSAGE: &str = r#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_abc123","type":"function","function":{"name":"add","arguments":"{\"a\":2,\"b\":40}"}}]}"#;

#[derive(Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

fn add(args: Add) -> i64 {
    args.a + args.b
}

/// What a user writes without the crate.
fn hand_written_glue(message: &str) -> String {
    #[derive(Deserialize)]
    struct Message<'a> {
        #[serde(borrow)]
        tool_calls: Vec<ToolCallJson<'a>>,
    }
    #[derive(Deserialize)]
    struct ToolCallJson<'a> {
        id: &'a str,
        function: Function,
    }
    #[derive(Deserialize)]
    struct Function {
        name: String,
        arguments: String,
    }
    #[derive(Serialize)]
    struct Reply<'a> {
        role: &'static str,
        tool_call_id: &'a str,
        content: String,
    }
    let message: Message<'_> = serde_json::from_str(message).unwrap();
    let replies: Vec<Reply<'_>> = message
        .tool_calls
        .iter()
        .map(|call| {
            assert_eq!(call.function.name, "add");
            let args: Add = serde_json::from_str(&call.function.arguments).unwrap();
            let content = serde_json::to_string(&add(args)).unwrap();
            Reply {
                role: "tool",
                tool_call_id: call.id,
                content,
            }
        })
        .collect();
    serde_json::to_string(&replies).unwrap()
}

/// What a careful user writes without the crate: the call id owned, the
/// body under a timeout, a panic caught and bad arguments answered, each as
/// an error the model reads.
async fn guarded_glue(message: &str) -> String {
    #[derive(Deserialize)]
    struct Message {
        tool_calls: Vec<ToolCallJson>,
    }
    #[derive(Deserialize)]
    struct ToolCallJson {
        id: String,
        function: Function,
    }
    #[derive(Deserialize)]
    struct Function {
        name: String,
        arguments: String,
    }
    #[derive(Serialize)]
    struct Reply {
        role: &'static str,
        tool_call_id: String,
        content: String,
    }
    fn body(function: &Function) -> String {
        if function.name != "add" {
            return r#"{"error":"there is no such tool"}"#.to_owned();
        }
        match serde_json::from_str::<Add>(&function.arguments) {
            Ok(args) => serde_json::to_string(&add(args)).unwrap(),
            Err(_) => r#"{"error":"bad arguments"}"#.to_owned(),
        }
    }
    let message: Message = serde_json::from_str(message).unwrap();
    let mut replies = Vec::with_capacity(message.tool_calls.len());
    for call in message.tool_calls {
        let function = &call.function;
        let guarded = async { catch_unwind(AssertUnwindSafe(|| body(function))) };
        let content = match tokio::time::timeout(Duration::from_secs(60), guarded).await {
            Ok(Ok(content)) => content,
            Ok(Err(_panic)) => r#"{"error":"the tool panicked"}"#.to_owned(),
            Err(_elapsed) => r#"{"error":"the tool timed out"}"#.to_owned(),
        };
        replies.push(Reply {
            role: "tool",
            tool_call_id: call.id,
            content,
        });
    }
    serde_json::to_string(&replies).unwrap()
}

/// The runtime an agent loop runs on: tokio's current-thread one, with its timer.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

/// The toolbox of the one-call bench: one trivial tool.
fn add_toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox
        .register(
            tool::function("add", "Add two integers", |args: Add| add(args).to_string()).unwrap(),
        )
        .unwrap();
    toolbox
}

/// What the crate's user writes: read the calls, run the turn, reply.
async fn with_toolbox(toolbox: &Toolbox, message: &str) -> String {
    let calls = OpenAiChat::read_calls(message).unwrap();
    let outcomes = toolbox.run(calls).await;
    serde_json::to_string(&OpenAiChat::reply(&outcomes, PartPolicy::Strict).unwrap()).unwrap()
}

fn one_call(c: &mut Criterion) {
    let runtime = runtime();
    let toolbox = add_toolbox();
    let toolbox = &toolbox;
    let ours = |message: &'static str| with_toolbox(toolbox, message);
    assert_eq!(runtime.block_on(ours(MESSAGE)), hand_written_glue(MESSAGE));
    assert_eq!(
        runtime.block_on(guarded_glue(MESSAGE)),
        hand_written_glue(MESSAGE)
    );
    let mut group = c.benchmark_group("toolbox/one_call (OpenAI Chat JSON in, JSON out)");
    group.bench_function("bare hand-written serde glue", |b| {
        b.iter(|| hand_written_glue(black_box(MESSAGE)))
    });
    group.bench_function("guarded hand-written glue (timeout, panic caught)", |b| {
        b.iter_custom(|iterations| {
            runtime.block_on(async {
                let start = std::time::Instant::now();
                for _ in 0..iterations {
                    black_box(guarded_glue(black_box(MESSAGE)).await);
                }
                start.elapsed()
            })
        })
    });
    // An agent loop already runs on tokio: the turns are timed inside one
    // runtime, not each behind its own `block_on`.
    group.bench_function("toolresult read_calls + Toolbox::run + reply", |b| {
        b.iter_custom(|iterations| {
            runtime.block_on(async {
                let start = std::time::Instant::now();
                for _ in 0..iterations {
                    black_box(ours(black_box(MESSAGE)).await);
                }
                start.elapsed()
            })
        })
    });
    group.finish();
}

fn sixteen_waits(c: &mut Criterion) {
    #[derive(Deserialize, schemars::JsonSchema)]
    struct NoArgs {}
    let runtime = runtime();
    let mut toolbox = Toolbox::new();
    toolbox
        .register(
            tool::function("wait", "Waits 20 ms", |_: NoArgs| async {
                tokio::time::sleep(Duration::from_millis(20)).await;
                "done"
            })
            .unwrap(),
        )
        .unwrap();
    let calls = || {
        (0..16).map(|i| {
            toolresult::provider::Call::new(
                format!("call_{i}"),
                "wait",
                toolresult::tool::Arguments::Json(json!({})),
            )
        })
    };
    let mut group = c.benchmark_group("toolbox/sixteen_waits (16 calls waiting 20 ms)");
    group.sample_size(10);
    group.bench_function("floor: the slowest call alone (one 20 ms wait)", |b| {
        b.iter(|| runtime.block_on(async { tokio::time::sleep(Duration::from_millis(20)).await }))
    });
    group.bench_function("toolresult Toolbox::run, 16 calls", |b| {
        b.iter(|| runtime.block_on(toolbox.run(calls())))
    });
    group.finish();
}

fn anthropic_images(c: &mut Criterion) {
    let image = vec![0x5a_u8; 1 << 20];
    let results: Vec<Canonical> = (0..16)
        .map(|i| {
            let part = ContentPart::from_bytes(image.clone(), "image/png").unwrap();
            Canonical::ok(format!("screenshot {i}")).with_parts([part])
        })
        .collect();
    let ids: Vec<String> = (0..16).map(|i| format!("toolu_{i:02}")).collect();
    let turn: Vec<(CallRef<'_>, &Canonical)> = ids
        .iter()
        .zip(&results)
        .map(|(id, result)| (CallRef::new(id, "screenshot"), result))
        .collect();
    let mut group = c.benchmark_group("toolbox/anthropic_images (16 x 1 MiB into a writer)");
    group.sample_size(10);
    group.bench_function("toolresult Anthropic::reply + serde_json::to_writer", |b| {
        b.iter(|| {
            let reply = Anthropic::reply(&turn, PartPolicy::Strict).unwrap();
            let mut sink = std::io::BufWriter::new(std::io::sink());
            serde_json::to_writer(&mut sink, &reply).unwrap();
            sink.flush().unwrap();
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = one_call, sixteen_waits, anthropic_images
}

/// `TOOLBOX_ONE_CALL_COUNT=<turns>:<glue|guarded|toolbox>`: that many
/// one-call turns, for counting instructions.
fn count(spec: &str) {
    let (turns, which) = spec.split_once(':').unwrap_or((spec, "toolbox"));
    let turns: usize = turns.parse().expect("a count of turns");
    if which == "glue" {
        for _ in 0..turns {
            black_box(hand_written_glue(black_box(MESSAGE)));
        }
        return;
    }
    if which == "guarded" {
        runtime().block_on(async {
            for _ in 0..turns {
                black_box(guarded_glue(black_box(MESSAGE)).await);
            }
        });
        return;
    }
    let toolbox = add_toolbox();
    runtime().block_on(async {
        for _ in 0..turns {
            black_box(with_toolbox(&toolbox, black_box(MESSAGE)).await);
        }
    });
}

fn main() {
    common::main_or_count("TOOLBOX_ONE_CALL_COUNT", count, benches);
}
