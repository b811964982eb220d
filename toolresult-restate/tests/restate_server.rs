//! Durable turns against a real `restate-server`: started here on free
//! loopback ports with a fresh base directory, the service under test in a
//! process of its own (this test binary, started again in serve mode), so
//! it can be killed in the middle of a turn and started again.
//!
//! Every tool counts its runs in a file of a state directory the test
//! reads: a count is what a side effect would have done, whichever process
//! ran it.
//!
//! Needs `restate-server`: `RESTATE_SERVER_BIN`, or the npm package
//! installed under `.ci/.restate` (`npm install --prefix .ci/.restate
//! @restatedev/restate-server@1.7.12`). Without it the test says it was
//! skipped and passes.

use std::cell::RefCell;
use std::fs;
use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use restate_sdk::prelude::*;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use toolresult::canonical::{Answer, Request};
use toolresult::provider::{Answered, Anthropic, PartPolicy, Provider};
use toolresult::retry::{Backoff, RetryPolicy};
use toolresult::seal::Keyring;
use toolresult::tool::{self, Approval, CallContext, CallEvent, LogLevel, TaskSupport, ToolSafety};
use toolresult::toolbox::{Toolbox, Turn};
use toolresult::{Failure, ToolError, ToolResult};
use toolresult_restate::{Parked, RestateTasks, TaskRecords, TaskRunner, run_turn};

/// Set (to the address to listen on) when this binary runs as the service.
const SERVE_ADDR: &str = "TOOLRESULT_RESTATE_TEST_SERVE_ADDR";
/// The state directory the service's tools count their runs in.
const STATE_DIR: &str = "TOOLRESULT_RESTATE_TEST_STATE_DIR";
/// The Restate server's ingress and admin API, for the service's
/// `TaskRunner`.
const INGRESS: &str = "TOOLRESULT_RESTATE_TEST_INGRESS";
const ADMIN: &str = "TOOLRESULT_RESTATE_TEST_ADMIN";
/// Where the npm package puts the server, from this crate's directory.
const NPM_SERVER: &str =
    "../.ci/.restate/node_modules/@restatedev/restate-server-linux-x64/bin/restate-server";

/// The header whose value the service attaches to its turns as a
/// [`Tenant`].
const TENANT_HEADER: &str = "x-tenant";

/// How long any one wait of the test may take: a turn that does not end
/// fails its check after it.
const WAIT: Duration = Duration::from_secs(60);
/// The retry-after the throttled tool asks for.
const RETRY_AFTER: Duration = Duration::from_millis(1500);

fn main() -> ExitCode {
    if let (Ok(addr), Ok(state)) = (std::env::var(SERVE_ADDR), std::env::var(STATE_DIR)) {
        return serve(&addr, PathBuf::from(state));
    }
    let Some(server) = server_binary() else {
        println!(
            "skipped: the Restate integration test needs restate-server; install with \
             `npm install --prefix .ci/.restate @restatedev/restate-server@1.7.12` \
             (or set RESTATE_SERVER_BIN)"
        );
        return ExitCode::SUCCESS;
    };
    match run_all(&server) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(setup) => {
            println!("restate integration setup failed: {setup}");
            ExitCode::FAILURE
        }
    }
}

fn server_binary() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os("RESTATE_SERVER_BIN") {
        return Some(PathBuf::from(bin));
    }
    let npm = Path::new(env!("CARGO_MANIFEST_DIR")).join(NPM_SERVER);
    npm.is_file().then_some(npm)
}

type Check = fn(&Harness) -> Result<(), String>;

/// Starts the server and the service, runs every check, and prints the
/// tally; the number failed.
fn run_all(server: &Path) -> Result<usize, String> {
    let harness = Harness::start(server)?;
    // The kill-and-restart check goes last: it restarts the service.
    let checks: [(&str, Check); 20] = [
        ("a_flaky_tool_is_answered_once_with_its_success", flaky_tool),
        (
            "a_permanent_failure_is_not_retried_and_answers_the_call",
            permanent_failure,
        ),
        ("a_retry_after_waits_on_a_durable_timer", retry_after_timer),
        (
            "an_approval_is_parked_and_resumed_by_an_answer_over_http",
            approval,
        ),
        (
            "an_answer_to_another_request_ends_the_turn_without_asking_again",
            another_requests_answer,
        ),
        (
            "a_body_that_is_not_an_answer_answers_the_call_with_its_request",
            not_an_answer,
        ),
        ("values_attached_to_the_turn_reach_its_tools", turn_values),
        (
            "the_turns_observer_hears_a_tools_progress_and_logs",
            turn_observer,
        ),
        (
            "a_cancelled_turn_answers_its_calls_as_cancelled",
            cancelled_turn,
        ),
        (
            "a_declared_approval_parks_before_the_body_and_each_decision_resumes_it",
            declared_approval,
        ),
        (
            "an_approval_always_covers_the_rest_of_the_turn",
            always_approved,
        ),
        (
            "an_unsealed_answer_to_a_sealed_approval_is_refused",
            unsealed_approval,
        ),
        (
            "an_unsealed_answer_to_a_bodys_sealed_request_is_refused",
            unsealed_body_answer,
        ),
        (
            "a_task_outlives_the_replica_that_started_it_and_runs_once",
            task_outlives_its_replica,
        ),
        (
            "a_task_is_cancelled_through_another_replica",
            task_cancelled_elsewhere,
        ),
        ("an_expired_task_is_refused", task_expired),
        (
            "a_task_waiting_for_approval_is_answered_through_another_replica",
            task_answered_elsewhere,
        ),
        (
            "a_task_waiting_for_input_gets_the_clients_content",
            task_input_elsewhere,
        ),
        (
            "a_completed_tool_is_not_run_again_after_the_service_is_killed",
            killed_service,
        ),
        (
            "an_approved_body_runs_once_when_the_service_is_killed_between",
            killed_after_approval,
        ),
    ];
    let (mut passed, mut failed) = (0, 0);
    for (name, check) in checks {
        let started = Instant::now();
        let outcome = match catch_unwind(AssertUnwindSafe(|| check(&harness))) {
            Ok(outcome) => outcome,
            Err(panic) => Err(panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "panicked".to_owned())),
        };
        match outcome {
            Ok(()) => {
                passed += 1;
                println!("test {name} ... ok ({:.1?})", started.elapsed());
            }
            Err(why) => {
                failed += 1;
                println!("test {name} ... FAILED\n    {why}");
            }
        }
    }
    if failed > 0 {
        harness.dump_logs();
    }
    if std::env::var_os(MEASURE).is_some() {
        measure(&harness)?;
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed)
}

// ---------------------------------------------------------------------------
// The checks.

fn flaky_tool(h: &Harness) -> Result<(), String> {
    let turn = h.turn(&[("toolu_flaky", "flaky", json!({"key": "flaky"}))])?;
    expect_eq(
        &turn.reply,
        &json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_flaky", "content": "answered on run 3"}
        ]}),
        "reply",
    )?;
    expect_eq(&turn.outcomes[0]["attempts"], &json!(3), "attempts")?;
    expect_eq(&turn.outcomes[0]["stop"], &json!("succeeded"), "stop")?;
    expect_eq(&h.count("flaky"), &3, "runs of the flaky tool")?;
    // The journal holds three attempts, and never the source's text.
    let journal = h.journal(&turn.invocation)?;
    expect_eq(
        &names_like(&journal, "call toolu_flaky attempt"),
        &vec![
            "call toolu_flaky attempt 1".to_owned(),
            "call toolu_flaky attempt 2".to_owned(),
            "call toolu_flaky attempt 3".to_owned(),
        ],
        "journaled attempts",
    )?;
    let values = run_values(&journal);
    expect_eq(&values.len(), &3, "journaled values")?;
    if !values[0].contains(r#""channel":{"transient":true,"sourceType":"std::io::Error"}"#) {
        return Err(format!(
            "the first attempt's summary is missing: {}",
            values[0]
        ));
    }
    if let Some(leak) = values.iter().find(|value| value.contains("flaky-secret")) {
        return Err(format!("the journal holds the source's text: {leak}"));
    }
    Ok(())
}

