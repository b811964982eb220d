//! The quickstart: a tool's results in the canonical Toolnexus model.
//!
//! Run with `cargo run --example quickstart`.

use toolresult::canonical::{ContentPart, Request, ToolResult, read};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Success and failure on one tool: failures are results, not panics.
    let found = ToolResult::ok("eu-west-1");
    let missing = ToolResult::error("No such config key: nope");
    println!("{}", serde_json::to_string(&found)?);
    println!("{}", serde_json::to_string(&missing)?);

    // Output describes, parts carry.
    let png = ContentPart::from_path("tests/fixtures/fixture.png")?;
    let shot = ToolResult::ok_with_parts(png.describe(), vec![png]);
    println!("{}", serde_json::to_string(&shot)?);

    // The built-in read of a media file.
    let read_png = read("tests/fixtures/fixture.png");
    println!("read: {}", read_png.output);

    // A suspension: the call parks until the request is answered.
    let parked = ToolResult::pending(Request::input("Which environment?"));
    let request = parked.pending_request().ok_or("no suspension")?;
    println!("pending: {} {:?}", request.kind, request.prompt);
    Ok(())
}
