//! The OpenTelemetry GenAI span of a tool call (feature `tracing`).

use std::future::Future;

use tracing::Instrument as _;

use crate::Lowered;
use crate::provider::Call;

/// `run` inside the span of `call`: named `execute_tool {name}` (through
/// `otel.name`), with the GenAI attributes, and `error.type` recorded when
/// the call ends in an error.
pub(super) fn traced<F, T>(
    call: &Call,
    run: F,
    lowered: fn(&T) -> Option<&Lowered>,
) -> impl Future<Output = T>
where
    F: Future<Output = T>,
{
    let span = tracing::info_span!(
        "execute_tool",
        otel.name = %format_args!("execute_tool {}", call.name),
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = %call.name,
        gen_ai.tool.call.id = %call.id,
        gen_ai.tool.type = "function",
        error.type = tracing::field::Empty,
    );
    let recorder = span.clone();
    async move {
        let answered = run.await;
        if let Some(result) = lowered(&answered)
            && result.result.is_error
            && !result.result.is_pending()
        {
            let error_type = result.diagnostics.source_type_name().unwrap_or("_OTHER");
            recorder.record("error.type", error_type);
        }
        answered
    }
    .instrument(span)
}