fn permanent_failure(h: &Harness) -> Result<(), String> {
    let turn = h.turn(&[("toolu_gone", "permanent", json!({"key": "permanent"}))])?;
    expect_eq(
        &turn.reply,
        &json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_gone",
             "content": "{\"error\":{\"message\":\"the record does not exist\"}}", "is_error": true}
        ]}),
        "reply",
    )?;
    expect_eq(&turn.outcomes[0]["attempts"], &json!(1), "attempts")?;
    expect_eq(&turn.outcomes[0]["stop"], &json!("permanent"), "stop")?;
    expect_eq(
        &turn.outcomes[0]["channel"],
        &json!({"transient": false, "sourceType": "std::io::Error"}),
        "channel summary",
    )?;
    expect_eq(&h.count("permanent"), &1, "runs of the failing tool")
}

fn retry_after_timer(h: &Harness) -> Result<(), String> {
    let turn = h.turn(&[("toolu_slow", "throttled", json!({"key": "throttled"}))])?;
    expect_eq(
        &turn.reply["content"][0]["content"],
        &json!("answered on run 2"),
        "reply",
    )?;
    expect_eq(&turn.outcomes[0]["attempts"], &json!(2), "attempts")?;
    expect_eq(
        &turn.outcomes[0]["channel"],
        &json!({}),
        "channel summary of the success",
    )?;
    let times = h.times("throttled");
    let [first, second] = times.as_slice() else {
        return Err(format!("expected two runs, got {times:?}"));
    };
    let waited = second.saturating_sub(*first);
    if u128::from(waited) < RETRY_AFTER.as_millis() {
        return Err(format!(
            "the second run came {waited} ms after the first, before the retry-after"
        ));
    }
    // The wait is a timer in the journal, between the two attempts.
    let journal = h.journal(&turn.invocation)?;
    let kinds: Vec<String> = journal
        .iter()
        .map(|entry| {
            let name = entry["name"].as_str().unwrap_or("");
            let kind = entry["entry_type"].as_str().unwrap_or("");
            if name.starts_with("call ") {
                name.to_owned()
            } else {
                kind.to_owned()
            }
        })
        .filter(|k| k.starts_with("call ") || k == "Command: Sleep")
        .collect();
    expect_eq(
        &kinds,
        &vec![
            "call toolu_slow attempt 1".to_owned(),
            "Command: Sleep".to_owned(),
            "call toolu_slow attempt 2".to_owned(),
        ],
        "journal",
    )
}

fn approval(h: &Harness) -> Result<(), String> {
    let invocation = h.send_turn(&[("toolu_deploy", "deploy", json!({"version": "1.4.2"}))])?;
    let parked = h.parked("toolu_deploy", 1)?;
    let first = &parked[0];
    expect_eq(&first["id"], &json!("approve-1.4.2"), "request id")?;
    expect_eq(&first["prompt"], &json!("Deploy 1.4.2?"), "prompt")?;
    let awakeable = first["data"]["awakeable"]
        .as_str()
        .ok_or("no awakeable id in the request")?
        .to_owned();
    expect_eq(&h.count("deploy-1.4.2"), &1, "runs before the answer")?;
    // The toolbox seals the body's own request too: the answer carries the
    // seal back, as `Answer::with_seal_of` makes it.
    let seal = &first["data"]["seal"];
    expect_eq(&seal.is_string(), &true, "the request's seal")?;
    let answer = json!({"id": "approve-1.4.2", "ok": true, "data": {"seal": seal}});
    h.resolve(&awakeable, &answer)?;
    let turn = h.attach(&invocation)?;
    expect_eq(
        &turn.reply["content"][0],
        &json!({"type": "tool_result", "tool_use_id": "toolu_deploy", "content": "deployed 1.4.2"}),
        "reply",
    )?;
    expect_eq(&turn.outcomes[0]["attempts"], &json!(2), "attempts")?;
    expect_eq(&h.count("deploy-1.4.2"), &2, "runs of deploy")?;
    expect_eq(&h.parked("toolu_deploy", 1)?.len(), &1, "requests sent")?;
    let journal = h.journal(&invocation)?;
    expect_eq(
        &names_like(&journal, "call toolu_deploy"),
        &vec![
            "call toolu_deploy attempt 1".to_owned(),
            "call toolu_deploy notify".to_owned(),
            "call toolu_deploy run 1 attempt 1".to_owned(),
        ],
        "journaled steps",
    )
}

/// The turn ends (under [`WAIT`]): the awakeable's answer goes to the
/// toolbox, which is the one to judge it, and the request is not sent
/// again.
fn another_requests_answer(h: &Harness) -> Result<(), String> {
    let invocation = h.send_turn(&[("toolu_other", "deploy", json!({"version": "2.0.0"}))])?;
    let awakeable = h.awakeable("toolu_other")?;
    h.resolve(&awakeable, &json!({"id": "approve-9.9.9", "ok": true}))?;
    let turn = h.attach(&invocation)?;
    // Refused by the toolbox: the call is answered with its pending
    // request, and the body never ran with another request's answer.
    expect_eq(
        &turn.reply["content"],
        &json!([{"type": "tool_result", "tool_use_id": "toolu_other",
                 "content": "Deploy 2.0.0?", "is_error": true}]),
        "reply",
    )?;
    expect_eq(&turn.outcomes[0]["pending"], &json!(true), "pending")?;
    expect_eq(&turn.outcomes[0]["stop"], &json!("suspended"), "stop")?;
    expect_eq(&h.count("deploy-2.0.0"), &1, "runs of deploy")?;
    expect_eq(&h.parked("toolu_other", 1)?.len(), &1, "requests sent")?;
    let journal = h.journal(&invocation)?;
    expect_eq(
        &names_like(&journal, "call toolu_other notify"),
        &vec!["call toolu_other notify".to_owned()],
        "journaled notifications",
    )
}

fn not_an_answer(h: &Harness) -> Result<(), String> {
    let invocation = h.send_turn(&[("toolu_vague", "deploy", json!({"version": "3.0.0"}))])?;
    let awakeable = h.awakeable("toolu_vague")?;
    h.resolve(&awakeable, &json!("yes please"))?;
    let turn = h.attach(&invocation)?;
    expect_eq(
        &turn.reply["content"],
        &json!([{"type": "tool_result", "tool_use_id": "toolu_vague",
                 "content": "Deploy 3.0.0?", "is_error": true}]),
        "reply",
    )?;
    expect_eq(&turn.outcomes[0]["pending"], &json!(true), "pending")?;
    expect_eq(&h.count("deploy-3.0.0"), &1, "runs of deploy")?;
    expect_eq(&h.parked("toolu_vague", 1)?.len(), &1, "requests sent")
}

fn turn_values(h: &Harness) -> Result<(), String> {
    let calls = [("toolu_who", "whoami", json!({}))];
    let turn = h.turn_with_header(&calls, (TENANT_HEADER, "acme"))?;
    expect_eq(
        &turn.reply["content"][0]["content"],
        &json!("tenant acme"),
        "reply",
    )?;
    // Without the header the service attaches no tenant.
    let turn = h.turn(&[("toolu_who_else", "whoami", json!({}))])?;
    expect_eq(
        &turn.reply["content"][0]["content"],
        &json!("no tenant"),
        "reply without a tenant",
    )
}

fn turn_observer(h: &Harness) -> Result<(), String> {
    let turn = h.turn(&[("toolu_report", "report", json!({}))])?;
    expect_eq(
        &turn.reply["content"][0]["content"],
        &json!("reported"),
        "reply",
    )?;
    expect_eq(
        &h.events("toolu_report"),
        &vec![
            json!({"tool": "report", "progress": 1.0, "total": 2.0, "message": "half way"}),
            json!({"tool": "report", "log": "info", "message": "all done"}),
        ],
        "events observed",
    )
}

