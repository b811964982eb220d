//! Every public type is Send + Sync where its contents are: checked at
//! compile time, so this file failing to build is the failure.

use toolresult::canonical::{
    Answer, ContentPart, MediaSource, MediaType, PartError, PartKind, PartLimit, Request,
    ToolResult as CanonicalResult,
};
use toolresult::lower::UnexpectedError;
use toolresult::{Diagnostics, DynToolResult, Failure, Lowered, ToolError, ToolResult};

const fn assert_send_sync<T: Send + Sync>() {}

const _: () = {
    assert_send_sync::<CanonicalResult>();
    assert_send_sync::<ContentPart>();
    assert_send_sync::<MediaSource>();
    assert_send_sync::<MediaType>();
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
    assert_send_sync::<Box<dyn DynToolResult + Send + Sync>>();
};

#[test]
fn typed_results_cross_threads() {
    let result = ToolResult::<_>::ok(vec![1u8, 2]);
    let output =
        std::thread::spawn(move || toolresult::IntoToolResult::into_tool_result(result).output)
            .join()
            .unwrap();
    assert_eq!(output, "[1,2]");
}
