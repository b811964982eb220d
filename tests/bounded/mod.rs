//! Running a test that could hang or abort so that the suite cannot: in a
//! child process (this test binary run again for one test) with a deadline,
//! or in a thread with a deadline.
#![allow(dead_code)]

use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Set in the child to the name of the test it runs.
const CHILD: &str = "TOOLRESULT_BOUNDED_CHILD";

/// What a child process did.
#[derive(Debug)]
pub struct Outcome {
    /// Whether it exited with status 0.
    pub success: bool,
    /// Whether it had to be killed at the deadline.
    pub timed_out: bool,
    /// Its standard output and error, together.
    pub output: String,
}

/// Whether this process is the child running `test`.
pub fn is_child(test: &str) -> bool {
    std::env::var(CHILD).is_ok_and(|name| name == test)
}

/// Runs the test `test` (its full name, as `cargo test` prints it, without
/// the binary) in a child process and waits at most `deadline` for it;
/// with `memory_kib`, under that limit of virtual memory (`ulimit -v`).
pub fn run_child(test: &str, deadline: Duration, memory_kib: Option<u64>) -> Outcome {
    let exe = std::env::current_exe().unwrap();
    let mut command = match memory_kib {
        Some(kib) => {
            let mut sh = Command::new("sh");
            sh.arg("-c")
                .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
                .arg(&exe);
            sh
        }
        None => Command::new(&exe),
    };
    let out_path = std::env::temp_dir().join(format!(
        "toolresult-child-{}-{}.log",
        std::process::id(),
        test.replace("::", "-")
    ));
    let log = std::fs::File::create(&out_path).unwrap();
    let mut child = command
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, test)
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap();
    let started = Instant::now();
    let (success, timed_out) = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break (status.success(), false);
        }
        if started.elapsed() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            break (false, true);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = std::fs::read_to_string(&out_path).unwrap_or_default();
    let _ = std::fs::remove_file(&out_path);
    Outcome {
        success,
        timed_out,
        output,
    }
}

/// Runs `work` on another thread and waits at most `deadline` for its
/// answer; panics (failing the test) if it does not come. A thread that is
/// still running then is left behind, and ends with the test process.
pub fn within<T: Send + 'static>(
    deadline: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(work());
    });
    match rx.recv_timeout(deadline) {
        Ok(value) => value,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("no answer within {deadline:?}: it hangs"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the work panicked"),
    }
}
