//! The `tracing` events of the retry policy. In a test binary of its own:
//! tracing caches per callsite whether anyone listens, and tests running
//! on other threads with no subscriber would race that cache.
#![cfg(feature = "tracing")]

use std::sync::Mutex;

use toolresult::ToolResult;

mod retry_support;
use retry_support::{READ_ONLY, SECRET, failure, io, read_only_policy};

use std::fmt::Write as _;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Records each event as `target level message field=value ...`.
#[derive(Default)]
struct Recorder(Mutex<Vec<String>>);

struct Line<'a>(&'a mut String);

impl Visit for Line<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, " {}={:?}", field.name(), value);
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        let _ = write!(self.0, " {}={}", field.name(), value);
    }
}

impl Subscriber for &'static Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn register_callsite(&self, _: &'static Metadata<'static>) -> tracing::subscriber::Interest {
        tracing::subscriber::Interest::always()
    }
    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::TRACE)
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let meta = event.metadata();
        let mut line = format!("{} {}", meta.target(), meta.level());
        event.record(&mut Line(&mut line));
        self.0.lock().expect("lines").push(line);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[test]
fn each_retry_and_the_stop_are_traced_with_type_and_flags_never_text() {
    let recorder: &'static Recorder = Box::leak(Box::default());
    let policy = read_only_policy().max_attempts(2);
    tracing::subscriber::with_default(recorder, || {
        // Other tests' threads may have cached these callsites as
        // disabled (they run with no subscriber): ask again.
        tracing::callsite::rebuild_interest_cache();
        let _ = policy.run_with_sleeper(
            READ_ONLY,
            |_| {},
            || -> ToolResult<u8> {
                ToolResult::fail(failure(1).with_source(io(std::io::ErrorKind::TimedOut)))
            },
        );
    });
    let lines = recorder.0.lock().expect("lines");
    assert_eq!(
        *lines,
        [
            "toolresult::retry INFO message=retrying the tool call attempt=1 delay_ms=10 \
             classification=transient error_type=std::io::Error transient=None",
            "toolresult::retry DEBUG message=not retrying the tool call attempt=2 \
             reason=attempts_exhausted error_type=std::io::Error",
        ]
    );
    assert!(!lines.concat().contains(SECRET));
}
