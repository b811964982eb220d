//! Requests a second under load: 1, 8 and 64 concurrent clients calling a
//! trivial tool over streamable HTTP, with sessions (2025-11-25) and
//! stateless (2026-07-28), against the toolbox's server (`McpServer`) and
//! rmcp's own `#[tool_router]` server, each in a child process of its own
//! so that its peak RSS (`VmHWM`) is its own.
//!
//! Not a criterion bench (criterion times one iteration; this counts what
//! a server answers while many wait): it prints one row a case. The
//! clients are rmcp's, in this process, on a 2-thread runtime; each server
//! runs on a 2-thread runtime. Every case runs once for each server, the
//! two servers alternating, then again in the other order.
//!
//! ```sh
//! cargo bench -p toolresult-checks --bench mcp_load              # 3 s a case
//! cargo bench -p toolresult-checks --bench mcp_load -- --quick   # 1 s a case
//! ```

#[path = "common/mcp_servers.rs"]
mod mcp_servers;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use mcp_servers::{Mode, connect, http_config, one_call, rmcp_http, serve_http, toolbox_server};

/// The variable that makes this binary a server: `<toolbox|rmcp>:<sessions|stateless>`.
const SERVE: &str = "MCP_LOAD_SERVE";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

fn mode_of(name: &str) -> Mode {
    if name == "stateless" {
        Mode::Stateless
    } else {
        Mode::Sessions
    }
}

/// Serves as `spec` says, prints the port, and serves until stdin closes.
fn serve(spec: &str) {
    let (server, mode) = spec.split_once(':').expect("<server>:<mode>");
    let mode = mode_of(mode);
    runtime().block_on(async {
        let address = if server == "toolbox" {
            serve_http(toolbox_server().streamable_http(http_config(mode))).await
        } else {
            serve_http(rmcp_http(mode)).await
        };
        println!("{}", address.port());
        // The parent closes our stdin when it is done (or dies).
        let _ = tokio::task::spawn_blocking(|| {
            let mut line = String::new();
            let _ = std::io::stdin().read_line(&mut line);
        })
        .await;
    });
}

/// A server child serving as `spec` says, and its port.
fn spawn_server(spec: &str) -> (Child, u16) {
    let mut child = Command::new(std::env::current_exe().expect("this binary"))
        .env(SERVE, spec)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("a server child");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("its stdout"))
        .read_line(&mut line)
        .expect("its port");
    (child, line.trim().parse().expect("a port"))
}

/// The child's peak resident set, in KiB (`VmHWM` of `/proc/<pid>/status`).
fn peak_rss_kib(child: &Child) -> u64 {
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Calls a second with `clients` clients of `server` in `mode` for
/// `time`, after a warm-up; and the server's peak RSS in KiB.
fn measure(server: &str, mode: &str, clients: usize, time: Duration) -> (f64, u64) {
    let (mut child, port) = spawn_server(&format!("{server}:{mode}"));
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let calls = Arc::new(AtomicU64::new(0));
    let counting = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let runtime = runtime();
    let elapsed = runtime.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..clients {
            let client = connect(address, mode_of(mode)).await;
            let (calls, counting, stop) = (calls.clone(), counting.clone(), stop.clone());
            tasks.push(tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    one_call(&client).await;
                    if counting.load(Ordering::Relaxed) {
                        calls.fetch_add(1, Ordering::Relaxed);
                    }
                }
                let _ = client.cancel().await;
            }));
        }
        tokio::time::sleep(time / 4).await;
        counting.store(true, Ordering::Relaxed);
        let start = Instant::now();
        tokio::time::sleep(time).await;
        counting.store(false, Ordering::Relaxed);
        let elapsed = start.elapsed();
        stop.store(true, Ordering::Relaxed);
        for task in tasks {
            task.await.expect("a client");
        }
        elapsed
    });
    let peak = peak_rss_kib(&child);
    drop(child.stdin.take());
    let _ = child.wait();
    (
        calls.load(Ordering::Relaxed) as f64 / elapsed.as_secs_f64(),
        peak,
    )
}

fn main() {
    if let Ok(spec) = std::env::var(SERVE) {
        serve(&spec);
        return;
    }
    let quick = std::env::args().any(|arg| arg == "--quick");
    let time = Duration::from_secs(if quick { 1 } else { 3 });
    println!("mcp_load: calls a second (server peak RSS), {time:?} a case, two rounds");
    println!("| mode | clients | toolbox | rmcp | ratio |");
    println!("|---|---|---|---|---|");
    for mode in ["sessions", "stateless"] {
        for clients in [1, 8, 64] {
            let mut ours = Vec::new();
            let mut theirs = Vec::new();
            for round in 0..2 {
                let order = if round == 0 {
                    ["toolbox", "rmcp"]
                } else {
                    ["rmcp", "toolbox"]
                };
                for server in order {
                    let measured = measure(server, mode, clients, time);
                    if server == "toolbox" {
                        ours.push(measured);
                    } else {
                        theirs.push(measured);
                    }
                }
            }
            let rps =
                |runs: &[(f64, u64)]| runs.iter().map(|r| r.0).sum::<f64>() / runs.len() as f64;
            let rss =
                |runs: &[(f64, u64)]| runs.iter().map(|r| r.1).max().unwrap_or(0) as f64 / 1024.0;
            println!(
                "| {mode} | {clients} | {:.0}/s ({:.0}, {:.0}; {:.1} MiB) | {:.0}/s ({:.0}, {:.0}; {:.1} MiB) | {:.2}x |",
                rps(&ours),
                ours[0].0,
                ours[1].0,
                rss(&ours),
                rps(&theirs),
                theirs[0].0,
                theirs[1].0,
                rss(&theirs),
                rps(&ours) / rps(&theirs),
            );
        }
    }
}
