//! Arbitrary source chains (any depth up to 10,000, I/O errors anywhere,
//! ending in nothing, an I/O error, `Cancelled`, or a cycle back to any
//! earlier error) through lowering and through the retry decision. Every
//! case runs on a thread with a deadline, so a walk that never ends fails
//! the property instead of hanging the suite.
//!
//! The chains are leaked so that their links can name each other as
//! sources: a few megabytes at the default case count.

#[path = "../../tests/bounded/mod.rs"]
mod bounded;
#[path = "../../tests/chains/mod.rs"]
mod chains;

use std::io::ErrorKind;
use std::time::Duration;

use chains::{End, Step};
use proptest::prelude::*;
use toolresult::retry::{Decision, RetryPolicy, StopReason};
use toolresult::tool::ToolSafety;
use toolresult::{Failure, IntoToolResult, ToolResult};

const DEADLINE: Duration = Duration::from_secs(30);

const KINDS: [ErrorKind; 8] = [
    ErrorKind::TimedOut,
    ErrorKind::ConnectionReset,
    ErrorKind::WouldBlock,
    ErrorKind::NotFound,
    ErrorKind::InvalidData,
    ErrorKind::PermissionDenied,
    ErrorKind::Other,
    ErrorKind::UnexpectedEof,
];

/// A chain: its steps (I/O errors at up to four places among plain
/// errors) and how it ends.
fn chain() -> impl Strategy<Value = (Vec<Step>, End)> {
    let depth = prop_oneof![
        6 => 0usize..80,
        1 => 60usize..70,
        1 => Just(10_000usize),
    ];
    let kind = prop::sample::select(KINDS.to_vec());
    let end = prop_oneof![
        Just(End::Nothing),
        kind.clone().prop_map(End::Io),
        Just(End::Cancelled),
        any::<usize>().prop_map(End::BackTo),
    ];
    (
        depth,
        prop::collection::vec((any::<usize>(), kind), 0..4),
        end,
    )
        .prop_map(|(depth, ios, end)| {
            let mut steps = vec![Step::Plain; depth];
            if depth > 0 {
                for (at, kind) in ios {
                    steps[at % depth] = Step::Io(kind);
                }
            }
            (steps, end)
        })
}

/// The model-facing name of [`chains::Head`]: its name without its module
/// path.
const HEAD: &str = "Head";

/// A body that fails with `head` through `?`, as a tool's would.
fn fails_with(head: chains::Head) -> Result<u8, Failure> {
    Err(head)?
}

/// The default unexpected-error output for an error of `type_name` whose
/// chain holds an I/O error of `kind` first.
fn expected_output(type_name: &str, kind: Option<ErrorKind>) -> String {
    let shown = match kind {
        Some(kind) => format!("{type_name}, kind {kind:?}"),
        None => type_name.to_owned(),
    };
    format!(r#"{{"error":{{"message":"the tool failed with an unexpected error ({shown})"}}}}"#)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Lowering an unexpected error names its type and the kind of the
    /// first I/O error in its chain, and ends, whatever the chain.
    #[test]
    fn any_chain_lowers((steps, end) in chain()) {
        let kind = chains::first_io_kind(&steps, end);
        let (direct, unexpected, via_anyhow) = bounded::within(DEADLINE, move || {
            let head = chains::build(&steps, end);
            let direct = fails_with(head).lower().result.output;
            let unexpected = ToolResult::<u8>::fail(Failure::unexpected(head))
                .lower()
                .result
                .output;
            let via_anyhow = ToolResult::<u8>::fail(Failure::unexpected(anyhow::Error::new(head)))
                .lower()
                .result
                .output;
            (direct, unexpected, via_anyhow)
        });
        prop_assert_eq!(direct, expected_output(HEAD, kind));
        prop_assert_eq!(unexpected, expected_output(HEAD, kind));
        prop_assert_eq!(via_anyhow, expected_output("anyhow::Error", kind));
    }

    /// A `Cancelled` at any depth stops, even when the failure says it is
    /// transient; otherwise the first I/O kind in the table decides, and
    /// every decision ends.
    #[test]
    fn any_chain_is_decided((steps, end) in chain()) {
        let classified = chains::expected_transient(&steps, end);
        let (hinted, unhinted) = bounded::within(DEADLINE, move || {
            let policy = RetryPolicy::new().max_attempts(3);
            let head = chains::build(&steps, end);
            let hinted = policy.decide(
                ToolSafety::Idempotent,
                &Failure::unexpected(head).transient(),
                1,
            );
            let unhinted = policy.decide(ToolSafety::Idempotent, &Failure::unexpected(head), 1);
            (hinted, unhinted)
        });
        if end == End::Cancelled {
            prop_assert_eq!(hinted, Decision::Stop(StopReason::Cancelled));
            prop_assert_eq!(unhinted, Decision::Stop(StopReason::Cancelled));
        } else {
            prop_assert!(hinted.is_retry(), "{:?}", hinted);
            match classified {
                Some(true) => prop_assert!(unhinted.is_retry(), "{:?}", unhinted),
                Some(false) => prop_assert_eq!(unhinted, Decision::Stop(StopReason::Permanent)),
                None => prop_assert_eq!(unhinted, Decision::Stop(StopReason::Unknown)),
            }
        }
    }
}

#[test]
fn a_cancellation_10_000_errors_deep_stops() {
    let decision = bounded::within(DEADLINE, || {
        let head = chains::build(&[Step::Plain; 10_000], End::Cancelled);
        RetryPolicy::new().decide(
            ToolSafety::Idempotent,
            &Failure::unexpected(head).transient(),
            1,
        )
    });
    assert_eq!(decision, Decision::Stop(StopReason::Cancelled));
}

#[test]
fn an_io_kind_10_000_errors_deep_is_found() {
    let output = bounded::within(DEADLINE, || {
        let head = chains::build(&[Step::Plain; 10_000], End::Io(ErrorKind::NotFound));
        fails_with(head).lower().result.output
    });
    assert_eq!(output, expected_output(HEAD, Some(ErrorKind::NotFound)));
}
