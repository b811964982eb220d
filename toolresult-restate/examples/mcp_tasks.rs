//! Long tool calls as MCP tasks on Restate, answered by any replica.
//!
//! One binary, three roles:
//!
//! - `service [addr]`: the Restate service endpoint (127.0.0.1:9080 by
//!   default) that runs the tasks' calls (`TaskRunner`, which marks a
//!   parked call's task as waiting for input through the ingress) and
//!   keeps their records (`TaskRecords`); register it with a
//!   `restate-server`;
//! - `replica <port>`: an MCP server over streamable HTTP
//!   (`http://127.0.0.1:<port>/mcp`) whose tasks are on that Restate server
//!   (ingress 8080, admin API 9070); start two, kill one, read through the
//!   other.
//!
//! The tools always run as tasks: `build` takes 20 seconds; `deploy` asks
//! a person's approval first, and its task waits for input until a client
//! answers it through any replica (`tasks/update`). The "MCP tasks on
//! Restate" section of the README has the commands.

use std::net::SocketAddr;
use std::time::Duration;

use restate_sdk::prelude::*;
use toolresult::mcp::McpServer;
use toolresult::tool::{self, Approval, CallContext, TaskSupport, ToolSafety};
use toolresult::toolbox::Toolbox;
use toolresult_restate::{RestateTasks, TaskRecords, TaskRunner};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Build {
    /// The repository to build.
    repo: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Deploy {
    /// The version to deploy.
    version: String,
}

/// Where the tasks are kept: the Restate server's ingress and admin API.
fn store() -> RestateTasks {
    RestateTasks::new("http://127.0.0.1:8080", "http://127.0.0.1:9070")
}

/// The tools: the same in the service and in every replica.
fn toolbox() -> Result<Toolbox, Box<dyn std::error::Error>> {
    let mut toolbox = Toolbox::new().timeout(Duration::from_secs(120));
    toolbox.register(
        tool::function(
            "build",
            "Builds a repository (takes a while)",
            |args: Build, _: CallContext<'static>| async move {
                tokio::time::sleep(Duration::from_secs(20)).await;
                println!("built {}", args.repo);
                format!("built {}", args.repo)
            },
        )?
        .with_safety(ToolSafety::Idempotent)
        .with_task_support(TaskSupport::Required),
    )?;
    toolbox.register(
        tool::function("deploy", "Deploys a version", |args: Deploy| {
            println!("deployed {}", args.version);
            format!("deployed {}", args.version)
        })?
        .with_safety(ToolSafety::IdempotentDestructive)
        .with_approval(Approval::always())
        .with_task_support(TaskSupport::Required),
    )?;
    Ok(toolbox)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("service") => {
            let addr: SocketAddr = args.next().as_deref().unwrap_or("127.0.0.1:9080").parse()?;
            HttpServer::new(
                Endpoint::builder()
                    .bind(TaskRecords)
                    .bind(TaskRunner::new(toolbox()?, store()))
                    .build(),
            )
            .listen_and_serve(addr)
            .await;
            Ok(())
        }
        Some("replica") => {
            let port: u16 = args.next().ok_or("replica <port>")?.parse()?;
            let server = McpServer::new(toolbox()?)?.tasks(store(), Duration::from_secs(3600));
            let service = server.streamable_http(Default::default());
            let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
            eprintln!("MCP replica on http://127.0.0.1:{port}/mcp");
            loop {
                let (stream, _) = listener.accept().await?;
                stream.set_nodelay(true)?;
                let service = hyper_util::service::TowerToHyperService::new(service.clone());
                tokio::spawn(async move {
                    let io = hyper_util::rt::TokioIo::new(stream);
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(io, service)
                        .await;
                });
            }
        }
        _ => Err("usage: mcp_tasks service [addr] | mcp_tasks replica <port>".into()),
    }
}