/// A tool cancels its own turn (through a value the service attaches):
/// it is dropped and answered as cancelled, and the call after it never
/// runs.
fn cancelled_turn(h: &Harness) -> Result<(), String> {
    let turn = h.turn(&[
        ("toolu_stop", "stop_turn", json!({})),
        ("toolu_after", "charge", json!({"key": "after-stop"})),
    ])?;
    let cancelled = "{\"error\":{\"message\":\"the call was cancelled before it finished\"}}";
    expect_eq(
        &turn.reply,
        &json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_stop", "content": cancelled, "is_error": true},
            {"type": "tool_result", "tool_use_id": "toolu_after", "content": cancelled, "is_error": true}
        ]}),
        "reply",
    )?;
    expect_eq(&turn.outcomes[0]["stop"], &json!("cancelled"), "stop")?;
    expect_eq(&turn.outcomes[0]["attempts"], &json!(1), "attempts started")?;
    expect_eq(&turn.outcomes[1]["attempts"], &json!(0), "attempts after")?;
    expect_eq(
        &h.count("after-stop"),
        &0,
        "runs of the call after the cancel",
    )
}

/// The approval request a call parked on, as sent to `notify`.
fn approval_request(h: &Harness, call: &str) -> Result<(Request, String), String> {
    let parked = h.parked(call, 1)?;
    let request: Request =
        serde_json::from_value(parked[0].clone()).map_err(|e| format!("{e}: {}", parked[0]))?;
    expect_eq(&request.kind.as_str(), &"approval", "request kind")?;
    let awakeable = h.awakeable(call)?;
    Ok((request, awakeable))
}

/// A person's decision on a request.
type Decide = dyn Fn(&Request) -> Answer;

fn declared_approval(h: &Harness) -> Result<(), String> {
    let edit = |request: &Request| {
        let key = serde_json::Map::from_iter([("key".to_owned(), json!("launch-edited"))]);
        Answer::approve_edited(request, key)
    };
    let reject = |request: &Request| Answer::reject(request, "not today");
    let cases: [(&str, &Decide, &str, [u32; 2]); 3] = [
        (
            "toolu_launch_ok",
            &Answer::approve,
            "launched launch-ok",
            [1, 0],
        ),
        ("toolu_launch_edit", &edit, "launched launch-edited", [0, 1]),
        (
            "toolu_launch_no",
            &reject,
            r#"{"error":{"message":"the call of `launch` was rejected: not today","suggestion":"do not call it again as it was; go on without it, or ask the user"}}"#,
            [0, 1],
        ),
    ];
    // `edited`: the runs with the edit so far, in this turn and before.
    for (id, answer, content, [runs, edited]) in cases {
        let key = id.trim_start_matches("toolu_").replace('_', "-");
        let invocation = h.send_turn(&[(id, "launch", json!({"key": key}))])?;
        let (request, awakeable) = approval_request(h, id)?;
        expect_eq(&h.count(&key), &0, "runs before the decision")?;
        let decided = serde_json::to_value(answer(&request)).map_err(|e| e.to_string())?;
        h.resolve(&awakeable, &decided)?;
        let turn = h.attach(&invocation)?;
        expect_eq(
            &turn.reply["content"][0]["content"],
            &json!(content),
            "reply",
        )?;
        expect_eq(&h.count(&key), &runs, "runs of the body")?;
        expect_eq(&h.count("launch-edited"), &edited, "runs with the edit")?;
        let journal = h.journal(&invocation)?;
        let first = names_like(&journal, &format!("call {id}"));
        expect_eq(
            &first.first().map(String::as_str),
            &Some(format!("call {id} approval").as_str()),
            "the approval step",
        )?;
    }
    Ok(())
}

/// The first of two calls of the tool approved always: the second is not
/// asked about, and both run once.
fn always_approved(h: &Harness) -> Result<(), String> {
    let invocation = h.send_turn(&[
        ("toolu_always_1", "launch", json!({"key": "always-1"})),
        ("toolu_always_2", "launch", json!({"key": "always-2"})),
    ])?;
    let (request, awakeable) = approval_request(h, "toolu_always_1")?;
    let always =
        serde_json::to_value(Answer::approve_always(&request)).map_err(|e| e.to_string())?;
    h.resolve(&awakeable, &always)?;
    let turn = h.attach(&invocation)?;
    expect_eq(
        &turn.reply["content"][1]["content"],
        &json!("launched always-2"),
        "the second call's reply",
    )?;
    expect_eq(&(h.count("always-1"), h.count("always-2")), &(1, 1), "runs")?;
    let asked = fs::read_to_string(h.state.path().join("parked-toolu_always_2.jsonl"));
    expect_eq(
        &asked.is_err(),
        &true,
        "the second call was not asked about",
    )
}

fn unsealed_approval(h: &Harness) -> Result<(), String> {
    let invocation = h.send_turn(&[("toolu_forge", "launch", json!({"key": "forge"}))])?;
    let (request, awakeable) = approval_request(h, "toolu_forge")?;
    // Made up by whoever can reach the ingress: no seal.
    h.resolve(&awakeable, &json!({"id": request.id, "ok": true}))?;
    let turn = h.attach(&invocation)?;
    expect_eq(&turn.outcomes[0]["pending"], &json!(true), "still parked")?;
    expect_eq(
        &turn.outcomes[0]["notResumed"],
        &json!(format!(
            "the answer to request `{}` carries no seal",
            request.id
        )),
        "why",
    )?;
    expect_eq(&h.count("forge"), &0, "runs of the body")
}

fn unsealed_body_answer(h: &Harness) -> Result<(), String> {
    let invocation = h.send_turn(&[("toolu_unsealed", "deploy", json!({"version": "5.0.0"}))])?;
    let awakeable = h.awakeable("toolu_unsealed")?;
    // Made up by whoever can reach the ingress: the right id, no seal.
    h.resolve(&awakeable, &json!({"id": "approve-5.0.0", "ok": true}))?;
    let turn = h.attach(&invocation)?;
    expect_eq(&turn.outcomes[0]["pending"], &json!(true), "still parked")?;
    expect_eq(
        &turn.outcomes[0]["notResumed"],
        &json!("the answer to request `approve-5.0.0` carries no seal"),
        "why",
    )?;
    expect_eq(
        &h.count("deploy-5.0.0"),
        &1,
        "runs of the body: the first only",
    )
}

/// The service is killed once the call is parked; the person approves
/// while it is down; the restarted service runs the body once.
fn killed_after_approval(h: &Harness) -> Result<(), String> {
    let invocation = h.send_turn(&[("toolu_kill", "launch", json!({"key": "kill"}))])?;
    let (request, awakeable) = approval_request(h, "toolu_kill")?;
    if let Some(mut old) = h.service.borrow_mut().take() {
        let _ = old.0.kill();
        let _ = old.0.wait();
    }
    let approve = serde_json::to_value(Answer::approve(&request)).map_err(|e| e.to_string())?;
    h.resolve(&awakeable, &approve)?;
    expect_eq(&h.count("kill"), &0, "runs while the service is down")?;
    h.restart_service()?;
    let turn = h.attach(&invocation)?;
    expect_eq(
        &turn.reply["content"][0]["content"],
        &json!("launched kill"),
        "reply",
    )?;
    expect_eq(&h.count("kill"), &1, "runs of the body")?;
    expect_eq(&h.parked("toolu_kill", 1)?.len(), &1, "requests sent")
}

fn killed_service(h: &Harness) -> Result<(), String> {
    let invocation = h.send_turn(&[
        ("toolu_charge", "charge", json!({"key": "charge"})),
        ("toolu_report", "hangs_once", json!({"key": "hangs"})),
    ])?;
    // The second call is running (and hangs) once the first completed.
    wait_until("the hanging tool to start", || h.count("hangs") == 1)?;
    expect_eq(&h.count("charge"), &1, "charges before the kill")?;
    h.restart_service()?;
    let turn = h.attach(&invocation)?;
    expect_eq(
        &turn.reply,
        &json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_charge", "content": "charged once"},
            {"type": "tool_result", "tool_use_id": "toolu_report", "content": "answered on run 2"}
        ]}),
        "reply",
    )?;
    expect_eq(&h.count("charge"), &1, "charges after the restart")?;
    expect_eq(&h.count("hangs"), &2, "runs of the tool killed mid-run")
}

