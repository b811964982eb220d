//! People in the loop: a call that needs approval is parked before its
//! body runs, and a person's decision (approve, approve with an edit,
//! reject with a message, approve always) decides it, in process, over a
//! driver that waits for answers, and over MCP; sealed answers that are
//! forged, altered, replayed or for another call are refused. Every tool
//! counts its body's runs: zero before approval, once after.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::{Map, Value, json};
use toolresult::canonical::{Answer, Request};
use toolresult::provider::Call;
use toolresult::retry::{RetryPolicy, StopReason};
use toolresult::seal::Keyring;
use toolresult::tool::{self, Approval, Arguments, CallContext, ToolSafety};
use toolresult::toolbox::{Attempt, CallOutcome, Driver, ResumeError, Toolbox, Turn};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Deploy {
    env: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Pay {
    cents: u64,
}

/// A toolbox with `deploy` (always approved by a person) and `pay` (over
/// 100.00 only), counting their bodies' runs; sealed with `keyring`.
fn toolbox(keyring: Option<Keyring>) -> (Toolbox, Arc<AtomicU32>) {
    let runs = Arc::new(AtomicU32::new(0));
    let mut toolbox = Toolbox::new().retry(
        RetryPolicy::new()
            .max_attempts(3)
            .retry_non_idempotent(true),
    );
    if let Some(keyring) = keyring {
        toolbox = toolbox.seal_requests(keyring);
    }
    let count = Arc::clone(&runs);
    toolbox
        .register(
            tool::function("deploy", "Deploy", move |d: Deploy| {
                count.fetch_add(1, Ordering::SeqCst);
                format!("deployed to {}", d.env)
            })
            .unwrap()
            .with_safety(ToolSafety::Idempotent)
            .with_approval(Approval::always()),
        )
        .unwrap();
    let count = Arc::clone(&runs);
    toolbox
        .register(
            tool::function("pay", "Pay", move |p: Pay| {
                count.fetch_add(1, Ordering::SeqCst);
                format!("paid {}", p.cents)
            })
            .unwrap()
            .with_approval(Approval::when(|p: &Pay, _: &CallContext<'_>| {
                (p.cents > 10_000).then(|| format!("{} cents is over the limit", p.cents))
            })),
        )
        .unwrap();
    (toolbox, runs)
}

fn keyring() -> Keyring {
    Keyring::new([42u8; 32]).unwrap()
}

fn call(id: &str, name: &str, arguments: &str) -> Call {
    Call::new(id, name, Arguments::Text(arguments.into()))
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
        .block_on(future)
}

fn request_of(outcome: &CallOutcome) -> Request {
    outcome
        .lowered
        .result
        .pending_request()
        .expect("a parked call")
}

/// `parked` resumed with `answer` alone, run.
fn resume(toolbox: &Toolbox, parked: &CallOutcome, answer: Answer) -> CallOutcome {
    let turn = Turn::default().resume(parked, answer).unwrap();
    block_on(toolbox.run(turn)).remove(0)
}

fn refused(outcome: &CallOutcome) -> &ResumeError {
    assert!(
        outcome.is_pending(),
        "a refused answer leaves the call parked"
    );
    outcome.not_resumed.as_deref().expect("a refusal")
}

// ---------------------------------------------------------------------------
// Declared, parked before the body, each decision in process.

