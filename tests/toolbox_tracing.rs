//! The toolbox's `tracing` span per call (OpenTelemetry GenAI conventions)
//! and the retry event inside it, read by a capturing subscriber. In a test
//! binary of its own: tracing caches per callsite whether anyone listens,
//! and tests running on other threads with no subscriber would race that
//! cache.
#![cfg(feature = "tracing")]

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolresult::canonical::Answer;
use toolresult::provider::Call;
use toolresult::retry::{Backoff, RetryPolicy};
use toolresult::tool::Arguments;
use toolresult::tool::{self, Approval, ToolSafety};
use toolresult::toolbox::{CallOutcome, Toolbox, Turn};
use toolresult::{Failure, ToolError, ToolResult};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt as _};
use tracing_subscriber::registry::LookupSpan;

const SECRET: &str = "SECRET-7f3a";

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

/// A span as recorded: its name and every field value it was given.
#[derive(Debug, Clone, Default)]
struct SpanRecord {
    name: String,
    fields: BTreeMap<String, String>,
}

/// An event as recorded: target, fields, and the index of its parent span.
#[derive(Debug, Clone)]
struct EventRecord {
    target: String,
    fields: BTreeMap<String, String>,
    parent: Option<usize>,
}

#[derive(Debug, Default)]
struct Captured {
    spans: Vec<SpanRecord>,
    events: Vec<EventRecord>,
}

/// The index of a span in `Captured::spans`, kept in its extensions (span
/// ids are reused once a span closes).
struct Index(usize);

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Captured>>);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S> Layer<S> for Capture
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let mut record = SpanRecord {
            name: attrs.metadata().name().to_owned(),
            fields: BTreeMap::new(),
        };
        attrs.record(&mut Fields(&mut record.fields));
        let mut captured = self.0.lock().expect("captured");
        captured.spans.push(record);
        let index = captured.spans.len() - 1;
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(Index(index));
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let Some(&Index(index)) = span.extensions().get::<Index>() else {
            return;
        };
        let mut captured = self.0.lock().expect("captured");
        values.record(&mut Fields(&mut captured.spans[index].fields));
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let parent = ctx
            .event_span(event)
            .and_then(|span| span.extensions().get::<Index>().map(|index| index.0));
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        self.0.lock().expect("captured").events.push(EventRecord {
            target: event.metadata().target().to_owned(),
            fields,
            parent,
        });
    }
}

fn paused() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("a runtime")
}

fn call(id: &str, name: &str) -> Call {
    Call::new(id, name, Arguments::Json(json!({})))
}

/// A toolbox of a success, an I/O failure with a secret, and a flaky
/// read-only tool that fails once (transiently, the secret in its source).
fn toolbox() -> Toolbox {
    let policy = RetryPolicy::new()
        .max_attempts(3)
        .backoff(Backoff::constant(Duration::from_millis(250)));
    let mut toolbox = Toolbox::new().retry(policy);
    toolbox
        .register(
            tool::function("lookup", "Succeeds", |_: NoArgs| "found")
                .expect("a name")
                .with_safety(ToolSafety::ReadOnly),
        )
        .expect("registered");
    toolbox
        .register(
            tool::function("read_file", "Fails", |_: NoArgs| {
                ToolResult::<String>::fail(
                    Failure::new(ToolError::new("the file could not be read")).with_source(
                        std::io::Error::new(
                            std::io::ErrorKind::PermissionDenied,
                            format!("open /etc/{SECRET}: permission denied"),
                        ),
                    ),
                )
            })
            .expect("a name")
            .with_safety(ToolSafety::ReadOnly),
        )
        .expect("registered");
    let tries = Arc::new(Mutex::new(0u32));
    toolbox
        .register(
            tool::function("fetch", "Fails once", move |_: NoArgs| {
                let mut tries = tries.lock().expect("tries");
                *tries += 1;
                if *tries == 1 {
                    ToolResult::<String>::fail(
                        Failure::new(ToolError::new("the connection dropped"))
                            .with_source(std::io::Error::new(
                                std::io::ErrorKind::ConnectionReset,
                                format!("peer reset, token={SECRET}"),
                            ))
                            .transient(),
                    )
                } else {
                    ToolResult::ok("fetched".to_owned())
                }
            })
            .expect("a name")
            .with_safety(ToolSafety::ReadOnly),
        )
        .expect("registered");
    toolbox
}

/// Runs `calls` on `toolbox` under the capturing subscriber.
fn traced_turn(toolbox: &Toolbox, calls: impl Into<Turn>) -> (Vec<CallOutcome>, Captured) {
    let capture = Capture::default();
    let subscriber = tracing_subscriber::registry().with(capture.clone());
    let outcomes = tracing::subscriber::with_default(subscriber, || {
        // Other threads may have cached these callsites as disabled while no
        // subscriber was set: ask again.
        tracing::callsite::rebuild_interest_cache();
        paused().block_on(toolbox.run(calls))
    });
    let captured = std::mem::take(&mut *capture.0.lock().expect("captured"));
    (outcomes, captured)
}

/// The one `execute_tool` span of the call `id`.
fn span_of<'a>(captured: &'a Captured, id: &str) -> (usize, &'a SpanRecord) {
    let found: Vec<(usize, &SpanRecord)> = captured
        .spans
        .iter()
        .enumerate()
        .filter(|(_, span)| span.fields.get("gen_ai.tool.call.id").map(String::as_str) == Some(id))
        .collect();
    assert_eq!(found.len(), 1, "one span for the call {id}: {captured:#?}");
    found[0]
}

