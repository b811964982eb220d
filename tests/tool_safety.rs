//! Tool safety belongs to the tool: declared where it is defined, read by the
//! retry policy, and rendered into MCP tool annotations.

mod support;
use support::call;

use std::time::Duration;

use serde_json::json;
use toolresult::provider::{Mcp, Provider};
use toolresult::retry::{Backoff, Decision, RetryPolicy, StopReason};
use toolresult::tool::{self, Tool, ToolSafety};
use toolresult::{Failure, IntoToolResult, ToolError, ToolResult};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

fn busy() -> ToolResult<u8> {
    ToolResult::fail(Failure::new(ToolError::new("busy")).transient())
}

fn tool_with(safety: Option<ToolSafety>) -> Box<dyn Tool> {
    let defined = tool::function("fetch", "Fetch", |_: NoArgs| busy()).unwrap();
    match safety {
        Some(safety) => Box::new(defined.with_safety(safety)),
        None => Box::new(defined),
    }
}

#[test]
fn each_variant_is_one_consistent_promise() {
    // (variant, read-only, idempotent, destructive, retried)
    let table = [
        (ToolSafety::ReadOnly, true, true, false, true),
        (ToolSafety::Idempotent, false, true, false, true),
        (ToolSafety::IdempotentDestructive, false, true, true, true),
        (ToolSafety::Additive, false, false, false, false),
        (ToolSafety::Destructive, false, false, true, false),
    ];
    for (safety, read_only, idempotent, destructive, retried) in table {
        assert_eq!(safety.is_read_only(), read_only, "{safety:?}");
        assert_eq!(safety.is_idempotent(), idempotent, "{safety:?}");
        assert_eq!(safety.is_destructive(), destructive, "{safety:?}");
        assert_eq!(safety.allows_retry(), retried, "{safety:?}");
    }
    assert_eq!(ToolSafety::default(), ToolSafety::Destructive);
}

#[test]
fn a_tool_reports_the_safety_it_was_defined_with() {
    assert_eq!(tool_with(None).safety(), ToolSafety::Destructive);
    assert_eq!(
        tool_with(Some(ToolSafety::ReadOnly)).safety(),
        ToolSafety::ReadOnly
    );
    let shared: std::sync::Arc<dyn Tool> =
        std::sync::Arc::from(tool_with(Some(ToolSafety::Idempotent)));
    assert_eq!(shared.safety(), ToolSafety::Idempotent);
}

#[test]
fn the_retry_policy_reads_the_tools_safety() {
    let policy = RetryPolicy::new().backoff(Backoff::constant(Duration::from_millis(5)));
    for (safety, expected) in [
        (
            Some(ToolSafety::ReadOnly),
            Decision::Retry(Duration::from_millis(5)),
        ),
        (
            Some(ToolSafety::IdempotentDestructive),
            Decision::Retry(Duration::from_millis(5)),
        ),
        (
            Some(ToolSafety::Additive),
            Decision::Stop(StopReason::NotIdempotent),
        ),
        (None, Decision::Stop(StopReason::NotIdempotent)),
    ] {
        let tool = tool_with(safety);
        let lowered = call(&tool, json!({}));
        assert_eq!(
            policy.decide(tool.safety(), &lowered, 1),
            expected,
            "{safety:?}"
        );
    }
    let opted_in = policy.clone().retry_non_idempotent(true);
    let tool = tool_with(None);
    let lowered = call(&tool, json!({}));
    assert!(opted_in.decide(tool.safety(), &lowered, 1).is_retry());
    // The typed outcome decides the same way.
    assert!(policy.decide(ToolSafety::ReadOnly, &busy(), 1).is_retry());
    assert!(
        !policy
            .decide(ToolSafety::Additive, &busy().lower(), 1)
            .is_retry()
    );
}

#[test]
fn mcp_annotations_come_from_the_tools_safety() {
    let annotations = |safety| {
        serde_json::to_value(Mcp::declare(&tool_with(safety))).unwrap()["annotations"].clone()
    };
    assert_eq!(
        annotations(Some(ToolSafety::ReadOnly)),
        json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true})
    );
    assert_eq!(
        annotations(Some(ToolSafety::Idempotent)),
        json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true})
    );
    assert_eq!(
        annotations(Some(ToolSafety::IdempotentDestructive)),
        json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true})
    );
    assert_eq!(
        annotations(Some(ToolSafety::Additive)),
        json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false})
    );
    // MCP's defaults for a tool that says nothing.
    assert_eq!(
        annotations(None),
        json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false})
    );
}

#[test]
fn mcp_declaration_golden_with_annotations() {
    let tool = tool_with(Some(ToolSafety::ReadOnly));
    assert_eq!(
        serde_json::to_string(&Mcp::declare(&tool)).unwrap(),
        r#"{"name":"fetch","description":"Fetch","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true}}"#
    );
}

#[cfg(feature = "rmcp")]
#[test]
fn rmcp_tool_carries_the_annotations() {
    let tool = tool_with(Some(ToolSafety::IdempotentDestructive));
    let rmcp_tool = rmcp::model::Tool::try_from(Mcp::declare(&tool)).unwrap();
    let annotations = rmcp_tool.annotations.expect("annotations");
    assert_eq!(annotations.read_only_hint, Some(false));
    assert_eq!(annotations.destructive_hint, Some(true));
    assert_eq!(annotations.idempotent_hint, Some(true));
}