// ---------------------------------------------------------------------------
// MCP tasks on Restate: replicas of an MCP server (in this process, each
// on a runtime of its own, so one can be killed), their tasks' calls run
// by the service's `TaskRunner`.

/// A task started through one replica, which is then killed mid-call, is
/// read through another until its result: the tool ran once.
fn task_outlives_its_replica(h: &Harness) -> Result<(), String> {
    let one = Replica::start(h, Duration::from_secs(60))?;
    let other = Replica::start(h, Duration::from_secs(60))?;
    let task = one.start_task("task-killed", 1500)?;
    let working = other.get_task(&task)?;
    expect_eq(
        &working["result"]["status"],
        &json!("working"),
        &format!("status through the other replica ({working})"),
    )?;
    drop(one);
    let done = other.until_over(&task)?;
    expect_eq(&done["result"]["status"], &json!("completed"), "status")?;
    expect_eq(
        &done["result"]["result"]["content"][0]["text"],
        &json!("charged 1"),
        "the result",
    )?;
    expect_eq(
        &done["result"]["result"]["resultType"],
        &json!("complete"),
        "the result's type",
    )?;
    expect_eq(&h.count("task-killed"), &1, "runs of the tool")
}

/// A task started through one replica is cancelled through another: it
/// reads as cancelled, also after its call would have ended.
fn task_cancelled_elsewhere(h: &Harness) -> Result<(), String> {
    let one = Replica::start(h, Duration::from_secs(60))?;
    let other = Replica::start(h, Duration::from_secs(60))?;
    let task = one.start_task("task-cancelled", 2000)?;
    let ack = other.request("tasks/cancel", &task, json!({"taskId": task}))?;
    expect_eq(
        &ack["result"],
        &json!({"resultType": "complete"}),
        "the cancel's ack",
    )?;
    let cancelled = one.get_task(&task)?;
    expect_eq(
        &cancelled["result"]["status"],
        &json!("cancelled"),
        "status",
    )?;
    // The call's invocation was cancelled on Restate, not only its record.
    let query = format!(
        "SELECT status, completion_result, completion_failure FROM sys_invocation WHERE idempotency_key = '{task}'"
    );
    let mut rows = Value::Null;
    wait_until("the invocation to end", || {
        rows = h
            .post(&format!("{}/query", h.admin), &json!({"query": query}))
            .map(|(_, body)| body["rows"].clone())
            .unwrap_or(Value::Null);
        rows[0]["status"] == "completed"
    })?;
    let failure = rows[0]["completion_failure"].as_str().unwrap_or_default();
    if rows[0]["completion_result"] != "failure" || !failure.contains("cancel") {
        return Err(format!("the invocation was not cancelled: {rows}"));
    }
    std::thread::sleep(Duration::from_millis(2500));
    let still = other.get_task(&task)?;
    expect_eq(
        &still["result"]["status"],
        &json!("cancelled"),
        "status after the call's time",
    )?;
    let again = one.request("tasks/cancel", &task, json!({"taskId": task}))?;
    expect_eq(
        &again["result"],
        &json!({"resultType": "complete"}),
        "a second cancel's ack",
    )
}

/// A task whose tool asks for approval, started through one replica,
/// waits for input through another, which answers it; the call resumes
/// on Restate, and its result, read through the first, is the plain
/// call's. The body runs once, after the approval (sealed: the answer
/// carries the request's seal back); a declined task's never.
fn task_answered_elsewhere(h: &Harness) -> Result<(), String> {
    let one = Replica::start(h, Duration::from_secs(60))?;
    let other = Replica::start(h, Duration::from_secs(60))?;
    let task = one.start_approved_task("task-approved")?;
    let waiting = other.until_status(&task, "input_required")?;
    let requests = waiting["result"]["inputRequests"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let [(key, asked)] = <[_; 1]>::try_from(requests.into_iter().collect::<Vec<_>>())
        .map_err(|all| format!("not one input request: {all:?}"))?;
    expect_eq(
        &asked["method"],
        &json!("elicitation/create"),
        &format!("the input request ({asked})"),
    )?;
    expect_eq(&asked["params"]["mode"], &json!("form"), "its mode")?;
    expect_eq(
        &waiting["result"]["statusMessage"],
        &json!("waiting for input"),
        "the status message",
    )?;
    expect_eq(&h.count("task-approved"), &0, "runs before the approval")?;
    // A response that is no elicitation result is refused: the task
    // waits on.
    let refused = other.update_task(&task, &key, json!("yes"))?;
    expect_eq(
        &refused["error"]["code"],
        &json!(-32602),
        &format!("a malformed response's error ({refused})"),
    )?;
    let ack = other.update_task(&task, &key, json!({"action": "accept"}))?;
    expect_eq(
        &ack["result"],
        &json!({"resultType": "complete"}),
        &format!("the update's ack ({ack})"),
    )?;
    let done = one.until_over(&task)?;
    expect_eq(
        &done["result"]["result"],
        &json!({
            "content": [{"type": "text", "text": "charged 1"}],
            "isError": false,
            "resultType": "complete",
        }),
        &format!("the result ({done})"),
    )?;
    expect_eq(&done["result"]["status"], &json!("completed"), "status")?;
    expect_eq(&h.count("task-approved"), &1, "runs after the approval")?;

    let declined = one.start_approved_task("task-declined")?;
    let waiting = other.until_status(&declined, "input_required")?;
    let key = waiting["result"]["inputRequests"]
        .as_object()
        .and_then(|requests| requests.keys().next().cloned())
        .ok_or_else(|| format!("no input request in {waiting}"))?;
    other.update_task(&declined, &key, json!({"action": "decline"}))?;
    let done = one.until_over(&declined)?;
    expect_eq(&done["result"]["status"], &json!("completed"), "status")?;
    expect_eq(
        &done["result"]["result"]["isError"],
        &json!(true),
        &format!("the declined call's result ({done})"),
    )?;
    expect_eq(&h.count("task-declined"), &0, "runs of a declined call")
}

/// A task whose tool asks for an input (`ToolResult::pending`) reads the
/// content the client answered through another replica.
fn task_input_elsewhere(h: &Harness) -> Result<(), String> {
    let one = Replica::start(h, Duration::from_secs(60))?;
    let other = Replica::start(h, Duration::from_secs(60))?;
    let params = json!({"name": "greet", "arguments": {"key": "task-greeted"}});
    let started = one.request("tools/call", "greet", params)?;
    let task = started["result"]["taskId"]
        .as_str()
        .ok_or_else(|| format!("no task started: {started}"))?;
    let waiting = other.until_status(task, "input_required")?;
    let asked = &waiting["result"]["inputRequests"]["name-task-greeted"];
    expect_eq(
        &asked["params"]["requestedSchema"]["required"],
        &json!(["input"]),
        &format!("the input request ({waiting})"),
    )?;
    expect_eq(&h.count("task-greeted"), &0, "runs before the answer")?;
    let answer = json!({"action": "accept", "content": {"input": "Ada"}});
    other.update_task(task, "name-task-greeted", answer)?;
    let done = one.until_over(task)?;
    expect_eq(
        &done["result"]["result"]["content"],
        &json!([{"type": "text", "text": "hello Ada"}]),
        &format!("the result ({done})"),
    )?;
    expect_eq(&h.count("task-greeted"), &1, "runs after the answer")
}

/// A task read after its time to live is refused.
fn task_expired(h: &Harness) -> Result<(), String> {
    let one = Replica::start(h, Duration::from_millis(1500))?;
    let task = one.start_task("task-expired", 0)?;
    let done = one.until_over(&task)?;
    expect_eq(&done["result"]["status"], &json!("completed"), "status")?;
    std::thread::sleep(Duration::from_millis(1600));
    let expired = one.get_task(&task)?;
    expect_eq(
        &expired["error"]["code"],
        &json!(-32602),
        "the expired task's error",
    )?;
    // Its record is forgotten on Restate too.
    let query = format!(
        "SELECT key FROM state WHERE service_name = 'TaskRecords' AND service_key = '{task}'"
    );
    wait_until("the record to be forgotten", || {
        h.post(&format!("{}/query", h.admin), &json!({"query": query}))
            .is_ok_and(|(status, body)| status == 200 && body["rows"] == json!([]))
    })
}

/// Set to measure tasks on Restate against `run_turn` after the checks
/// (reported in `checks/benches/README.md`).
const MEASURE: &str = "TOOLRESULT_RESTATE_MEASURE";

/// Prints the medians of 30 runs each: a task of one call of `charge`
/// (0 ms) through a replica, from `tools/call` until `tasks/get` reads it
/// completed, and from the tool's end to that read; one turn of one call
/// run by `run_turn` (`TestAgent/turn`, answered in its request).
fn measure(h: &Harness) -> Result<(), String> {
    let replica = Replica::start(h, Duration::from_secs(600))?;
    let now_ms = || {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_millis() as u64)
    };
    let median = |mut values: Vec<u64>| {
        values.sort_unstable();
        values[values.len() / 2]
    };
    let (mut whole, mut after, mut turns) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..30 {
        let key = format!("measure-{run}");
        let started = Instant::now();
        let task = replica.start_task(&key, 0)?;
        loop {
            let got = replica.get_task(&task)?;
            if got["result"]["status"] == "completed" {
                break;
            }
        }
        let read = now_ms();
        whole.push(started.elapsed().as_micros() as u64);
        after.push(read.saturating_sub(h.times(&key).first().copied().unwrap_or(read)));
        let started = Instant::now();
        let message = Harness::message(&[("toolu_measure", "whoami", json!({}))]);
        h.post(&format!("{}/TestAgent/turn", h.ingress), &message)?;
        turns.push(started.elapsed().as_micros() as u64);
    }
    println!(
        "measured (medians of 30): a task from tools/call to tasks/get completed {} µs; \
         from the tool's end to tasks/get completed {} ms; run_turn of one call {} µs",
        median(whole),
        median(after),
        median(turns)
    );
    Ok(())
}

