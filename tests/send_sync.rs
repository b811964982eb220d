//! Every public type is Send + Sync where its contents are: checked at
//! compile time, so this file failing to build is the failure.

use toolresult::canonical::{
    Answer, ContentPart, PartError, PartKind, PartLimit, Request, ToolResult as CanonicalResult,
};
use toolresult::retry::RetryPolicy;
use toolresult::tool::{InvalidArguments, InvalidToolName, Tool, ToolPanicked, ToolSafety};
use toolresult::{Diagnostics, Failure, Lowered, ToolError, ToolResult, UnexpectedError};

const fn assert_send_sync<T: Send + Sync>() {}

const _: () = {
    assert_send_sync::<CanonicalResult>();
    assert_send_sync::<ContentPart>();
    assert_send_sync::<PartKind>();
    assert_send_sync::<PartLimit>();
    assert_send_sync::<PartError>();
    assert_send_sync::<Request>();
    assert_send_sync::<Answer>();
    assert_send_sync::<ToolError>();
    assert_send_sync::<Failure>();
    assert_send_sync::<Failure<String>>();
    assert_send_sync::<ToolResult<String>>();
    assert_send_sync::<ToolResult<serde_json::Value, Vec<u8>>>();
    assert_send_sync::<Diagnostics>();
    assert_send_sync::<Lowered>();
    assert_send_sync::<UnexpectedError>();
    // Type-erased results are held as `Lowered` values (above); tools are
    // held type-erased.
    assert_send_sync::<Box<dyn Tool>>();
    assert_send_sync::<std::sync::Arc<dyn Tool>>();
    assert_send_sync::<ToolSafety>();
    assert_send_sync::<InvalidArguments>();
    assert_send_sync::<ToolPanicked>();
    assert_send_sync::<InvalidToolName>();
    assert_send_sync::<RetryPolicy>();
    assert_send_sync::<toolresult::budget::Budget>();
    assert_send_sync::<toolresult::budget::Artifact>();
    assert_send_sync::<toolresult::budget::ArtifactId>();
    assert_send_sync::<toolresult::budget::ArtifactError>();
    assert_send_sync::<toolresult::budget::MemoryStore>();
    assert_send_sync::<toolresult::budget::FileStore>();
    assert_send_sync::<toolresult::tool::ArtifactReader>();
    assert_send_sync::<std::sync::Arc<dyn toolresult::budget::ArtifactStore>>();
};

#[test]
fn typed_results_cross_threads() {
    let result = ToolResult::<_>::ok(vec![1u8, 2]);
    let output =
        std::thread::spawn(move || toolresult::IntoToolResult::lower(result).result.output)
            .join()
            .unwrap();
    assert_eq!(output, "[1,2]");
}
