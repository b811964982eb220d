//! A turn run from a provider's stream (`Toolbox::run_stream`), under paused
//! tokio time: a safe call starts the moment it is whole, an unsafe one
//! when the message ends; answers in call order under their ids; a message
//! cut short runs no call; cancellation reaches the running calls; and the
//! latency of early start against waiting for the message.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::stream::{self, Stream, StreamExt};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use toolresult::provider::{Anthropic, OpenAiChat, StreamEnd};
use toolresult::retry::StopReason;
use toolresult::tool::{self, CallContext, ToolSafety};
use toolresult::toolbox::{Toolbox, Turn};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Wait {
    ms: u64,
}

fn paused() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

/// What the tools saw: (tool, call's `ms`, started at, in ms since the turn began).
type Log = Arc<Mutex<Vec<(&'static str, u64, u64)>>>;

/// A toolbox with `safe` (read-only) and `unsafe` (destructive) tools, each
/// waiting the `ms` of its arguments, logging when it starts.
fn toolbox(began: Instant, log: &Log) -> Toolbox {
    let mut toolbox = Toolbox::new().start_early(true);
    for (name, safety) in [
        ("safe", ToolSafety::ReadOnly),
        ("unsafe", ToolSafety::Destructive),
    ] {
        let log = Arc::clone(log);
        let tool = tool::function(name, "Waits", move |wait: Wait, cx: CallContext<'static>| {
            let log = Arc::clone(&log);
            let token = cx.cancellation_token();
            async move {
                let at = began.elapsed().as_millis() as u64;
                log.lock().unwrap().push((name, wait.ms, at));
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(wait.ms)) => format!("waited {}", wait.ms),
                    () = token.cancelled() => "cancelled".to_owned(),
                }
            }
        })
        .unwrap()
        .with_safety(safety);
        toolbox.register(tool).unwrap();
    }
    toolbox
}

