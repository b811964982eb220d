//! MCP's text block is `output` byte for byte with serde_json's
//! `preserve_order` feature on too.
//!
//! A feature turned on anywhere in a build is on for every crate in it, so
//! this check builds the crate in its own build: the check crate in
//! `tests/preserve_order/`, run here as a child `cargo test` under a time
//! limit, with its own target directory.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(600);

#[test]
fn mcp_keeps_output_with_preserve_order_on() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let target = root.join("target/preserve_order");
    std::fs::create_dir_all(&target).expect("the target directory");
    // Files, not pipes: a full pipe would stall the child.
    let stdout_path = target.join("check.stdout");
    let stderr_path = target.join("check.stderr");
    let mut child = Command::new(cargo)
        .args(["test", "--quiet", "--manifest-path"])
        .arg(root.join("tests/preserve_order/Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).expect("stdout file"))
        .stderr(std::fs::File::create(&stderr_path).expect("stderr file"))
        .spawn()
        .expect("cargo starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited on") {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("the preserve_order check did not finish within {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    assert!(
        status.success(),
        "the preserve_order check failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("2 passed"),
        "the check crate ran other than its two tests:\n{stdout}"
    );
}