/// One replica of an MCP server, its tasks on Restate: served over
/// streamable HTTP on a runtime of its own, killed when dropped.
struct Replica {
    address: SocketAddr,
    http: ureq::Agent,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for Replica {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Replica {
    fn start(h: &Harness, ttl: Duration) -> Result<Self, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| format!("runtime: {e}"))?;
        let mut toolbox = Toolbox::new();
        toolbox
            .register(charge_tool(PathBuf::new()).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?
            .task_support(TaskSupport::Optional);
        toolbox
            .register(approved_charge_tool(PathBuf::new()).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?
            .task_support(TaskSupport::Optional);
        toolbox
            .register(greet_tool(PathBuf::new()).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?
            .task_support(TaskSupport::Optional);
        let server = toolresult::mcp::McpServer::new(toolbox)
            .map_err(|e| e.to_string())?
            .tasks(RestateTasks::new(&h.ingress, &h.admin), ttl);
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .map_err(|e| format!("a port: {e}"))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let service = server.streamable_http(Default::default());
        runtime.spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                // Nagle's algorithm would hold each answer's last segment
                // for the client's delayed ACK.
                let _ = stream.set_nodelay(true);
                let service = hyper_util::service::TowerToHyperService::new(service.clone());
                tokio::spawn(async move {
                    let io = hyper_util::rt::TokioIo::new(stream);
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(io, service)
                        .await;
                });
            }
        });
        Ok(Self {
            address,
            http: h.http.clone(),
            runtime: Some(runtime),
        })
    }

    /// The JSON-RPC answer to a 2026-07-28 request of `method` about
    /// `name`, from a client that takes tasks.
    fn request(&self, method: &str, name: &str, mut params: Value) -> Result<Value, String> {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {
                "extensions": {"io.modelcontextprotocol/tasks": {}}
            },
        });
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let url = format!("http://{}/mcp", self.address);
        let mut response = self
            .http
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method)
            .header("mcp-name", name)
            .send(body.to_string())
            .map_err(|e| format!("POST {url}: {e}"))?;
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| format!("reading {url}: {e}"))?;
        // One JSON body, or server-sent events with the answer among them.
        text.lines()
            .map(|line| line.strip_prefix("data:").unwrap_or(line).trim())
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find(|message| message.get("id").is_some())
            .ok_or_else(|| format!("no answer to {method} in {text:?}"))
    }

    /// Starts `charge` of `key` for `ms` as a task; its id.
    fn start_task(&self, key: &str, ms: u64) -> Result<String, String> {
        let params = json!({"name": "charge", "arguments": {"key": key, "ms": ms}});
        let started = self.request("tools/call", "charge", params)?;
        expect_eq(
            &started["result"]["resultType"],
            &json!("task"),
            "the call's answer",
        )?;
        started["result"]["taskId"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("no task id in {started}"))
    }

    /// Starts `approved_charge` of `key` as a task; its id.
    fn start_approved_task(&self, key: &str) -> Result<String, String> {
        let params = json!({"name": "approved_charge", "arguments": {"key": key}});
        let started = self.request("tools/call", "approved_charge", params)?;
        started["result"]["taskId"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("no task started: {started}"))
    }

    fn get_task(&self, task: &str) -> Result<Value, String> {
        self.request("tasks/get", task, json!({"taskId": task}))
    }

    /// `tasks/update` of `task` with `response` to its request `key`.
    fn update_task(&self, task: &str, key: &str, response: Value) -> Result<Value, String> {
        let params = json!({"taskId": task, "inputResponses": {key: response}});
        self.request("tasks/update", task, params)
    }

    /// `tasks/get` until the task is `status`, for at most [`WAIT`].
    fn until_status(&self, task: &str, status: &str) -> Result<Value, String> {
        let mut last = Value::Null;
        wait_until(&format!("the task to be {status}"), || {
            last = self.get_task(task).unwrap_or(Value::Null);
            last["result"]["status"] == status
        })
        .map_err(|timeout| format!("{timeout}; last read {last}"))?;
        Ok(last)
    }

    /// `tasks/get` until the task is over, for at most [`WAIT`].
    fn until_over(&self, task: &str) -> Result<Value, String> {
        let mut last = Value::Null;
        wait_until("the task to be over", || {
            last = self.get_task(task).unwrap_or(Value::Null);
            matches!(
                last["result"]["status"].as_str(),
                Some("completed" | "failed" | "cancelled")
            )
        })?;
        Ok(last)
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Charge {
    key: String,
    ms: u64,
}

/// `charge`: waits `ms`, then counts a run under `key` in `state` (a side
/// effect, whichever process runs it).
fn charge_tool(state: PathBuf) -> Result<impl tool::Tool, tool::InvalidToolName> {
    tool::function(
        "charge",
        "Charges once, after a while",
        move |args: Charge, _: CallContext<'static>| {
            let state = state.clone();
            async move {
                tokio::time::sleep(Duration::from_millis(args.ms)).await;
                let charged = bump(&state, &args.key);
                stamp(&state, &args.key);
                format!("charged {charged}")
            }
        },
    )
}

/// `approved_charge`: once a person approved it, counts a run under
/// `key` in `state`.
fn approved_charge_tool(state: PathBuf) -> Result<impl tool::Tool, tool::InvalidToolName> {
    Ok(tool::function(
        "approved_charge",
        "Charges once, when approved",
        move |args: Keyed| format!("charged {}", bump(&state, &args.key)),
    )?
    .with_approval(Approval::always()))
}