#[test]
fn a_call_that_needs_approval_is_parked_before_its_body_runs_and_runs_once_approved() {
    let (toolbox, runs) = toolbox(None);
    let parked = block_on(toolbox.run([call("c1", "deploy", r#"{"env":"prod"}"#)])).remove(0);
    assert_eq!(runs.load(Ordering::SeqCst), 0, "no run before approval");
    assert_eq!((parked.attempts, parked.stop), (0, StopReason::Suspended));
    let request = request_of(&parked);
    assert_eq!(request.kind, "approval");
    assert!(request.id.starts_with("approval-"));
    assert_eq!(
        request.prompt,
        "Approve the call of `deploy`? (every call of this tool needs approval)"
    );
    let data = request.data.clone().unwrap();
    assert_eq!(data["tool"], "deploy");
    assert_eq!(data["arguments"], json!({"env": "prod"}));
    assert_eq!(data["reason"], "every call of this tool needs approval");
    assert!(data.get("seal").is_none(), "no keyring, no seal");

    let done = resume(&toolbox, &parked, Answer::approve(&request));
    assert_eq!(done.lowered.result.output, "deployed to prod");
    assert_eq!(done.attempts, 1);
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn an_approval_with_edited_arguments_runs_the_body_with_the_edit() {
    let (toolbox, runs) = toolbox(None);
    let parked = block_on(toolbox.run([call("c1", "deploy", r#"{"env":"prod"}"#)])).remove(0);
    let edit = Map::from_iter([("env".to_owned(), json!("staging"))]);
    let done = resume(
        &toolbox,
        &parked,
        Answer::approve_edited(&request_of(&parked), edit),
    );
    assert_eq!(done.lowered.result.output, "deployed to staging");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn an_edit_that_does_not_fit_the_schema_is_refused_and_the_model_never_sees_it() {
    let (toolbox, runs) = toolbox(None);
    let parked = block_on(toolbox.run([call("c1", "deploy", r#"{"env":"prod"}"#)])).remove(0);
    let edit = Map::from_iter([("env".to_owned(), json!(7))]);
    let outcome = resume(
        &toolbox,
        &parked,
        Answer::approve_edited(&request_of(&parked), edit),
    );
    let ResumeError::EditRefused { why, .. } = refused(&outcome) else {
        panic!("not an edit refused: {:?}", outcome.not_resumed);
    };
    assert!(why.contains("invalid arguments at `env`"), "{why}");
    // The model reads the request again, not the edit's error.
    assert_eq!(outcome.lowered.result.output, parked.lowered.result.output);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_rejection_is_an_error_result_with_the_message_and_is_never_retried() {
    let (toolbox, runs) = toolbox(None);
    let parked = block_on(toolbox.run([call("c1", "deploy", r#"{"env":"prod"}"#)])).remove(0);
    let request = request_of(&parked);
    let done = resume(
        &toolbox,
        &parked,
        Answer::reject(&request, "not on a Friday"),
    );
    assert!(done.lowered.result.is_error && !done.is_pending());
    assert_eq!(
        done.lowered.result.output,
        r#"{"error":{"message":"the call of `deploy` was rejected: not on a Friday","suggestion":"do not call it again as it was; go on without it, or ask the user"}}"#
    );
    assert_eq!((done.attempts, done.stop), (0, StopReason::Permanent));
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn arguments_that_do_not_decode_are_refused_before_anyone_is_asked() {
    let (toolbox, runs) = toolbox(None);
    let outcome = block_on(toolbox.run([call("c1", "deploy", r#"{"env":3}"#)])).remove(0);
    assert!(!outcome.is_pending());
    assert!(
        outcome
            .lowered
            .result
            .output
            .contains("invalid arguments at `env`"),
        "{}",
        outcome.lowered.result.output
    );
    assert_eq!(outcome.stop, StopReason::Permanent);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_function_of_the_arguments_decides_and_says_why() {
    let (toolbox, runs) = toolbox(None);
    let outcomes = block_on(toolbox.run([
        call("small", "pay", r#"{"cents":500}"#),
        call("large", "pay", r#"{"cents":50000}"#),
    ]));
    assert_eq!(outcomes[0].lowered.result.output, "paid 500");
    let request = request_of(&outcomes[1]);
    assert_eq!(
        request.data.unwrap()["reason"],
        "50000 cents is over the limit"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1, "only the small payment ran");
}

#[test]
fn a_test_of_approval_that_panics_asks() {
    let (mut toolbox, runs) = toolbox(None);
    toolbox
        .register(tool::function("odd", "Odd", |_: Pay| "ran").unwrap())
        .unwrap()
        .approval(Approval::when(
            |_: &Pay, _: &CallContext<'_>| -> Option<String> { panic!("the test broke") },
        ));
    let outcome = block_on(toolbox.run([call("c1", "odd", r#"{"cents":1}"#)])).remove(0);
    let request = request_of(&outcome);
    assert_eq!(
        request.data.unwrap()["reason"],
        "deciding whether it needs approval failed"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn the_registration_overrides_the_tools_declaration() {
    let runs = Arc::new(AtomicU32::new(0));
    let mut toolbox = Toolbox::new();
    let count = Arc::clone(&runs);
    toolbox
        .register(
            tool::function("rm", "Remove", move |_: Deploy| {
                count.fetch_add(1, Ordering::SeqCst);
                "removed"
            })
            .unwrap(),
        )
        .unwrap()
        .approval(Approval::always());
    toolbox
        .register(
            tool::function("ls", "List", |_: Deploy| "listed")
                .unwrap()
                .with_approval(Approval::always()),
        )
        .unwrap()
        .approval(Approval::never());
    let outcomes = block_on(toolbox.run([
        call("c1", "rm", r#"{"env":"a"}"#),
        call("c2", "ls", r#"{"env":"a"}"#),
    ]));
    assert!(outcomes[0].is_pending());
    assert_eq!(outcomes[1].lowered.result.output, "listed");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn several_parked_calls_are_answered_one_at_a_time() {
    let (toolbox, runs) = toolbox(Some(keyring()));
    let parked = block_on(toolbox.run([
        call("c1", "deploy", r#"{"env":"a"}"#),
        call("c2", "deploy", r#"{"env":"b"}"#),
    ]));
    assert!(parked.iter().all(CallOutcome::is_pending));
    let first = resume(
        &toolbox,
        &parked[0],
        Answer::approve(&request_of(&parked[0])),
    );
    assert_eq!(first.lowered.result.output, "deployed to a");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    let second = resume(
        &toolbox,
        &parked[1],
        Answer::reject(&request_of(&parked[1]), "no"),
    );
    assert!(second.lowered.result.output.contains("rejected: no"));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn a_tool_approved_always_in_a_store_the_caller_keeps_is_not_asked_about() {
    let (toolbox, runs) = toolbox(None);
    let turn = Turn::new([call("c1", "deploy", r#"{"env":"a"}"#)]).approve_always("deploy");
    let outcomes = block_on(toolbox.run(turn));
    assert_eq!(outcomes[0].lowered.result.output, "deployed to a");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn an_approved_body_that_asks_for_input_is_not_asked_to_be_approved_again() {
    let runs = Arc::new(AtomicU32::new(0));
    let count = Arc::clone(&runs);
    let mut toolbox = Toolbox::new().seal_requests(keyring());
    toolbox
        .register(
            tool::function("release", "Release", move |_: Pay, cx: &CallContext<'_>| {
                count.fetch_add(1, Ordering::SeqCst);
                match cx.answer() {
                    Some(answer) => {
                        toolresult::ToolResult::<String>::ok(format!("notes: {}", answer.ok))
                    }
                    None => toolresult::ToolResult::pending(
                        Request::input("Release notes?").with_id("notes"),
                    ),
                }
            })
            .unwrap()
            .with_approval(Approval::always()),
        )
        .unwrap();
    let parked = block_on(toolbox.run([call("c1", "release", r#"{"cents":1}"#)])).remove(0);
    let approved = resume(&toolbox, &parked, Answer::approve(&request_of(&parked)));
    let notes = request_of(&approved);
    assert_eq!(notes.id, "notes", "the body's own question");
    // Sealed like the approval: an answer without its seal is refused.
    let made_up = resume(&toolbox, &approved, Answer::granted("notes", None));
    assert_eq!(
        refused(&made_up).to_string(),
        "the answer to request `notes` carries no seal"
    );
    assert_eq!(request_of(&made_up).id, "notes", "still parked on it");
    // Changed on the way.
    let mut changed = Answer::granted("notes", None).with_seal_of(&notes);
    if let Some(Value::String(seal)) = changed.data.as_mut().and_then(|data| data.get_mut("seal")) {
        seal.push('A');
    }
    let forged = resume(&toolbox, &approved, changed);
    let why = refused(&forged).to_string();
    assert!(
        why.starts_with("the seal of the answer to request `notes` is forged: "),
        "{why}"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    let done = resume(
        &toolbox,
        &approved,
        Answer::granted("notes", None).with_seal_of(&notes),
    );
    assert_eq!(done.lowered.result.output, "notes: true");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

/// A driver that answers every request at once with what `answer` makes
/// of it, counting the requests.
struct Answering<F> {
    answer: F,
    asked: AtomicU32,
}

impl<F: Fn(&Request) -> Answer + Sync> Driver for Answering<F> {
    type Error = Infallible;

    async fn step(
        &self,
        _: &Call,
        _: u32,
        _: u32,
        attempting: impl Future<Output = Attempt> + Send,
    ) -> Result<Attempt, Infallible> {
        Ok(attempting.await)
    }

    async fn wait_for_answer(
        &self,
        _: &Call,
        request: &Request,
    ) -> Result<Option<Answer>, Infallible> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        Ok(Some((self.answer)(request)))
    }
}

#[test]
fn approve_always_covers_the_rest_of_the_turn_on_a_driver_that_waits() {
    let (toolbox, runs) = toolbox(Some(keyring()));
    let driver = Answering {
        answer: Answer::approve_always,
        asked: AtomicU32::new(0),
    };
    let calls = ["a", "b", "c"].map(|env| call(env, "deploy", &format!(r#"{{"env":"{env}"}}"#)));
    let outcomes = block_on(toolbox.run_on(&driver, calls)).unwrap();
    let outputs: Vec<_> = outcomes
        .iter()
        .map(|o| o.lowered.result.output.as_str())
        .collect();
    assert_eq!(outputs, ["deployed to a", "deployed to b", "deployed to c"]);
    assert_eq!(driver.asked.load(Ordering::SeqCst), 1, "asked once");
    assert_eq!(runs.load(Ordering::SeqCst), 3);
}

/// A person's decision on a request.
type Decide = dyn Fn(&Request) -> Answer + Sync;

#[test]
fn each_decision_through_a_driver_that_waits() {
    let edit = |request: &Request| {
        Answer::approve_edited(request, Map::from_iter([("env".to_owned(), json!("dev"))]))
    };
    let reject = |request: &Request| Answer::reject(request, "frozen");
    let cases: [(&Decide, &str, u32); 3] = [
        (&Answer::approve, "deployed to prod", 1),
        (&edit, "deployed to dev", 1),
        (&reject, "the call of `deploy` was rejected: frozen", 0),
    ];
    for (answer, output, ran) in cases {
        let (toolbox, runs) = toolbox(Some(keyring()));
        let driver = Answering {
            answer,
            asked: AtomicU32::new(0),
        };
        let outcome =
            block_on(toolbox.run_on(&driver, [call("c1", "deploy", r#"{"env":"prod"}"#)]))
                .unwrap()
                .remove(0);
        assert!(
            outcome.lowered.result.output.contains(output),
            "{}",
            outcome.lowered.result.output
        );
        assert_eq!(runs.load(Ordering::SeqCst), ran);
        assert_eq!(driver.asked.load(Ordering::SeqCst), 1);
    }
}

// ---------------------------------------------------------------------------
// Sealed: forged, altered, replayed and cross-call answers refused.

#[test]
fn a_sealed_request_carries_its_seal_and_an_answer_without_one_is_refused() {
    let (toolbox, runs) = toolbox(Some(keyring()));
    let parked = block_on(toolbox.run([call("c1", "deploy", r#"{"env":"prod"}"#)])).remove(0);
    let request = request_of(&parked);
    assert!(
        request.data.as_ref().unwrap()["seal"]
            .as_str()
            .unwrap()
            .starts_with("v1.")
    );
    let made_up = resume(&toolbox, &parked, Answer::granted(&request.id, None));
    assert!(matches!(refused(&made_up), ResumeError::Unsealed { .. }));
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_forged_seal_is_refused() {
    let (toolbox, runs) = toolbox(Some(keyring()));
    let parked = block_on(toolbox.run([call("c1", "deploy", r#"{"env":"prod"}"#)])).remove(0);
    let request = request_of(&parked);
    // Sealed with a key the toolbox does not hold.
    let (other, _) = toolbox_with(Keyring::new([9u8; 32]).unwrap());
    let foreign = block_on(other.run([call("c1", "deploy", r#"{"env":"prod"}"#)])).remove(0);
    let mut forged = Answer::approve(&request);
    forged.data = Answer::approve(&request_of(&foreign)).data;
    let outcome = resume(&toolbox, &parked, forged);
    let ResumeError::Forged { why, .. } = refused(&outcome) else {
        panic!("not forged: {:?}", outcome.not_resumed);
    };
    assert!(why.contains("tampered"), "{why}");
    assert_eq!(
        outcome.not_resumed.as_ref().unwrap().to_string(),
        format!(
            "the seal of the answer to request `{}` is forged: sealed token was tampered with or sealed by another key: its mac does not match",
            request.id
        )
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

fn toolbox_with(keyring: Keyring) -> (Toolbox, Arc<AtomicU32>) {
    toolbox(Some(keyring))
}

#[test]
fn an_answer_for_the_call_with_altered_arguments_is_refused() {
    let (toolbox, runs) = toolbox(Some(keyring()));
    let mut parked =
        block_on(toolbox.run([call("c1", "deploy", r#"{"env":"staging"}"#)])).remove(0);
    let answer = Answer::approve(&request_of(&parked));
    // The transcript changed between the request and the answer.
    parked.call.arguments = Arguments::Text(r#"{"env":"prod"}"#.into());
    let outcome = resume(&toolbox, &parked, answer);
    assert!(
        matches!(refused(&outcome), ResumeError::OtherCall { field, .. } if field == "arguments"),
        "{:?}",
        outcome.not_resumed
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_replayed_answer_is_refused() {
    let (toolbox, runs) = toolbox(Some(keyring()));
    let parked = block_on(toolbox.run([call("c1", "deploy", r#"{"env":"prod"}"#)])).remove(0);
    let answer = Answer::approve(&request_of(&parked));
    let first = resume(&toolbox, &parked, answer.clone());
    assert_eq!(first.lowered.result.output, "deployed to prod");
    let again = resume(&toolbox, &parked, answer);
    assert!(matches!(refused(&again), ResumeError::Replayed { .. }));
    assert_eq!(runs.load(Ordering::SeqCst), 1, "the body ran once");
}

#[test]
fn another_calls_answer_is_refused() {
    let (toolbox, runs) = toolbox(Some(keyring()));
    let parked = block_on(toolbox.run([
        call("c1", "deploy", r#"{"env":"prod"}"#),
        call("c2", "deploy", r#"{"env":"prod"}"#),
    ]));
    // The answer to the first call, readdressed to the second's request.
    let mut answer = Answer::approve(&request_of(&parked[0]));
    answer.id = request_of(&parked[1]).id;
    let outcome = resume(&toolbox, &parked[1], answer);
    assert!(
        matches!(refused(&outcome), ResumeError::OtherCall { field, .. } if field == "call"),
        "{:?}",
        outcome.not_resumed
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_driver_bringing_a_forged_answer_leaves_the_call_parked() {
    let (toolbox, runs) = toolbox(Some(keyring()));
    let driver = Answering {
        answer: |request: &Request| Answer::granted(&request.id, None),
        asked: AtomicU32::new(0),
    };
    let outcome = block_on(toolbox.run_on(&driver, [call("c1", "deploy", r#"{"env":"prod"}"#)]))
        .unwrap()
        .remove(0);
    assert!(matches!(refused(&outcome), ResumeError::Unsealed { .. }));
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

// ---------------------------------------------------------------------------
// `#[tool(approval = ..)]`.

mod declared {
    use toolresult::tool::CallContext;

    /// Deletes a file.
    #[toolresult::tool(approval = always)]
    pub fn delete(path: String) -> String {
        format!("deleted {path}")
    }

    #[derive(serde::Deserialize)]
    pub struct Amount {
        cents: u64,
    }

    pub fn over_limit(amount: &Amount, _: &CallContext<'_>) -> Option<String> {
        (amount.cents > 100).then(|| "over the limit".to_owned())
    }

    /// Refunds a payment.
    #[toolresult::tool(approval = over_limit)]
    pub fn refund(cents: u64) -> String {
        format!("refunded {cents}")
    }
}

#[test]
fn the_tool_attribute_declares_approval() {
    use toolresult::tool::Tool as _;
    let cx = CallContext::new("c1", "delete");
    assert!(
        declared::delete::tool()
            .approval()
            .reason(&json!({}), &cx)
            .is_some()
    );
    let refund = declared::refund::tool();
    assert_eq!(
        refund
            .approval()
            .reason(&json!({"cents": 500}), &cx)
            .as_deref(),
        Some("over the limit")
    );
    assert_eq!(refund.approval().reason(&json!({"cents": 5}), &cx), None);
}

// ---------------------------------------------------------------------------
// Over MCP: a form elicitation at 2025-11-25, an input-required result at
// 2026-07-28.

mod stateless_http;

mod mcp {
    use std::sync::atomic::Ordering;
    use std::sync::{Arc, Mutex};

    use rmcp::model::{
        CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
        ElicitationAction, Implementation,
    };
    use rmcp::service::{RequestContext, RoleClient};
    use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
    use rmcp::{ClientHandler, ErrorData, ServiceExt};
    use serde_json::{Value, json};
    use toolresult::mcp::McpServer;

    use super::stateless_http::{V2026, bounded, headers, post, serve};
    use super::{keyring, toolbox};

    /// Answers every elicitation with `answer`, keeping what it was asked.
    #[derive(Clone)]
    struct Approver {
        answer: ElicitResult,
        asked: Arc<Mutex<Vec<ElicitRequestParams>>>,
    }

    impl ClientHandler for Approver {
        fn get_info(&self) -> ClientConfig {
            let capabilities = ClientCapabilities::builder().enable_elicitation().build();
            ClientConfig::new(capabilities, Implementation::new("approver", "0.0.1"))
        }

        async fn create_elicitation(
            &self,
            request: ElicitRequestParams,
            _: RequestContext<RoleClient>,
        ) -> Result<ElicitResult, ErrorData> {
            self.asked.lock().unwrap().push(request);
            Ok(self.answer.clone())
        }
    }

    fn accept(content: Value) -> ElicitResult {
        ElicitResult::new(ElicitationAction::Accept).with_content(content)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_decision_is_a_form_elicitation_at_2025_11_25() {
        bounded(async {
            let cases = [
                (
                    accept(json!({"decision": "approve"})),
                    "deployed to prod",
                    false,
                    1,
                ),
                (
                    accept(json!({"decision": "reject", "message": "frozen"})),
                    "the call of `deploy` was rejected: frozen",
                    true,
                    0,
                ),
                (
                    ElicitResult::new(ElicitationAction::Decline),
                    "the call of `deploy` was rejected: decline",
                    true,
                    0,
                ),
            ];
            for (answer, expected, is_error, ran) in cases {
                // Sealed: the server carries the seal back with the answer
                // of the client it asked.
                let (toolbox, runs) = toolbox(Some(keyring()));
                let server = McpServer::new(toolbox).unwrap();
                let (server_end, client_end) = tokio::io::duplex(64 * 1024);
                let session = server.session();
                tokio::spawn(async move {
                    if let Ok(running) = session.serve(server_end).await {
                        let _ = running.waiting().await;
                    }
                });
                let approver = Approver {
                    answer,
                    asked: Arc::default(),
                };
                let client = approver.clone().serve(client_end).await.unwrap();
                let arguments = json!({"env": "prod"}).as_object().cloned().unwrap();
                let result = client
                    .call_tool(CallToolRequestParams::new("deploy").with_arguments(arguments))
                    .await
                    .unwrap();
                let text = result.content[0].as_text().unwrap().text.clone();
                assert!(text.contains(expected), "{text}");
                assert_eq!(result.is_error, Some(is_error), "{text}");
                assert_eq!(runs.load(Ordering::SeqCst), ran, "{expected}");
                let asked = serde_json::to_value(&*approver.asked.lock().unwrap()).unwrap();
                assert_eq!(asked[0]["mode"], "form");
                assert_eq!(
                    asked[0]["message"],
                    "Approve the call of `deploy`? (every call of this tool needs approval)"
                );
                assert_eq!(
                    asked[0]["requestedSchema"]["properties"]["decision"]["enum"],
                    json!(["approve", "reject"])
                );
                client.cancel().await.unwrap();
            }
        })
        .await;
    }

    /// A 2026-07-28 `tools/call` of `deploy` as request `id`, with `more`
    /// params; the JSON-RPC answer.
    async fn call(address: &str, id: i64, more: Value) -> Value {
        let mut params = json!({
            "name": "deploy",
            "arguments": {"env": "prod"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": V2026,
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
                "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
            },
        });
        if let (Some(params), Some(more)) = (params.as_object_mut(), more.as_object()) {
            params.extend(more.clone());
        }
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let answer = post(
            address,
            &headers("tools/call", Some("deploy")),
            &body.to_string(),
        )
        .await;
        answer.answer(id).clone()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_decision_answers_an_input_required_result_at_2026_07_28() {
        bounded(async {
            let cases = [
                (
                    json!({"action": "accept", "content": {"decision": "approve"}}),
                    "deployed to prod",
                    1,
                ),
                (
                    json!({"action": "accept", "content": {"decision": "reject", "message": "no"}}),
                    "the call of `deploy` was rejected: no",
                    0,
                ),
                (
                    json!({"action": "decline"}),
                    "the call of `deploy` was rejected: decline",
                    0,
                ),
            ];
            for (response, expected, ran) in cases {
                let (toolbox, runs) = toolbox(Some(keyring()));
                let server = McpServer::new(toolbox)
                    .unwrap()
                    .input_required(keyring(), std::time::Duration::from_secs(60));
                let address = serve(&server, StreamableHttpServerConfig::default()).await;
                let first = call(&address, 1, json!({})).await;
                let result = &first["result"];
                assert_eq!(result["resultType"], "input_required", "{first}");
                let requests = result["inputRequests"].as_object().unwrap();
                let (id, asked) = requests.iter().next().unwrap();
                assert!(id.starts_with("approval-"), "{id}");
                assert_eq!(asked["params"]["mode"], "form", "{first}");
                assert_eq!(runs.load(Ordering::SeqCst), 0, "no run before the answer");
                let state = result["requestState"].as_str().unwrap();
                let again = json!({"inputResponses": {id: response}, "requestState": state});
                let second = call(&address, 2, again).await;
                assert_eq!(second["result"]["resultType"], "complete", "{second}");
                let text = second["result"]["content"][0]["text"].as_str().unwrap();
                assert!(text.contains(expected), "{text}");
                assert_eq!(runs.load(Ordering::SeqCst), ran, "{expected}");
            }
        })
        .await;
    }
}