/// An Anthropic `tool_use` block's events: its start, its arguments in
/// two fragments, its stop (where the call is whole).
fn call(index: usize, id: &str, name: &str, arguments: &str) -> Vec<String> {
    let (head, tail) = arguments.split_at(arguments.len() / 2);
    vec![
        format!(
            r#"{{"type":"content_block_start","index":{index},"content_block":{{"type":"tool_use","id":"{id}","name":"{name}","input":{{}}}}}}"#
        ),
        serde_json::json!({"type":"content_block_delta","index":index,"delta":{"type":"input_json_delta","partial_json":head}}).to_string(),
        serde_json::json!({"type":"content_block_delta","index":index,"delta":{"type":"input_json_delta","partial_json":tail}}).to_string(),
        format!(r#"{{"type":"content_block_stop","index":{index}}}"#),
    ]
}

fn stop(reason: &str) -> String {
    format!(r#"{{"type":"message_delta","delta":{{"stop_reason":"{reason}"}}}}"#)
}

/// The events, each yielded at its instant (ms after `began`).
fn timed(began: Instant, events: Vec<(u64, String)>) -> impl Stream<Item = String> {
    stream::iter(events).then(move |(at, event)| async move {
        tokio::time::sleep_until(began + Duration::from_millis(at)).await;
        event
    })
}

/// Calls whole at 200, 400, 600 and 800 ms, the message ending with the
/// last one for `reason`.
fn four_calls(tools: [(&str, u64); 4], reason: &str) -> Vec<(u64, String)> {
    let mut events = Vec::new();
    for (i, (name, ms)) in tools.into_iter().enumerate() {
        let at = 200 * (i as u64 + 1);
        for event in call(i, &format!("toolu_{i}"), name, &format!(r#"{{"ms":{ms}}}"#)) {
            events.push((at, event));
        }
    }
    events.push((800, stop(reason)));
    events
}

#[test]
fn a_safe_call_starts_before_the_message_ends_and_an_unsafe_one_waits() {
    paused().block_on(async {
        let began = Instant::now();
        let log = Log::default();
        let toolbox = toolbox(began, &log);
        let events = timed(
            began,
            four_calls(
                [("safe", 10), ("unsafe", 10), ("safe", 10), ("unsafe", 10)],
                "tool_use",
            ),
        );
        let (outcomes, message) = toolbox
            .run_stream::<Anthropic>(Turn::default(), events)
            .await
            .unwrap();
        assert_eq!(message.end(), &StreamEnd::Finished);
        let mut started: Vec<_> = log
            .lock()
            .unwrap()
            .iter()
            .map(|&(name, _, at)| (name, at))
            .collect();
        started.sort_by_key(|&(_, at)| at);
        assert_eq!(
            started,
            [
                ("safe", 200),
                ("safe", 600),
                ("unsafe", 800),
                ("unsafe", 800)
            ]
        );
        assert_eq!(outcomes.len(), 4);
    });
}

#[test]
fn no_call_starts_early_unless_the_toolbox_or_the_tool_opts_in() {
    paused().block_on(async {
        let began = Instant::now();
        let log = Log::default();
        let toolbox = toolbox(began, &log).start_early(false);
        let events = timed(
            began,
            four_calls(
                [("safe", 10), ("safe", 10), ("safe", 10), ("safe", 10)],
                "tool_use",
            ),
        );
        let (outcomes, _) = toolbox
            .run_stream::<Anthropic>(Turn::default(), events)
            .await
            .unwrap();
        assert_eq!(outcomes.len(), 4);
        let at: Vec<_> = log.lock().unwrap().iter().map(|&(_, _, at)| at).collect();
        assert_eq!(at, [800, 800, 800, 800]);

        // The tool's own word wins over the toolbox's.
        log.lock().unwrap().clear();
        let began = Instant::now();
        let mut toolbox = self::toolbox(began, &log).start_early(false);
        let seen = Arc::clone(&log);
        let safe = tool::function("early", "Logs", move |wait: Wait| {
            seen.lock()
                .unwrap()
                .push(("early", wait.ms, began.elapsed().as_millis() as u64));
            "done"
        })
        .unwrap()
        .with_safety(ToolSafety::ReadOnly);
        toolbox.register(safe).unwrap().start_early(true);
        let mut events = call(0, "toolu_0", "early", r#"{"ms":1}"#);
        events.extend(call(1, "toolu_1", "safe", r#"{"ms":1}"#));
        let events: Vec<_> = events
            .into_iter()
            .enumerate()
            .map(|(i, e)| (10 * i as u64, e))
            .chain([(500, stop("tool_use"))])
            .collect();
        let (outcomes, _) = toolbox
            .run_stream::<Anthropic>(Turn::default(), timed(began, events))
            .await
            .unwrap();
        assert_eq!(outcomes[0].lowered.result.output, "done");
        assert_eq!(outcomes[1].lowered.result.output, "waited 1");
        // `safe` has no word of its own: the toolbox's (no) holds it to the end.
        assert_eq!(
            log.lock().unwrap().as_slice(),
            [("early", 1, 30), ("safe", 1, 500)]
        );
    });
}

#[test]
fn answers_come_in_call_order_under_their_ids() {
    paused().block_on(async {
        let began = Instant::now();
        let log = Log::default();
        let toolbox = toolbox(began, &log);
        // The first call ends last, the last first.
        let events = timed(
            began,
            four_calls(
                [("safe", 900), ("unsafe", 300), ("safe", 200), ("unsafe", 1)],
                "tool_use",
            ),
        );
        let (outcomes, _) = toolbox
            .run_stream::<Anthropic>(Turn::default(), events)
            .await
            .unwrap();
        let answered: Vec<_> = outcomes
            .iter()
            .map(|outcome| {
                (
                    outcome.call.id.as_str(),
                    outcome.lowered.result.output.as_str(),
                )
            })
            .collect();
        assert_eq!(
            answered,
            [
                ("toolu_0", "waited 900"),
                ("toolu_1", "waited 300"),
                ("toolu_2", "waited 200"),
                ("toolu_3", "waited 1")
            ]
        );
    });
}

#[test]
fn a_message_cut_at_max_tokens_runs_none_of_its_waiting_calls_and_cancels_the_early_ones() {
    paused().block_on(async {
        let began = Instant::now();
        let log = Log::default();
        let toolbox = toolbox(began, &log);
        let events = timed(
            began,
            four_calls(
                [
                    ("safe", 5_000),
                    ("unsafe", 10),
                    ("safe", 5_000),
                    ("unsafe", 10),
                ],
                "max_tokens",
            ),
        );
        let (outcomes, message) = toolbox
            .run_stream::<Anthropic>(Turn::default(), events)
            .await
            .unwrap();
        assert_eq!(message.end(), &StreamEnd::Length);
        assert!(outcomes.is_empty());
        assert!(message.calls().is_empty());
        // Only the safe calls ran, started early; the turn did not wait for them.
        let names: Vec<_> = log
            .lock()
            .unwrap()
            .iter()
            .map(|&(name, _, _)| name)
            .collect();
        assert_eq!(names, ["safe", "safe"]);
        assert_eq!(began.elapsed(), Duration::from_millis(800));
    });
}

#[test]
fn a_call_started_early_sees_its_cancellation_when_the_message_is_cut() {
    paused().block_on(async {
        let began = Instant::now();
        let fired = Arc::new(Mutex::new(None));
        let sink = Arc::clone(&fired);
        let mut toolbox = Toolbox::new().start_early(true);
        let slow = tool::function(
            "slow",
            "Hands its work off",
            move |_: Wait, cx: CallContext<'static>| {
                let token = cx.cancellation_token();
                let sink = Arc::clone(&sink);
                // Work handed off: it outlives the call's future.
                tokio::spawn(async move {
                    token.cancelled().await;
                    *sink.lock().unwrap() = Some(began.elapsed());
                });
                async {
                    tokio::time::sleep(Duration::from_secs(10)).await;
                    "done"
                }
            },
        )
        .unwrap()
        .with_safety(ToolSafety::ReadOnly);
        toolbox.register(slow).unwrap();
        let mut events: Vec<_> = call(0, "toolu_0", "slow", r#"{"ms":1}"#)
            .into_iter()
            .map(|e| (100, e))
            .collect();
        events.push((
            300,
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
                .to_owned(),
        ));
        let (outcomes, message) = toolbox
            .run_stream::<Anthropic>(Turn::default(), timed(began, events))
            .await
            .unwrap();
        assert!(
            matches!(message.end(), StreamEnd::Failed(_)),
            "{:?}",
            message.end()
        );
        assert!(outcomes.is_empty());
        tokio::task::yield_now().await;
        assert_eq!(*fired.lock().unwrap(), Some(Duration::from_millis(300)));
    });
}

#[test]
fn a_stream_cut_by_an_error_or_ending_unfinished_runs_no_call() {
    paused().block_on(async {
        for last in [
            Some(r#"{"type":"error","error":{"type":"api_error","message":"boom"}}"#),
            None,
        ] {
            let began = Instant::now();
            let log = Log::default();
            let toolbox = toolbox(began, &log);
            let mut events: Vec<_> = call(0, "toolu_0", "unsafe", r#"{"ms":1}"#)
                .into_iter()
                .map(|e| (100, e))
                .collect();
            events.extend(last.map(|e| (200, e.to_owned())));
            let (outcomes, message) = toolbox
                .run_stream::<Anthropic>(Turn::default(), timed(began, events))
                .await
                .unwrap();
            assert_ne!(message.end(), &StreamEnd::Finished);
            assert!(outcomes.is_empty());
            assert!(log.lock().unwrap().is_empty());
        }
    });
}

#[test]
fn a_calls_malformed_arguments_do_not_stop_the_others() {
    paused().block_on(async {
        let began = Instant::now();
        let log = Log::default();
        let toolbox = toolbox(began, &log);
        let events = [
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"safe","arguments":"{\"ms\":"}}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"safe","arguments":"{\"ms\":5}"}}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            "[DONE]",
        ];
        let (outcomes, message) = toolbox.run_stream::<OpenAiChat>(Turn::default(), stream::iter(events)).await.unwrap();
        assert_eq!(message.end(), &StreamEnd::Finished);
        assert_eq!(outcomes[0].call.id, "call_1");
        assert!(outcomes[0].lowered.result.is_error, "{}", outcomes[0].lowered.result.output);
        assert_eq!(outcomes[1].call.id, "call_2");
        assert_eq!(outcomes[1].lowered.result.output, "waited 5");
    });
}

#[test]
fn cancelling_the_turn_reaches_the_calls_already_running() {
    paused().block_on(async {
        let began = Instant::now();
        let log = Log::default();
        let toolbox = toolbox(began, &log);
        let token = CancellationToken::new();
        let cancel = token.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            cancel.cancel();
        });
        let events = timed(
            began,
            four_calls(
                [
                    ("safe", 5_000),
                    ("unsafe", 10),
                    ("safe", 10),
                    ("unsafe", 10),
                ],
                "tool_use",
            ),
        );
        let turn = Turn::default().with_cancellation(token);
        let (outcomes, _) = toolbox.run_stream::<Anthropic>(turn, events).await.unwrap();
        assert_eq!(outcomes.len(), 4);
        for outcome in &outcomes {
            assert_eq!(outcome.stop, StopReason::Cancelled, "{}", outcome.call.id);
        }
        // The call running since 200 ms was stopped, not waited for.
        assert_eq!(began.elapsed(), Duration::from_millis(800));
        assert_eq!(log.lock().unwrap().len(), 1);
    });
}

/// The latency target of the benches page: 4 calls whole at 200, 400, 600
/// and 800 ms, the message ending at 800 ms; the first call's tool takes
/// 1,000 ms, the others 100 ms. Started early, the turn is answered at
/// 1,200 ms; waiting for the message, at 1,800 ms. Paused time: the
/// instants are exact.
#[test]
fn latency_early_start_against_waiting_for_the_message() {
    let answered_at = |early: bool| {
        paused().block_on(async {
            let began = Instant::now();
            let log = Log::default();
            let toolbox = toolbox(began, &log).start_early(early);
            let events = timed(
                began,
                four_calls(
                    [("safe", 1_000), ("safe", 100), ("safe", 100), ("safe", 100)],
                    "tool_use",
                ),
            );
            let (outcomes, _) = toolbox
                .run_stream::<Anthropic>(Turn::default(), events)
                .await
                .unwrap();
            assert_eq!(outcomes.len(), 4);
            began.elapsed()
        })
    };
    let early = answered_at(true);
    let waiting = answered_at(false);
    println!("latency: started early {early:?}, waiting for the message {waiting:?}");
    assert_eq!(early, Duration::from_millis(1_200));
    assert_eq!(waiting, Duration::from_millis(1_800));
}

/// A streamed turn can be spawned: its future is `Send` when its events are.
#[test]
fn a_streamed_turn_is_send() {
    fn send<T: Send>(_: &T) {}
    let toolbox = Toolbox::new();
    let events = stream::iter(vec![stop("end_turn")]);
    let turn = toolbox.run_stream::<OpenAiChat>(Turn::default(), events);
    send(&turn);
}

/// The turn's own calls (resumed ones) are answered first, started when
/// the message ends, then the stream's.
#[test]
fn the_turns_own_calls_come_before_the_streams() {
    paused().block_on(async {
        let began = Instant::now();
        let log = Log::default();
        let toolbox = toolbox(began, &log);
        let own = toolresult::provider::Call::new(
            "own_1",
            "safe",
            toolresult::tool::Arguments::Json(serde_json::json!({"ms": 7})),
        );
        let mut events: Vec<_> = call(0, "toolu_0", "safe", r#"{"ms":3}"#)
            .into_iter()
            .map(|e| (100, e))
            .collect();
        events.push((400, stop("tool_use")));
        let (outcomes, _) = toolbox
            .run_stream::<Anthropic>(Turn::new([own]), timed(began, events))
            .await
            .unwrap();
        let ids: Vec<_> = outcomes.iter().map(|o| o.call.id.as_str()).collect();
        assert_eq!(ids, ["own_1", "toolu_0"]);
        assert_eq!(
            log.lock().unwrap().as_slice(),
            [("safe", 3, 100), ("safe", 7, 400)]
        );
    });
}