/// The GenAI attributes every call span has.
fn assert_genai_span(span: &SpanRecord, id: &str, tool: &str, error_type: Option<&str>) {
    assert_eq!(span.name, "execute_tool");
    let field = |name: &str| span.fields.get(name).map(String::as_str);
    assert_eq!(
        field("otel.name"),
        Some(format!("execute_tool {tool}").as_str())
    );
    assert_eq!(field("gen_ai.operation.name"), Some("execute_tool"));
    assert_eq!(field("gen_ai.tool.name"), Some(tool));
    assert_eq!(field("gen_ai.tool.call.id"), Some(id));
    assert_eq!(field("gen_ai.tool.type"), Some("function"));
    assert_eq!(
        field("error.type"),
        error_type,
        "error.type of {tool}: {span:#?}"
    );
}

fn assert_no_secret(captured: &Captured) {
    let everything = format!("{captured:?}");
    assert!(
        !everything.contains(SECRET),
        "a secret was traced: {everything}"
    );
}

#[test]
fn each_call_runs_in_a_genai_span_and_its_retry_is_an_event_inside_it() {
    let toolbox = toolbox();
    let (outcomes, captured) = traced_turn(
        &toolbox,
        vec![
            call("c1", "lookup"),
            call("c2", "read_file"),
            call("c3", "fetch"),
            call("c4", "forecast"),
        ],
    );
    let answers: Vec<(&str, bool, u32)> = outcomes
        .iter()
        .map(|o| (o.call.id.as_str(), o.lowered.result.is_error, o.attempts))
        .collect();
    assert_eq!(
        answers,
        [
            ("c1", false, 1),
            ("c2", true, 1),
            ("c3", false, 2),
            ("c4", true, 0)
        ]
    );
    // The secret is on the Rust channel (so there is something to leak)...
    let io = outcomes[1].lowered.diagnostics.source().expect("a source");
    assert!(io.to_string().contains(SECRET));

    let (_, lookup) = span_of(&captured, "c1");
    assert_genai_span(lookup, "c1", "lookup", None);
    let (_, read_file) = span_of(&captured, "c2");
    assert_genai_span(read_file, "c2", "read_file", Some("std::io::Error"));
    let (fetch_index, fetch) = span_of(&captured, "c3");
    // Retried to a success: the call did not end in an error.
    assert_genai_span(fetch, "c3", "fetch", None);

    // One retry event, inside the retried call's span, with the error's
    // type and flags, never its text.
    let retries: Vec<&EventRecord> = captured
        .events
        .iter()
        .filter(|e| e.fields.get("message").map(String::as_str) == Some("retrying the tool call"))
        .collect();
    assert_eq!(retries.len(), 1, "{captured:#?}");
    let retry = retries[0];
    assert_eq!(retry.parent, Some(fetch_index));
    assert_eq!(retry.target, "toolresult::retry");
    let field = |name: &str| retry.fields.get(name).map(String::as_str);
    assert_eq!(field("attempt"), Some("1"));
    assert_eq!(field("delay_ms"), Some("250"));
    assert_eq!(field("classification"), Some("transient"));
    assert_eq!(field("error_type"), Some("std::io::Error"));
    assert_eq!(field("transient"), Some("Some(true)"));
    assert_eq!(field("retry_after_ms"), None);
    // Every event of the turn is inside a call span.
    assert!(
        captured.events.iter().all(|e| e.parent.is_some()),
        "{captured:#?}"
    );

    // ...and never in any span field or event.
    assert_no_secret(&captured);
}

/// `error.type` on a failed call names the source's type: also for an
/// unknown tool name (`UnknownTool`), whose call, like every call, has its
/// span.
#[test]
fn an_unknown_tool_call_has_its_span_with_error_type() {
    let toolbox = toolbox();
    let (outcomes, captured) = traced_turn(&toolbox, vec![call("c4", "forecast")]);
    assert!(outcomes[0].lowered.result.is_error);
    let (_, forecast) = span_of(&captured, "c4");
    assert_genai_span(forecast, "c4", "forecast", Some("UnknownTool"));
    assert_no_secret(&captured);
}

/// The decisions on an approval, as events of the call's span: which
/// decision, never the arguments or the message.
#[test]
fn an_approval_and_its_decision_are_events_of_the_calls_span() {
    let mut toolbox = Toolbox::new();
    toolbox
        .register(
            tool::function(
                "drop_table",
                "Drops a table",
                |_: serde_json::Value| "dropped",
            )
            .expect("a name")
            .with_approval(Approval::always()),
        )
        .expect("registered");
    let secret_call = Call::new(
        "c1",
        "drop_table",
        Arguments::Json(json!({"table": SECRET})),
    );
    let (parked, asked) = traced_turn(&toolbox, vec![secret_call]);
    let (span, _) = span_of(&asked, "c1");
    let decisions = |captured: &Captured| -> Vec<String> {
        captured
            .events
            .iter()
            .filter(|event| event.parent == Some(span))
            .filter_map(|event| event.fields.get("approval.decision").cloned())
            .collect()
    };
    assert_eq!(decisions(&asked), ["asked"]);
    let request = parked[0].lowered.result.pending_request().expect("parked");
    let turn = Turn::default()
        .resume(&parked[0], Answer::reject(&request, SECRET))
        .expect("resumed");
    let (rejected, decided) = traced_turn(&toolbox, turn);
    assert!(
        rejected[0].lowered.result.output.contains(SECRET),
        "the model reads it"
    );
    let (span, _) = span_of(&decided, "c1");
    let events: Vec<String> = decided
        .events
        .iter()
        .filter(|event| event.parent == Some(span))
        .filter_map(|event| event.fields.get("approval.decision").cloned())
        .collect();
    assert_eq!(events, ["rejected"]);
    assert_no_secret(&asked);
    assert_no_secret(&decided);
}
