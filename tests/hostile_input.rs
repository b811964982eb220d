//! Input written to break the crate's promises ("a call never panics",
//! "nothing hangs", "size limits on parts", "a cancelled call is never
//! retried"), one test per way found. A case that would hang or abort runs
//! in a child process or a thread with a deadline, so the suite cannot.

mod support;
use support::call;

mod bounded;
mod chains;

use std::error::Error;
use std::fmt;
use std::io::{ErrorKind, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use chains::{End, Step};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use toolresult::budget::{Artifact, ArtifactStore, FileStore};
use toolresult::canonical::{self, ContentPart, PartLimit};
use toolresult::provider::{Gemini, Mcp, Provider};
use toolresult::retry::{Cancelled, Classification, Decision, RetryPolicy, StopReason};
use toolresult::tool::ArtifactReader;
use toolresult::tool::{self, ToolSafety};
use toolresult::{Failure, IntoToolResult, ToolResult};

const DEADLINE: Duration = Duration::from_secs(20);

/// An error whose source is itself.
#[derive(Debug, Clone, Copy)]
struct Ouroboros;

impl fmt::Display for Ouroboros {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ouroboros")
    }
}

impl Error for Ouroboros {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(self)
    }
}

#[derive(Deserialize, JsonSchema)]
struct NoArgs {}

/// The model-facing names of this file's error types: their names without
/// the module path.
const OUROBOROS: &str = "Ouroboros";
const HEAD: &str = "Head";

fn unexpected(type_name: &str) -> String {
    format!(r#"{{"error":{{"message":"the tool failed with an unexpected error ({type_name})"}}}}"#)
}

// ---------------------------------------------------------------------------
// 1. a cyclic source chain
// ---------------------------------------------------------------------------

#[test]
fn a_self_cycle_lowers_by_every_route() {
    let outputs = bounded::within(DEADLINE, || {
        let failure = Failure::unexpected(Ouroboros);
        let direct = ToolResult::<()>::fail(failure).lower().result.output;
        let anyhow = ToolResult::<()>::fail(Failure::unexpected(anyhow::Error::new(Ouroboros)))
            .lower()
            .result
            .output;
        // A `Result<T, SomeStdError>` lowers through `?` into a `Failure`.
        let result = || -> Result<u8, Failure> { Err(Ouroboros)? };
        let via_result = result().lower().result.output;
        let body = tool::function("snake", "Fails", |_: NoArgs| -> Result<u8, Failure> {
            Err(Ouroboros)?
        })
        .expect("a valid tool name");
        let via_tool = call(&body, json!({})).result.output;
        [direct, anyhow, via_result, via_tool]
    });
    let [direct, anyhow, via_result, via_tool] = outputs;
    assert_eq!(direct, unexpected(OUROBOROS));
    assert_eq!(anyhow, unexpected("anyhow::Error"));
    assert_eq!(via_result, unexpected(OUROBOROS));
    assert_eq!(via_tool, unexpected(OUROBOROS));
}

#[test]
fn a_longer_cycle_lowers_and_keeps_its_io_kind() {
    let outputs = bounded::within(DEADLINE, move || {
        // head → plain → plain → plain → back to the first plain.
        let plain = chains::build(&[Step::Plain; 3], End::BackTo(0));
        // head → plain → io(TimedOut) → plain → back to the first plain.
        let steps = [Step::Plain, Step::Io(ErrorKind::TimedOut), Step::Plain];
        let with_io = chains::build(&steps, End::BackTo(0));
        [plain, with_io].map(|head| {
            let result = || -> Result<u8, Failure> { Err(head)? };
            result().lower().result.output
        })
    });
    assert_eq!(outputs[0], unexpected(HEAD));
    assert_eq!(outputs[1], unexpected(&format!("{HEAD}, kind TimedOut")));
}

// ---------------------------------------------------------------------------
// 2. a panic payload whose Drop panics
// ---------------------------------------------------------------------------

/// A panic payload whose destructor panics.
struct Grenade;

impl Drop for Grenade {
    fn drop(&mut self) {
        panic!("the payload's destructor panicked");
    }
}

#[test]
fn a_payload_that_panics_when_dropped_stays_in_the_call() {
    let sync = tool::function("grenade", "Panics", |_: NoArgs| -> Result<u8, Failure> {
        std::panic::panic_any(Grenade)
    })
    .expect("a valid tool name");
    let asynchronous = tool::function("grenade_async", "Panics", |_: NoArgs| async {
        if true {
            std::panic::panic_any(Grenade);
        }
        Ok::<u8, Failure>(0)
    })
    .expect("a valid tool name");
    let expected = unexpected("ToolPanicked");

    let blocking = catch_unwind(AssertUnwindSafe(|| Some(call(&sync, json!({})))))
        .expect("no panic escapes call_blocking")
        .unwrap();
    assert_eq!(blocking.result.output, expected);
    let called =
        catch_unwind(AssertUnwindSafe(|| call(&sync, json!({})))).expect("no panic escapes call");
    assert_eq!(called.result.output, expected);
    let future = catch_unwind(AssertUnwindSafe(|| call(&asynchronous, json!({}))))
        .expect("no panic escapes an async tool's future");
    assert_eq!(future.result.output, expected);
}

// ---------------------------------------------------------------------------
// 3. a path swapped to a FIFO between the check and the open
// ---------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn a_path_flipped_to_a_fifo_never_blocks() {
    const TEST: &str = "a_path_flipped_to_a_fifo_never_blocks";
    if bounded::is_child(TEST) {
        flip_and_read();
        return;
    }
    let outcome = bounded::run_child(TEST, Duration::from_secs(60), None);
    assert!(
        !outcome.timed_out,
        "reading a path flipped to a FIFO blocked:\n{}",
        outcome.output
    );
    assert!(outcome.success, "{}", outcome.output);
}

