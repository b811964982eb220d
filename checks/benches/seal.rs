//! What the seal costs on a typical request state: a parked call's round
//! and request, bound to its call id, its tool, its ~1 KB arguments and its
//! request id, with an expiry.
//!
//! - `seal`: the token made (payload to JSON, four binding digests, the
//!   MAC, base64url);
//! - `open`: the token checked and read back (the same work, plus the
//!   payload's parse);
//! - the floor: one HMAC-SHA-256 over the arguments alone, the least any
//!   seal bound to them costs.
//!
//! With `SEAL_BENCH_COUNT=<times>:<floor|seal|open>` set, it does that
//! work that many times and nothing else, for counting instructions under
//! callgrind (two counts apart, so the set-up cancels out).

mod common;

use std::time::{Duration, SystemTime};

use criterion::{Criterion, black_box, criterion_group};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use toolresult::seal::Keyring;

/// The state a parked MCP call carries across a round.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Parked {
    round: u32,
    attempt: u32,
    request: Request,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Request {
    id: String,
    kind: String,
    prompt: String,
}

const KEY: &[u8; 32] = b"a bench key of thirty-two bytes!";

/// The keyring, the call's binding (its arguments ~1 KB) and its state.
struct Case {
    keyring: Keyring,
    arguments: String,
    state: Parked,
}

impl Case {
    fn new() -> Self {
        let arguments = serde_json::to_string(&common::report()).unwrap();
        assert!(
            (900..1200).contains(&arguments.len()),
            "{}",
            arguments.len()
        );
        Case {
            keyring: Keyring::new(KEY).unwrap(),
            arguments,
            state: Parked {
                round: 1,
                attempt: 1,
                request: Request {
                    id: "req_5f0c9e2a".into(),
                    kind: "confirmation".into(),
                    prompt: "Deploy api to production in eu-north-1?".into(),
                },
            },
        }
    }

    fn binding(&self) -> [(&str, &str); 4] {
        [
            ("call", "call_Jx81mQ2vT0aZ"),
            ("tool", "deploy_service"),
            ("arguments", self.arguments.as_str()),
            ("request", "req_5f0c9e2a"),
        ]
    }
}

fn floor(mac: &Hmac<Sha256>, arguments: &str) -> impl Sized {
    mac.clone()
        .chain_update(black_box(arguments.as_bytes()))
        .finalize()
        .into_bytes()
}

fn seal(c: &mut Criterion) {
    let case = Case::new();
    let (keyring, state, binding) = (&case.keyring, &case.state, case.binding());
    let arguments = &case.arguments;
    let now = SystemTime::now();
    let expires = Some(now + Duration::from_secs(600));
    let token = keyring.seal(state, &binding, expires).unwrap();
    assert_eq!(
        &keyring.open::<Parked>(&token, &binding, now).unwrap(),
        state
    );
    let mac = <Hmac<Sha256> as Mac>::new_from_slice(KEY).unwrap();

    let mut group = c.benchmark_group(format!(
        "seal/request_state ({}-byte arguments, {}-byte token)",
        arguments.len(),
        token.len()
    ));
    group.bench_function("floor: HMAC-SHA-256 of the arguments", |b| {
        b.iter(|| floor(&mac, arguments))
    });
    group.bench_function("toolresult: seal", |b| {
        b.iter(|| {
            keyring
                .seal(black_box(&state), black_box(&binding), expires)
                .unwrap()
        })
    });
    group.bench_function("toolresult: open", |b| {
        b.iter(|| {
            keyring
                .open::<Parked>(black_box(&token), black_box(&binding), now)
                .unwrap()
        })
    });
    group.finish();
}

/// `SEAL_BENCH_COUNT`: `<times>:<floor|seal|open>`.
fn count(spec: &str) {
    let (times, what) = spec.split_once(':').expect("<times>:<floor|seal|open>");
    let times: u32 = times.parse().unwrap();
    let case = Case::new();
    let binding = case.binding();
    let now = SystemTime::now();
    let expires = Some(now + Duration::from_secs(600));
    let token = case.keyring.seal(&case.state, &binding, expires).unwrap();
    let mac = <Hmac<Sha256> as Mac>::new_from_slice(KEY).unwrap();
    for _ in 0..times {
        match what {
            "floor" => drop(black_box(floor(&mac, &case.arguments))),
            "seal" => drop(black_box(case.keyring.seal(&case.state, &binding, expires))),
            "open" => drop(black_box(
                case.keyring.open::<Parked>(&token, &binding, now),
            )),
            other => panic!("no {other}: floor, seal or open"),
        }
    }
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = seal
}

fn main() {
    common::main_or_count("SEAL_BENCH_COUNT", count, benches);
}
