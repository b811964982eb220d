//! A turn of 16 results, each with a 1 MiB image, rendered for Anthropic
//! into a writer: the heap it takes above the results themselves stays
//! within 1.3x the rendered size (in fact far below: the images are
//! base64-encoded straight into the writer). Measured with a counting global
//! allocator in this test binary.

use std::io::Write;

use toolresult::canonical::{ContentPart, ToolResult};
use toolresult::provider::{Anthropic, CallRef, PartPolicy, Provider};

mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

use counting::peak_of;

/// A writer that counts what it is given and keeps nothing.
struct CountingSink(usize);

impl Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn anthropic_reply_of_sixteen_images_streams_into_a_writer() {
    const IMAGE: usize = 1 << 20;
    let results: Vec<ToolResult> = (0..16)
        .map(|i| {
            let bytes: Vec<u8> = (0..IMAGE).map(|b| (b * 7 + i) as u8).collect();
            let part = ContentPart::from_bytes(bytes, "image/png").unwrap();
            ToolResult::ok(format!("screenshot {i}")).with_parts([part])
        })
        .collect();
    let ids: Vec<String> = (0..16).map(|i| format!("toolu_{i:02}")).collect();
    let turn: Vec<(CallRef<'_>, &ToolResult)> = ids
        .iter()
        .zip(&results)
        .map(|(id, result)| (CallRef::new(id, "screenshot"), result))
        .collect();

    let (peak, rendered) = peak_of(|| {
        let reply = Anthropic::reply(&turn, PartPolicy::Strict).unwrap();
        let mut sink = std::io::BufWriter::new(CountingSink(0));
        serde_json::to_writer(&mut sink, &reply).unwrap();
        sink.flush().unwrap();
        sink.into_inner().map(|s| s.0).unwrap_or(0)
    });

    println!("peak heap {peak} bytes above the results, for {rendered} rendered bytes");
    // 16 images of 1 MiB are 16 x 1,398,104 base64 characters at least.
    assert!(rendered > 16 * 1_398_100, "rendered {rendered} bytes");
    let limit = rendered * 13 / 10;
    assert!(
        peak <= limit,
        "peak heap {peak} bytes for {rendered} rendered bytes (limit {limit})"
    );
    // Streaming: the reply holds no copy of any image.
    assert!(
        peak < IMAGE,
        "peak heap {peak} bytes: a copy of an image was made"
    );
}

#[test]
fn rendering_to_a_string_holds_the_rendered_size_once() {
    // The counter can fail: a rendering that builds the whole JSON in memory
    // is caught by it.
    let bytes = vec![0x5a_u8; 1 << 20];
    let part = ContentPart::from_bytes(bytes, "image/png").unwrap();
    let result = ToolResult::ok("shot").with_parts([part]);
    let turn = [(CallRef::new("toolu_1", "shot"), &result)];
    let (peak, text) = peak_of(|| {
        serde_json::to_string(&Anthropic::reply(&turn, PartPolicy::Strict).unwrap()).unwrap()
    });
    assert!(
        peak >= text.len(),
        "peak {peak} below the string's own {} bytes",
        text.len()
    );
}

/// A turn of many calls, at most 64 at once, holds the futures of the calls
/// running, not of every call: above what its outcomes keep, its peak is the
/// turn's own list of calls and a bounded amount, whatever its length.
#[test]
fn a_long_turn_holds_no_more_than_its_running_calls() {
    use toolresult::provider::Call;
    use toolresult::tool::{self, Arguments};
    use toolresult::toolbox::Toolbox;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Add {
        a: i64,
        b: i64,
    }
    const CALLS: usize = 20_000;
    // What running calls may hold at once, beyond the outcomes themselves.
    const RUNNING: usize = 1 << 20;

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let mut toolbox = Toolbox::new().concurrency(64);
    toolbox
        .register(tool::function("add", "Add", |x: Add| (x.a + x.b).to_string()).unwrap())
        .unwrap();
    let calls: Vec<Call> = (0..CALLS)
        .map(|i| {
            Call::new(
                format!("call_{i}"),
                "add",
                Arguments::Text(format!(r#"{{"a":{i},"b":1}}"#)),
            )
        })
        .collect();
    let list = CALLS * std::mem::size_of::<Call>();

    let before = counting::live();
    let (peak, outcomes) = peak_of(|| runtime.block_on(toolbox.run(calls)));
    let kept = usize::try_from(counting::live() - before).unwrap_or(0);

    assert_eq!(outcomes.len(), CALLS);
    assert_eq!(outcomes[CALLS - 1].call.id, format!("call_{}", CALLS - 1));
    assert_eq!(outcomes[CALLS - 1].lowered.result.output, CALLS.to_string());
    let above = peak.saturating_sub(kept);
    println!(
        "peak {peak} bytes, {kept} kept by the outcomes, {above} above them ({list} the list of calls)"
    );
    assert!(
        above <= list + RUNNING,
        "a turn of {CALLS} calls held {above} bytes above its outcomes (limit {})",
        list + RUNNING
    );
}
