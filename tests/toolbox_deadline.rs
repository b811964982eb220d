//! The deadline a tool reads is the instant its attempt times out: taken
//! when the call first waits (or when the tool first reads it, before
//! that), and the timer fires at that same instant (paused tokio time).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolresult::provider::Call;
use toolresult::retry::RetryPolicy;
use toolresult::tool::{self, Arguments, CallContext};
use toolresult::toolbox::{TimedOut, Toolbox};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

fn paused() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

#[test]
fn a_deadline_read_after_the_first_wait_is_the_one_the_timer_keeps() {
    paused().block_on(async {
        let read = Arc::new(Mutex::new(None));
        let sink = Arc::clone(&read);
        let mut toolbox = Toolbox::new()
            .timeout(Duration::from_secs(10))
            .retry(RetryPolicy::new().max_attempts(1));
        toolbox
            .register(
                tool::function(
                    "slow",
                    "Waits, reads its deadline, waits past it",
                    move |_: NoArgs, cx: CallContext<'static>| {
                        let sink = Arc::clone(&sink);
                        async move {
                            tokio::time::sleep(Duration::from_secs(3)).await;
                            *sink.lock().unwrap() = cx.deadline();
                            tokio::time::sleep(Duration::from_secs(3600)).await;
                            "finished"
                        }
                    },
                )
                .unwrap(),
            )
            .unwrap();
        let started = tokio::time::Instant::now();
        let outcomes = toolbox
            .run([Call::new("c1", "slow", Arguments::Json(json!({})))])
            .await;
        // Read 3 s in, the deadline is still 10 s after the start, not
        // 10 s after the read.
        let deadline = read.lock().unwrap().unwrap();
        assert_eq!(deadline, (started + Duration::from_secs(10)).into_std());
        // And the call timed out then.
        assert_eq!(started.elapsed(), Duration::from_secs(10));
        let timed_out = outcomes[0].lowered.diagnostics.source().unwrap();
        assert!(timed_out.downcast_ref::<TimedOut>().is_some());
        assert_eq!(outcomes[0].attempts, 1);
    });
}

#[test]
fn a_deadline_read_before_the_first_wait_is_when_the_timer_fires() {
    paused().block_on(async {
        let read = Arc::new(Mutex::new(None));
        let sink = Arc::clone(&read);
        let mut toolbox = Toolbox::new()
            .timeout(Duration::from_secs(10))
            .retry(RetryPolicy::new().max_attempts(1));
        toolbox
            .register(
                tool::function(
                    "late",
                    "Reads its deadline first, then waits past it",
                    move |_: NoArgs, cx: CallContext<'static>| {
                        *sink.lock().unwrap() = cx.deadline();
                        async move {
                            tokio::time::sleep(Duration::from_secs(3600)).await;
                            "finished"
                        }
                    },
                )
                .unwrap(),
            )
            .unwrap();
        let started = tokio::time::Instant::now();
        let outcomes = toolbox
            .run([Call::new("c1", "late", Arguments::Json(json!({})))])
            .await;
        let deadline = read.lock().unwrap().unwrap();
        assert_eq!(deadline, (started + Duration::from_secs(10)).into_std());
        assert_eq!(started.elapsed(), Duration::from_secs(10));
        assert!(outcomes[0].lowered.result.is_error);
    });
}

#[test]
fn a_timeout_past_what_an_instant_holds_is_no_deadline_and_no_panic() {
    paused().block_on(async {
        let read = Arc::new(Mutex::new(Some(std::time::Instant::now())));
        let sink = Arc::clone(&read);
        let mut toolbox = Toolbox::new().timeout(Duration::MAX);
        toolbox
            .register(
                tool::function(
                    "now",
                    "Reads its deadline",
                    move |_: NoArgs, cx: &CallContext| {
                        *sink.lock().unwrap() = cx.deadline();
                        "read"
                    },
                )
                .unwrap(),
            )
            .unwrap();
        let outcomes = toolbox
            .run([Call::new("c1", "now", Arguments::Json(json!({})))])
            .await;
        assert_eq!(outcomes[0].lowered.result.output, "read");
        assert_eq!(*read.lock().unwrap(), None);
    });
}