/// `greet`: asks for a name (`name-<key>`), then greets it, counting the
/// greeting under `key` in `state`.
fn greet_tool(state: PathBuf) -> Result<impl tool::Tool, tool::InvalidToolName> {
    tool::function(
        "greet",
        "Greets whoever the user names",
        move |args: Keyed, cx: &CallContext| -> ToolResult<String> {
            let name = cx
                .answer()
                .filter(|answer| answer.ok)
                .and_then(|answer| answer.data.as_ref()?.get("input")?.as_str());
            match name {
                Some(name) => {
                    bump(&state, &args.key);
                    ToolResult::ok(format!("hello {name}"))
                }
                None => ToolResult::pending(
                    Request::input("Whose name?").with_id(format!("name-{}", args.key)),
                ),
            }
        },
    )
}

// ---------------------------------------------------------------------------
// The service under test.

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Keyed {
    key: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Deploy {
    version: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

/// The tenant a turn is run for: a value the service attaches from the
/// invocation's [`TENANT_HEADER`].
#[derive(Clone)]
struct Tenant(String);

/// The turn's cancellation token, attached as a value so that a tool can
/// cancel its own turn.
#[derive(Clone)]
struct StopSwitch(CancellationToken);

struct TestAgent {
    toolbox: Toolbox,
    state: PathBuf,
}

#[restate_sdk::service]
impl TestAgent {
    #[handler]
    async fn turn(
        &self,
        ctx: Context<'_>,
        Json(message): Json<Value>,
    ) -> HandlerResult<Json<Value>> {
        let calls =
            Anthropic::read_calls(&message.to_string()).map_err(TerminalError::from_error)?;
        let stop = CancellationToken::new();
        let events = self.state.clone();
        let mut turn = Turn::new(calls)
            .with_value(StopSwitch(stop.clone()))
            .with_cancellation(stop)
            .with_observer(move |event: &CallEvent<'_>| observe(&events, event));
        if let Some(tenant) = ctx.headers().get(TENANT_HEADER) {
            turn = turn.with_value(Tenant(tenant.clone()));
        }
        let state = self.state.clone();
        let outcomes = run_turn(&ctx, &self.toolbox, turn, |parked: Parked| {
            let state = state.clone();
            async move {
                let line = serde_json::to_string(&parked.request)?;
                let mut file = fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(state.join(format!("parked-{}.jsonl", parked.call.id)))?;
                writeln!(file, "{line}")?;
                Ok::<_, HandlerError>(())
            }
        })
        .await?;
        let reply = Anthropic::reply(&outcomes, PartPolicy::Placeholder)
            .map_err(TerminalError::from_error)?;
        let summary: Vec<Value> = outcomes
            .iter()
            .map(|outcome| {
                json!({
                    "id": outcome.call().id,
                    "attempts": outcome.attempts,
                    "stop": outcome.stop.as_str(),
                    "pending": outcome.is_pending(),
                    "channel": channel(&outcome.lowered.diagnostics),
                    "notResumed": outcome.not_resumed.as_ref().map(ToString::to_string),
                })
            })
            .collect();
        Ok(Json(json!({"reply": reply, "outcomes": summary})))
    }
}

/// Appends what a tool reported to `events-<call id>.jsonl`.
fn observe(state: &Path, event: &CallEvent<'_>) {
    let (call, line) = match *event {
        CallEvent::Progress {
            call_id,
            tool,
            done,
            total,
            message,
        } => (
            call_id,
            json!({"tool": tool, "progress": done, "total": total, "message": message}),
        ),
        CallEvent::Log {
            call_id,
            tool,
            level,
            message,
        } => (
            call_id,
            json!({"tool": tool, "log": level.as_str(), "message": message}),
        ),
        _ => return,
    };
    if let Ok(mut file) = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(state.join(format!("events-{call}.jsonl")))
    {
        let _ = writeln!(file, "{line}");
    }
}

/// The journal's summary of an outcome's Rust channel, as the test reads it.
fn channel(diagnostics: &toolresult::Diagnostics) -> Value {
    let mut summary = serde_json::Map::new();
    if let Some(transient) = diagnostics.is_transient() {
        summary.insert("transient".into(), transient.into());
    }
    if let Some(after) = diagnostics.retry_after() {
        summary.insert("retryAfterMs".into(), (after.as_millis() as u64).into());
    }
    if let Some(name) = diagnostics.source_type_name() {
        summary.insert("sourceType".into(), name.into());
    }
    Value::Object(summary)
}

fn serve(addr: &str, state: PathBuf) -> ExitCode {
    let addr: SocketAddr = match addr.parse() {
        Ok(addr) => addr,
        Err(bad) => {
            eprintln!("bad address {addr}: {bad}");
            return ExitCode::FAILURE;
        }
    };
    let toolbox = match test_toolbox(&state) {
        Ok(toolbox) => toolbox,
        Err(bad) => {
            eprintln!("toolbox: {bad}");
            return ExitCode::FAILURE;
        }
    };
    // Sealed approvals: an answer through `tasks/update` carries the
    // request's seal back, or the approval is refused.
    let Ok(keyring) = Keyring::new([6u8; 32]) else {
        eprintln!("the tasks' keyring did not build");
        return ExitCode::FAILURE;
    };
    let mut task_toolbox = Toolbox::new().seal_requests(keyring);
    let charge = charge_tool(state.clone()).map(|charge| task_toolbox.register(charge).is_ok());
    let approved =
        approved_charge_tool(state.clone()).map(|tool| task_toolbox.register(tool).is_ok());
    let greet = greet_tool(state.clone()).map(|tool| task_toolbox.register(tool).is_ok());
    if charge != Ok(true) || approved != Ok(true) || greet != Ok(true) {
        eprintln!("the tasks' toolbox did not build");
        return ExitCode::FAILURE;
    }
    let (Ok(ingress), Ok(admin)) = (std::env::var(INGRESS), std::env::var(ADMIN)) else {
        eprintln!("no {INGRESS} or {ADMIN}");
        return ExitCode::FAILURE;
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(bad) => {
            eprintln!("runtime: {bad}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(
        HttpServer::new(
            Endpoint::builder()
                .bind(TaskRecords)
                .bind(TaskRunner::new(
                    task_toolbox,
                    RestateTasks::new(ingress, admin),
                ))
                .bind(TestAgent { toolbox, state })
                .build(),
        )
        .listen_and_serve(addr),
    );
    ExitCode::SUCCESS
}

fn test_toolbox(state: &Path) -> Result<Toolbox, Box<dyn std::error::Error>> {
    let retry = RetryPolicy::new()
        .max_attempts(3)
        .backoff(Backoff::constant(Duration::from_millis(20)));
    let mut toolbox = Toolbox::new()
        .timeout(Duration::from_secs(30))
        .retry(retry)
        .seal_requests(Keyring::new([5u8; 32])?);

    // Transient twice, then a success.
    let dir = state.to_owned();
    toolbox.register(
        tool::function("flaky", "Fails twice", move |args: Keyed| {
            let run = bump(&dir, &args.key);
            if run <= 2 {
                let source = std::io::Error::other("flaky-secret: 10.0.0.7 refused the token");
                return ToolResult::<String>::fail(
                    Failure::new(ToolError::new("the service is busy"))
                        .with_source(source)
                        .transient(),
                );
            }
            ToolResult::ok(format!("answered on run {run}"))
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;

    // A permanent failure, of a tool that may be retried.
    let dir = state.to_owned();
    toolbox.register(
        tool::function("permanent", "Fails for good", move |args: Keyed| {
            bump(&dir, &args.key);
            let source = std::io::Error::new(std::io::ErrorKind::NotFound, "no row 42");
            ToolResult::<String>::fail(
                Failure::new(ToolError::new("the record does not exist"))
                    .with_source(source)
                    .permanent(),
            )
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;

    // Throttled once, with a retry-after.
    let dir = state.to_owned();
    toolbox.register(
        tool::function("throttled", "Throttled once", move |args: Keyed| {
            let run = bump(&dir, &args.key);
            stamp(&dir, &args.key);
            if run == 1 {
                return ToolResult::<String>::fail(
                    Failure::new(ToolError::new("rate limited"))
                        .transient()
                        .with_retry_after(RETRY_AFTER),
                );
            }
            ToolResult::ok(format!("answered on run {run}"))
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;

    // Asks for approval first.
    let dir = state.to_owned();
    toolbox.register(
        tool::function(
            "deploy",
            "Deploys a version",
            move |args: Deploy, cx: &CallContext| -> ToolResult<String> {
                bump(&dir, &format!("deploy-{}", args.version));
                match cx.answer() {
                    Some(answer) if answer.ok => {
                        ToolResult::ok(format!("deployed {}", args.version))
                    }
                    Some(_) => ToolResult::ok(format!("{} not deployed", args.version)),
                    None => ToolResult::pending(
                        Request::input(format!("Deploy {}?", args.version))
                            .with_id(format!("approve-{}", args.version)),
                    ),
                }
            },
        )?
        .with_safety(ToolSafety::IdempotentDestructive),
    )?;

    // Reads the turn's tenant.
    toolbox.register(
        tool::function("whoami", "The tenant", |_: NoArgs, cx: &CallContext| {
            cx.get::<Tenant>()
                .map_or_else(|| "no tenant".to_owned(), |t| format!("tenant {}", t.0))
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;

    // Reports progress and a log line.
    toolbox.register(
        tool::function("report", "Reports", |_: NoArgs, cx: &CallContext| {
            cx.progress(1.0, Some(2.0), Some("half way"));
            cx.log(LogLevel::Info, "all done");
            "reported"
        })?
        .with_safety(ToolSafety::ReadOnly),
    )?;

    // Cancels its own turn, then waits (a while) to be dropped.
    toolbox.register(
        tool::function(
            "stop_turn",
            "Cancels the turn",
            |_: NoArgs, cx: CallContext<'static>| async move {
                let Some(StopSwitch(stop)) = cx.get::<StopSwitch>().cloned() else {
                    return "no stop switch";
                };
                stop.cancel();
                tokio::time::sleep(WAIT / 4).await;
                "the turn went on after its cancellation"
            },
        )?
        .with_safety(ToolSafety::ReadOnly),
    )?;

    // Needs a person's approval before its body runs.
    let dir = state.to_owned();
    toolbox.register(
        tool::function("launch", "Launches", move |args: Keyed| {
            bump(&dir, &args.key);
            format!("launched {}", args.key)
        })?
        .with_approval(Approval::always()),
    )?;

    // A side effect that must happen once: not idempotent, never retried.
    let dir = state.to_owned();
    toolbox.register(tool::function(
        "charge",
        "Charges a card",
        move |args: Keyed| -> ToolResult<&'static str> {
            bump(&dir, &args.key);
            ToolResult::ok("charged once")
        },
    )?)?;

    // Hangs on its first run (until the process is killed).
    let dir = state.to_owned();
    toolbox
        .register(
            tool::function("hangs_once", "Hangs once", move |args: Keyed| {
                let dir = dir.clone();
                async move {
                    let run = bump(&dir, &args.key);
                    if run == 1 {
                        tokio::time::sleep(Duration::from_secs(600)).await;
                    }
                    format!("answered on run {run}")
                }
            })?
            .with_safety(ToolSafety::ReadOnly),
        )?
        .timeout(Duration::from_secs(900));
    Ok(toolbox)
}

/// Counts a run under `key`; the count after it.
fn bump(dir: &Path, key: &str) -> u32 {
    let path = dir.join(format!("{key}.count"));
    let count = fs::read_to_string(&path)
        .ok()
        .and_then(|text| text.trim().parse::<u32>().ok())
        .unwrap_or(0)
        + 1;
    let _ = fs::write(&path, count.to_string());
    count
}

/// Notes the time of a run under `key`, in ms since the epoch.
fn stamp(dir: &Path, key: &str) {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_millis());
    if let Ok(mut file) = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(format!("{key}.times")))
    {
        let _ = writeln!(file, "{now}");
    }
}

// ---------------------------------------------------------------------------
// The harness: the server, the service, HTTP.

/// A child process killed (and reaped) when dropped, also on a panic.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

struct Harness {
    http: ureq::Agent,
    ingress: String,
    admin: String,
    service_addr: SocketAddr,
    state: tempfile::TempDir,
    base: tempfile::TempDir,
    service: RefCell<Option<Killed>>,
    server: Option<Killed>,
}

/// The processes go before their directories do.
impl Drop for Harness {
    fn drop(&mut self) {
        drop(self.service.borrow_mut().take());
        drop(self.server.take());
    }
}

/// A turn's answer: the invocation and the handler's JSON.
struct TurnReply {
    invocation: String,
    reply: Value,
    outcomes: Vec<Value>,
}

impl Harness {
    fn start(server: &Path) -> Result<Self, String> {
        let base = tempfile::tempdir().map_err(|e| format!("base dir: {e}"))?;
        let state = tempfile::tempdir().map_err(|e| format!("state dir: {e}"))?;
        let [ingress, admin, node, service] = free_ports()?;
        let log = fs::File::create(base.path().join("server.log"))
            .map_err(|e| format!("server log: {e}"))?;
        let log2 = log.try_clone().map_err(|e| format!("server log: {e}"))?;
        let child = Command::new(server)
            .arg("--no-logo")
            .arg("--base-dir")
            .arg(base.path())
            .env(
                "RESTATE_INGRESS__BIND_ADDRESS",
                format!("127.0.0.1:{ingress}"),
            )
            .env("RESTATE_ADMIN__BIND_ADDRESS", format!("127.0.0.1:{admin}"))
            .env("RESTATE_BIND_ADDRESS", format!("127.0.0.1:{node}"))
            .env("RESTATE_LISTEN_MODE", "tcp")
            .env("RESTATE_DISABLE_TELEMETRY", "true")
            .env("RESTATE_LOG_DISABLE_ANSI_CODES", "true")
            .env("RESTATE_DEFAULT_NUM_PARTITIONS", "2")
            // A killed service is tried again soon.
            .env("RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL", "100ms")
            .env("RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL", "500ms")
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log2)
            .spawn()
            .map_err(|e| format!("starting {}: {e}", server.display()))?;
        let http: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(WAIT))
            .http_status_as_error(false)
            .build()
            .into();
        let mut harness = Self {
            http,
            ingress: format!("http://127.0.0.1:{ingress}"),
            admin: format!("http://127.0.0.1:{admin}"),
            service_addr: SocketAddr::from(([127, 0, 0, 1], service)),
            state,
            base,
            service: RefCell::new(None),
            server: Some(Killed(child)),
        };
        wait_until("the admin API", || {
            harness
                .get(&format!("{}/health", harness.admin))
                .is_ok_and(|(status, _)| status == 200)
        })?;
        let service = harness.spawn_service()?;
        harness.service = RefCell::new(Some(service));
        let (status, body) = harness.post(
            &format!("{}/deployments", harness.admin),
            &json!({"uri": format!("http://{}", harness.service_addr)}),
        )?;
        if status != 201 {
            return Err(format!("registering the service: {status} {body}"));
        }
        wait_until("the ingress", || {
            harness
                .post(
                    &format!("{}/TestAgent/turn", harness.ingress),
                    &json!({"content": []}),
                )
                .is_ok_and(|(status, _)| status == 200)
        })?;
        Ok(harness)
    }

    fn spawn_service(&self) -> Result<Killed, String> {
        let log = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.base.path().join("service.log"))
            .map_err(|e| format!("service log: {e}"))?;
        let log2 = log.try_clone().map_err(|e| format!("service log: {e}"))?;
        let exe = std::env::current_exe().map_err(|e| format!("this test's binary: {e}"))?;
        let child = Command::new(exe)
            .env(SERVE_ADDR, self.service_addr.to_string())
            .env(STATE_DIR, self.state.path())
            .env(INGRESS, &self.ingress)
            .env(ADMIN, &self.admin)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log2)
            .spawn()
            .map_err(|e| format!("starting the service: {e}"))?;
        let service = Killed(child);
        let addr = self.service_addr;
        wait_until("the service to listen", || {
            TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok()
        })?;
        Ok(service)
    }

    /// Kills the service (SIGKILL) and starts it again on the same address.
    fn restart_service(&self) -> Result<(), String> {
        if let Some(mut old) = self.service.borrow_mut().take() {
            let _ = old.0.kill();
            let _ = old.0.wait();
        }
        let new = self.spawn_service()?;
        *self.service.borrow_mut() = Some(new);
        Ok(())
    }

    fn dump_logs(&self) {
        for log in ["server.log", "service.log"] {
            let text = fs::read_to_string(self.base.path().join(log)).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(40).collect();
            println!("--- last lines of {log}:");
            for line in tail.iter().rev() {
                println!("{line}");
            }
        }
    }

    fn message(calls: &[(&str, &str, Value)]) -> Value {
        let content: Vec<Value> = calls
            .iter()
            .map(|(id, name, input)| {
                json!({"type": "tool_use", "id": id, "name": name, "input": input})
            })
            .collect();
        json!({"role": "assistant", "content": content})
    }

    /// Runs a turn to its end.
    fn turn(&self, calls: &[(&str, &str, Value)]) -> Result<TurnReply, String> {
        let invocation = self.send_turn(calls)?;
        self.attach(&invocation)
    }

    /// Runs a turn, sent with a header, to its end.
    fn turn_with_header(
        &self,
        calls: &[(&str, &str, Value)],
        header: (&str, &str),
    ) -> Result<TurnReply, String> {
        let invocation = self.send(calls, Some(header))?;
        self.attach(&invocation)
    }

    /// Starts a turn; its invocation id.
    fn send_turn(&self, calls: &[(&str, &str, Value)]) -> Result<String, String> {
        self.send(calls, None)
    }

    fn send(
        &self,
        calls: &[(&str, &str, Value)],
        header: Option<(&str, &str)>,
    ) -> Result<String, String> {
        let url = format!("{}/TestAgent/turn/send", self.ingress);
        let mut request = self
            .http
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json");
        if let Some((name, value)) = header {
            request = request.header(name, value);
        }
        let response = request
            .send(Self::message(calls).to_string())
            .map_err(|e| format!("POST {url}: {e}"))?;
        let (status, body) = read_response(&url, response)?;
        if status != 200 && status != 202 {
            return Err(format!("sending the turn: {status} {body}"));
        }
        body["invocationId"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("no invocation id in {body}"))
    }

    /// Waits (at most [`WAIT`]) for a turn's answer.
    fn attach(&self, invocation: &str) -> Result<TurnReply, String> {
        let (status, body) = self.get(&format!(
            "{}/restate/invocation/{invocation}/attach",
            self.ingress
        ))?;
        if status != 200 {
            return Err(format!("the turn answered {status}: {body}"));
        }
        Ok(TurnReply {
            invocation: invocation.to_owned(),
            reply: body["reply"].clone(),
            outcomes: body["outcomes"].as_array().cloned().unwrap_or_default(),
        })
    }

    fn resolve(&self, awakeable: &str, answer: &Value) -> Result<(), String> {
        let (status, body) = self.post(
            &format!("{}/restate/awakeables/{awakeable}/resolve", self.ingress),
            answer,
        )?;
        if status / 100 != 2 {
            return Err(format!("resolving {awakeable}: {status} {body}"));
        }
        Ok(())
    }

    /// The journal of an invocation, through the admin API's SQL.
    fn journal(&self, invocation: &str) -> Result<Vec<Value>, String> {
        let query = format!(
            "SELECT index, entry_type, name, entry_json FROM sys_journal WHERE id = '{invocation}' ORDER BY index"
        );
        let (status, body) =
            self.post(&format!("{}/query", self.admin), &json!({"query": query}))?;
        if status != 200 {
            return Err(format!("querying the journal: {status} {body}"));
        }
        body["rows"]
            .as_array()
            .cloned()
            .ok_or_else(|| format!("no rows in {body}"))
    }

    /// The requests sent for a call, once there are `at_least` of them.
    fn parked(&self, call: &str, at_least: usize) -> Result<Vec<Value>, String> {
        let path = self.state.path().join(format!("parked-{call}.jsonl"));
        let read = || -> Vec<Value> {
            fs::read_to_string(&path)
                .unwrap_or_default()
                .lines()
                .filter_map(|line| serde_json::from_str(line).ok())
                .collect()
        };
        wait_until("the request to be sent", || read().len() >= at_least)?;
        Ok(read())
    }

    /// The awakeable id of the first request sent for a call.
    fn awakeable(&self, call: &str) -> Result<String, String> {
        let parked = self.parked(call, 1)?;
        parked[0]["data"]["awakeable"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("no awakeable id in {}", parked[0]))
    }

    /// What the turn's observer heard from a call, in order.
    fn events(&self, call: &str) -> Vec<Value> {
        fs::read_to_string(self.state.path().join(format!("events-{call}.jsonl")))
            .unwrap_or_default()
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect()
    }

    fn count(&self, key: &str) -> u32 {
        fs::read_to_string(self.state.path().join(format!("{key}.count")))
            .ok()
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(0)
    }

    fn times(&self, key: &str) -> Vec<u64> {
        fs::read_to_string(self.state.path().join(format!("{key}.times")))
            .unwrap_or_default()
            .lines()
            .filter_map(|line| line.trim().parse().ok())
            .collect()
    }

    fn get(&self, url: &str) -> Result<(u16, Value), String> {
        let response = self
            .http
            .get(url)
            .call()
            .map_err(|e| format!("GET {url}: {e}"))?;
        read_response(url, response)
    }

    fn post(&self, url: &str, body: &Value) -> Result<(u16, Value), String> {
        let response = self
            .http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json")
            .send(body.to_string())
            .map_err(|e| format!("POST {url}: {e}"))?;
        read_response(url, response)
    }
}

fn read_response(
    url: &str,
    mut response: ureq::http::Response<ureq::Body>,
) -> Result<(u16, Value), String> {
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .read_to_string()
        .map_err(|e| format!("reading {url}: {e}"))?;
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Ok((status, value))
}

/// Four free loopback ports.
fn free_ports() -> Result<[u16; 4], String> {
    let listeners: Vec<TcpListener> = (0..4)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("finding a free port: {e}"))?;
    let ports: Vec<u16> = listeners
        .iter()
        .map(|l| l.local_addr().map(|a| a.port()))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("finding a free port: {e}"))?;
    ports
        .try_into()
        .map_err(|_| "finding four free ports".to_owned())
}

/// Polls `ready` until it holds, for at most [`WAIT`].
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) -> Result<(), String> {
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline {
        if ready() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(format!("timed out after {WAIT:?} waiting for {what}"))
}

/// The values journaled by the steps (`ctx.run`) of an invocation, as text.
fn run_values(journal: &[Value]) -> Vec<String> {
    journal
        .iter()
        .filter(|entry| entry["entry_type"] == "Notification: Run")
        .filter_map(|entry| entry["entry_json"].as_str())
        .filter_map(|json| serde_json::from_str::<Value>(json).ok())
        .filter_map(|entry| {
            let bytes: Vec<u8> = entry["Notification"]["Completion"]["Run"]["result"]["Success"]
                .as_array()?
                .iter()
                .map(|byte| byte.as_u64().and_then(|b| u8::try_from(b).ok()))
                .collect::<Option<_>>()?;
            String::from_utf8(bytes).ok()
        })
        .collect()
}

fn names_like(journal: &[Value], prefix: &str) -> Vec<String> {
    journal
        .iter()
        .filter_map(|entry| entry["name"].as_str())
        .filter(|name| name.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

fn expect_eq<T: PartialEq + std::fmt::Debug>(got: &T, want: &T, what: &str) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, want {want:?}"))
    }
}
