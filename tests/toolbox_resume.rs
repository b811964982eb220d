//! The one policy for answers a driver gives back to a parked call, inside
//! a turn: an answer for another request is refused (the call keeps its
//! pending result, resumable later, and says why), and a call is resumed at
//! most `Toolbox::MAX_RESUMES` times in one turn, whatever the driver.

use std::convert::Infallible;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::json;
use toolresult::ToolResult;
use toolresult::canonical::{Answer, Request};
use toolresult::provider::Call;
use toolresult::retry::StopReason;
use toolresult::tool::{self, Arguments, CallContext};
use toolresult::toolbox::{Attempt, Driver, ResumeError, Toolbox, Turn};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

/// A driver that answers every parked call with `answer(request)`, and
/// counts its waits.
struct Answering<F> {
    answer: F,
    waits: AtomicU32,
    seen: Mutex<Vec<String>>,
}

impl<F: Fn(&Request) -> Answer + Sync> Answering<F> {
    fn new(answer: F) -> Self {
        Self {
            answer,
            waits: AtomicU32::new(0),
            seen: Mutex::new(Vec::new()),
        }
    }
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

    async fn sleep(&self, delay: Duration) -> Result<(), Infallible> {
        tokio::time::sleep(delay).await;
        Ok(())
    }

    async fn wait_for_answer(
        &self,
        _: &Call,
        request: &Request,
    ) -> Result<Option<Answer>, Infallible> {
        self.waits.fetch_add(1, Ordering::SeqCst);
        self.seen.lock().unwrap().push(request.id.clone());
        Ok(Some((self.answer)(request)))
    }
}

/// A tool that asks for approval (`approve-1`) and deploys once granted;
/// it counts the answers it was given.
fn deploy(given: &'static AtomicU32) -> impl toolresult::Tool {
    tool::function(
        "deploy",
        "Deploy",
        move |_: NoArgs, cx: &CallContext| match cx.answer() {
            Some(answer) => {
                given.fetch_add(1, Ordering::SeqCst);
                ToolResult::<String>::ok(format!("deployed after {}", answer.id))
            }
            None => ToolResult::pending(Request::input("Deploy?").with_id("approve-1")),
        },
    )
    .unwrap()
}

fn deploy_call() -> Call {
    Call::new("c1", "deploy", Arguments::Json(json!({})))
}

#[test]
fn an_answer_for_another_request_is_refused_and_the_call_stays_resumable() {
    static GIVEN: AtomicU32 = AtomicU32::new(0);
    runtime().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox.register(deploy(&GIVEN)).unwrap();
        let driver = Answering::new(|_: &Request| Answer::granted("someone-else", None));
        let outcomes = toolbox.run_on(&driver, [deploy_call()]).await.unwrap();
        let parked = &outcomes[0];

        // Refused: the tool never saw the answer, the driver was asked once.
        assert_eq!(GIVEN.load(Ordering::SeqCst), 0);
        assert_eq!(driver.waits.load(Ordering::SeqCst), 1);
        // The call is answered with its pending request, as a parked call is.
        assert!(parked.is_pending());
        assert_eq!(parked.stop, StopReason::Suspended);
        assert_eq!(parked.lowered.result.output, "Deploy?");
        // The caller sees why, with the same words `Turn::resume` uses.
        let refused = *parked.not_resumed.clone().unwrap();
        assert_eq!(
            refused,
            ResumeError::OtherRequest {
                request: "approve-1".into(),
                answer: "someone-else".into(),
            }
        );
        let by_hand = Turn::default()
            .resume(parked, Answer::granted("someone-else", None))
            .unwrap_err();
        assert_eq!(refused, by_hand);
        assert_eq!(
            refused.to_string(),
            "the answer is for request `someone-else`, the call waits for `approve-1`"
        );

        // Resumable later, with the right answer.
        let turn = Turn::default()
            .resume(parked, Answer::granted("approve-1", None))
            .unwrap();
        let done = toolbox.run(turn).await;
        assert_eq!(done[0].lowered.result.output, "deployed after approve-1");
        assert_eq!(done[0].not_resumed, None);
    });
}

#[test]
fn a_matching_answer_from_the_driver_resumes_the_call_in_the_turn() {
    static GIVEN: AtomicU32 = AtomicU32::new(0);
    runtime().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox.register(deploy(&GIVEN)).unwrap();
        let driver = Answering::new(|request: &Request| Answer::granted(request.id.clone(), None));
        let outcomes = toolbox.run_on(&driver, [deploy_call()]).await.unwrap();
        assert_eq!(
            outcomes[0].lowered.result.output,
            "deployed after approve-1"
        );
        assert_eq!(outcomes[0].not_resumed, None);
        assert_eq!(outcomes[0].attempts, 2);
        assert_eq!(GIVEN.load(Ordering::SeqCst), 1);
    });
}

#[test]
fn a_call_that_keeps_parking_is_resumed_at_most_the_limit_in_one_turn() {
    static RUNS: AtomicU32 = AtomicU32::new(0);
    runtime().block_on(async {
        let mut toolbox = Toolbox::new();
        // Every run asks again, under a new id.
        toolbox
            .register(
                tool::function("nag", "Asks forever", |_: NoArgs| {
                    let run = RUNS.fetch_add(1, Ordering::SeqCst);
                    ToolResult::<u8>::pending(
                        Request::input("Again?").with_id(format!("ask-{run}")),
                    )
                })
                .unwrap(),
            )
            .unwrap();
        let driver = Answering::new(|request: &Request| Answer::granted(request.id.clone(), None));
        let calls = [
            Call::new("c1", "nag", Arguments::Json(json!({}))),
            Call::new("c2", "nag", Arguments::Json(json!({}))),
        ];
        let outcomes = toolbox.run_on(&driver, calls).await.unwrap();
        let limit = Toolbox::MAX_RESUMES;
        assert!(limit >= 1);
        // Each call: its first run and `limit` resumes, then answered as
        // parked, waiting for an answer a later turn can bring.
        assert_eq!(RUNS.load(Ordering::SeqCst), 2 * (limit + 1));
        assert_eq!(driver.waits.load(Ordering::SeqCst), 2 * limit);
        for outcome in &outcomes {
            assert!(outcome.is_pending());
            assert_eq!(outcome.attempts, limit + 1);
            assert_eq!(
                outcome.not_resumed.as_deref(),
                Some(&ResumeError::TooManyResumes { limit })
            );
            let request = outcome.lowered.result.pending_request().unwrap();
            assert!(
                Turn::default()
                    .resume(outcome, Answer::granted(request.id, None))
                    .is_ok()
            );
        }
        assert_eq!(
            ResumeError::TooManyResumes { limit: 16 }.to_string(),
            "the call was resumed 16 times in one turn and parked again"
        );
    });
}