/// In the child: a thread flips a symlink between a regular file and a
/// FIFO (that no one ever writes to) while this thread reads it for a few
/// seconds.
#[cfg(unix)]
fn flip_and_read() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;

    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.png");
    std::fs::copy("tests/fixtures/fixture.png", &real).unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let link = dir.path().join("shot.png");
    std::os::unix::fs::symlink(&real, &link).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let flipper = {
        let (stop, link, dir) = (stop.clone(), link.clone(), dir.path().to_owned());
        std::thread::spawn(move || {
            let staged = dir.join("staged");
            let mut to_fifo = true;
            while !stop.load(Ordering::Relaxed) {
                let target = if to_fifo { &fifo } else { &real };
                let _ = std::fs::remove_file(&staged);
                std::os::unix::fs::symlink(target, &staged).unwrap();
                std::fs::rename(&staged, &link).unwrap();
                to_fifo = !to_fifo;
            }
        })
    };
    let started = Instant::now();
    let (mut read, mut refused) = (0, 0);
    while started.elapsed() < Duration::from_secs(4) {
        match ContentPart::from_path(&link, PartLimit::default()) {
            Ok(part) => {
                assert_eq!(part.byte_len(), 82);
                read += 1;
            }
            Err(err) => {
                assert!(err.to_string().ends_with("is not a regular file"), "{err}");
                refused += 1;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    flipper.join().unwrap();
    println!("read {read}, refused {refused}");
    assert!(read > 0 && refused > 0);
}

// ---------------------------------------------------------------------------
// 4. a cancellation deep in the chain
// ---------------------------------------------------------------------------

#[test]
fn a_cancellation_under_many_contexts_is_never_retried() {
    let policy = RetryPolicy::new().max_attempts(5);
    for contexts in [63, 64, 65, 100, 10_000] {
        let mut error = anyhow::Error::new(Cancelled);
        for i in 0..contexts {
            error = error.context(format!("context {i}"));
        }
        let failure = Failure::unexpected(error).transient();
        assert_eq!(
            policy.decide(ToolSafety::Idempotent, &failure, 1),
            Decision::Stop(StopReason::Cancelled),
            "Cancelled under {contexts} contexts"
        );
        // Cancelled is found in the chain: it classifies as permanent
        // although the failure is marked transient.
        assert_eq!(
            policy.classification(&failure),
            Classification::Permanent,
            "Cancelled under {contexts} contexts"
        );
        assert!(
            failure
                .diagnostics()
                .source()
                .unwrap()
                .root_cause()
                .is::<Cancelled>()
        );
        // anyhow drops a chain of contexts recursively, and 10,000 of them
        // overflow a test thread's stack (in anyhow's drop, not in this
        // crate): leak the error instead.
        std::mem::forget(failure);
    }
}

#[test]
fn an_io_kind_deep_in_the_chain_is_classified() {
    let mut steps = vec![Step::Plain; 200];
    steps.push(Step::Io(ErrorKind::ConnectionReset));
    let head = chains::build(&steps, End::Nothing);
    assert_eq!(
        RetryPolicy::new().classification(&anyhow::Error::new(head)),
        Classification::Transient
    );
}

// ---------------------------------------------------------------------------
// 5. a sparse file larger than memory
// ---------------------------------------------------------------------------

#[cfg(target_os = "linux")]
#[test]
fn a_sparse_file_larger_than_memory_is_an_error_not_an_abort() {
    const TEST: &str = "a_sparse_file_larger_than_memory_is_an_error_not_an_abort";
    if bounded::is_child(TEST) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge.png");
        std::fs::File::create(&path)
            .unwrap()
            .set_len(1 << 40)
            .unwrap();
        let err = ContentPart::from_path(&path, PartLimit::new(u64::MAX)).unwrap_err();
        println!("refused: {err}");
        return;
    }
    // 1 GiB of address space: far less than the 1 TiB file.
    let outcome = bounded::run_child(TEST, Duration::from_secs(120), Some(1 << 20));
    assert!(!outcome.timed_out, "{}", outcome.output);
    assert!(outcome.success, "the process died:\n{}", outcome.output);
    assert!(
        outcome.output.contains("refused: cannot allocate ")
            && outcome.output.contains(" bytes to hold `"),
        "{}",
        outcome.output
    );
}

/// Before: `FileStore::get` reserved a buffer of the size the file
/// reported, so a 1 TiB sparse file planted under an artifact's name (or
/// its sidecar's) aborted the process ("memory allocation of 1099511627776
/// bytes failed"), through `read_artifact` too.
#[cfg(target_os = "linux")]
#[test]
fn a_sparse_artifact_larger_than_memory_is_an_error_not_an_abort() {
    const TEST: &str = "a_sparse_artifact_larger_than_memory_is_an_error_not_an_abort";
    if bounded::is_child(TEST) {
        read_sparse_artifacts();
        return;
    }
    // 1 GiB of address space: far less than the 1 TiB files.
    let outcome = bounded::run_child(TEST, Duration::from_secs(120), Some(1 << 20));
    assert!(!outcome.timed_out, "{}", outcome.output);
    assert!(outcome.success, "the process died:\n{}", outcome.output);
    let over_the_store = format!(
        "` is 1099511627776 bytes, over the store's limit of {} bytes",
        FileStore::DEFAULT_MAX_BYTES
    );
    for expected in [
        "artifact: the artifact file `",
        &over_the_store,
        "sidecar: the artifact file `",
        ".json` is 1099511627776 bytes, over the store's limit of 65536 bytes",
        "reader: {\"error\"",
    ] {
        assert!(
            outcome.output.contains(expected),
            "{expected}\n{}",
            outcome.output
        );
    }
}

/// In the child: an artifact, then a sidecar, grown to 1 TiB of hole, read
/// back through the store and through `read_artifact`.
#[cfg(target_os = "linux")]
fn read_sparse_artifacts() {
    use std::sync::Arc;

    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(FileStore::new(dir.path()).unwrap());
    let grow = |file: String| {
        std::fs::OpenOptions::new()
            .write(true)
            .open(dir.path().join(file))
            .unwrap()
            .set_len(1 << 40)
            .unwrap();
    };
    let artifact = store.put(Artifact::new("abc", "text/plain")).unwrap();
    grow(artifact.to_string());
    println!("artifact: {}", store.get(&artifact).unwrap_err());
    let reader = ArtifactReader::new(store.clone()).unwrap();
    let read = call(&reader, json!({"artifact": artifact.as_str()}));
    assert!(read.result.is_error);
    println!("reader: {}", read.result.output);

    let sidecar = store.put(Artifact::new("abc", "text/plain")).unwrap();
    grow(format!("{sidecar}.json"));
    println!("sidecar: {}", store.get(&sidecar).unwrap_err());
}

// ---------------------------------------------------------------------------
// 6. parsing applies the default limit
// ---------------------------------------------------------------------------

/// Base64 of `bytes` zero bytes (a multiple of 3).
fn zeros_base64(bytes: usize) -> String {
    assert_eq!(bytes % 3, 0);
    "AAAA".repeat(bytes / 3)
}

const TWENTY_FIVE_MIB: usize = 25 * 1024 * 1024 + 2; // a multiple of 3
const OVER: &str =
    "the part's `data` is 26214402 bytes, over the part size limit of 20971520 bytes";

#[test]
fn a_part_over_the_default_limit_does_not_parse() {
    let data = zeros_base64(TWENTY_FIVE_MIB);
    let part = format!(r#"{{"type":"image","mimeType":"image/png","data":"{data}"}}"#);
    let err = serde_json::from_str::<ContentPart>(&part).unwrap_err();
    assert!(err.to_string().starts_with(OVER), "{err}");

    let result = format!(r#"{{"output":"big","isError":false,"parts":[{part}]}}"#);
    let err = serde_json::from_str::<canonical::ToolResult>(&result).unwrap_err();
    assert!(err.to_string().starts_with(OVER), "{err}");
    let err = serde_json::from_reader::<_, canonical::ToolResult>(result.as_bytes()).unwrap_err();
    assert!(err.to_string().starts_with(OVER), "{err}");

    let mcp = json!({
        "content": [{"type": "image", "mimeType": "image/png", "data": data}],
        "isError": false
    });
    let err = Mcp::read_result(mcp.to_string(), PartLimit::default()).unwrap_err();
    assert!(
        err.to_string().contains(OVER),
        "{}",
        err.to_string().get(..200).unwrap_or_default()
    );
}

#[test]
fn a_part_at_the_default_limit_parses() {
    let bytes = 20 * 1024 * 1024 - 2; // a multiple of 3, under the limit
    let part = format!(
        r#"{{"type":"image","mimeType":"image/png","data":"{}"}}"#,
        zeros_base64(bytes)
    );
    let parsed = serde_json::from_str::<ContentPart>(&part).unwrap();
    assert_eq!(parsed.byte_len(), bytes);
}

#[test]
fn an_oversized_part_is_refused_before_its_base64_is_read() {
    // Over the limit and broken at the very end: the size is what is
    // reported, so the base64 was never decoded.
    let mut data = zeros_base64(TWENTY_FIVE_MIB);
    data.pop();
    data.push('!');
    let part = format!(r#"{{"type":"image","mimeType":"image/png","data":"{data}"}}"#);
    let err = serde_json::from_str::<ContentPart>(&part).unwrap_err();
    assert!(err.to_string().starts_with(OVER), "{err}");
}

// ---------------------------------------------------------------------------
// also found
// ---------------------------------------------------------------------------

#[test]
fn a_64_mib_data_url_is_refused_from_its_length() {
    let mut url = format!(
        "data:image/png;base64,{}",
        zeros_base64(64 * 1024 * 1024 + 2)
    );
    url.pop();
    url.push('!');
    let err = ContentPart::from_url(&url, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the data: URL's data is 67108866 bytes, over the part size limit of 20971520 bytes"
    );
}

#[test]
fn echoed_values_are_cut() {
    let huge = "x".repeat(1024 * 1024);
    let cut = format!("{}…", "x".repeat(64));
    let messages = [
        ContentPart::from_bytes(vec![1], &huge)
            .unwrap_err()
            .to_string(),
        ContentPart::from_bytes(vec![1], &format!("image/{huge}"))
            .map(|_| String::new())
            .unwrap_or_else(|err| err.to_string()),
        ContentPart::from_url("https://example.com/a", Some(&format!("a b{huge}")))
            .unwrap_err()
            .to_string(),
        ContentPart::from_url("data:image/png;base64,AAAA", Some(&format!("image/{huge}")))
            .unwrap_err()
            .to_string(),
        ContentPart::from_path(format!("{huge}.png"), PartLimit::default())
            .unwrap_err()
            .to_string(),
        ContentPart::from_path(format!("a.{huge}"), PartLimit::default())
            .unwrap_err()
            .to_string(),
        serde_json::from_str::<ContentPart>(&format!(r#"{{"type":"{huge}"}}"#))
            .unwrap_err()
            .to_string(),
        serde_json::from_str::<ContentPart>(&format!(
            r#"{{"type":"image","mimeType":"{huge}","data":"AAAA"}}"#
        ))
        .unwrap_err()
        .to_string(),
    ];
    for message in messages {
        assert!(
            message.len() < 400,
            "{} characters: {}",
            message.len(),
            message.get(..300).unwrap_or_default()
        );
    }
    assert_eq!(
        ContentPart::from_bytes(vec![1], &huge)
            .unwrap_err()
            .to_string(),
        format!("invalid mime type `{cut}`: expected `type/subtype`")
    );
}

/// A reader that says it read more than the buffer it was given.
struct Braggart;

impl Read for Braggart {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Ok(buf.len() + 100)
    }
}

#[test]
fn a_reader_that_overstates_its_count_is_an_error() {
    let result =
        catch_unwind(|| ContentPart::from_reader(Braggart, "image/png", PartLimit::default()));
    let err = result.expect("no panic").unwrap_err();
    let message = err.to_string();
    assert!(
        message.starts_with("cannot read the reader: the reader reported ")
            && message.contains(" bytes read into a buffer of "),
        "{message}"
    );
    let source = err
        .source()
        .unwrap()
        .downcast_ref::<std::io::Error>()
        .unwrap();
    assert_eq!(source.kind(), ErrorKind::InvalidData);
}

/// A type with 13 references to itself.
#[allow(dead_code)]
#[derive(Deserialize, JsonSchema)]
struct Thirteen {
    a: Option<Box<Thirteen>>,
    b: Option<Box<Thirteen>>,
    c: Option<Box<Thirteen>>,
    d: Option<Box<Thirteen>>,
    e: Option<Box<Thirteen>>,
    f: Option<Box<Thirteen>>,
    g: Option<Box<Thirteen>>,
    h: Option<Box<Thirteen>>,
    i: Option<Box<Thirteen>>,
    j: Option<Box<Thirteen>>,
    k: Option<Box<Thirteen>>,
    l: Option<Box<Thirteen>>,
    m: Vec<Thirteen>,
}

#[test]
fn a_gemini_declaration_of_a_very_recursive_type_stays_small() {
    let (bytes, took) = bounded::within(DEADLINE, || {
        let t = tool::function("grow", "Grows", |_: Thirteen| "ok").expect("a valid tool name");
        let started = std::time::Instant::now();
        let declared = serde_json::to_string(&Gemini::declare(&t)).unwrap();
        (declared.len(), started.elapsed())
    });
    println!("the declaration: {bytes} bytes in {took:?}");
    assert!(bytes < 128 * 1024, "{bytes} bytes");
    assert!(took < Duration::from_secs(2), "{took:?}");
}

/// Arguments whose own validator words its error.
#[allow(dead_code)]
#[derive(Deserialize, JsonSchema)]
struct Port {
    #[serde(deserialize_with = "low_port")]
    port: u16,
}

fn low_port<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u16, D::Error> {
    let port = u16::deserialize(deserializer)?;
    if port < 1024 {
        Ok(port)
    } else {
        Err(serde::de::Error::custom(
            "ports of the internal proxy at 10.0.0.7 are below 1024",
        ))
    }
}

#[test]
fn an_args_validators_own_text_is_shown_to_the_model_as_the_docs_say() {
    let open = tool::function("open", "Opens a port", |args: Port| {
        Ok::<u16, Failure>(args.port)
    })
    .expect("a valid tool name");
    let lowered = call(&open, json!({"port": 8080}));
    assert!(lowered.result.is_error);
    assert!(
        lowered
            .result
            .output
            .contains("ports of the internal proxy at 10.0.0.7 are below 1024"),
        "{}",
        lowered.result.output
    );
}
