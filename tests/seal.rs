//! The seal (`toolresult::seal`): a token opens only under a key that sealed
//! it, before its expiry, for the call it was sealed for; each refusal says
//! which check failed, and none names a key or a payload's contents.
#![cfg(feature = "seal")]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use toolresult::seal::{Keyring, SealError};

const KEY: &[u8; 32] = b"K3y-0f-the-seal-tests-32-bytes!!";
const OTHER_KEY: &[u8; 32] = b"an0ther-key-of-32-bytes-for-test";

/// What a parked MCP call carries across a round.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Parked {
    call: String,
    tool: String,
    round: u32,
    request: serde_json::Value,
}

fn parked() -> Parked {
    Parked {
        call: "call_1".into(),
        tool: "deploy".into(),
        round: 2,
        request: serde_json::json!({"id": "req_1", "kind": "confirmation", "prompt": "Deploy api to prod?"}),
    }
}

const ARGUMENTS: &str = r#"{"service":"api","env":"prod"}"#;

fn binding() -> [(&'static str, &'static str); 4] {
    [
        ("call", "call_1"),
        ("tool", "deploy"),
        ("arguments", ARGUMENTS),
        ("request", "req_1"),
    ]
}

fn at(seconds: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(seconds)
}

const NOW: u64 = 1_800_000_000;

fn keyring() -> Keyring {
    Keyring::new(KEY).unwrap()
}

fn token() -> String {
    keyring().seal(&parked(), &binding(), None).unwrap()
}

/// An error as `Debug` shows it: `SealError` keeps serde's error in one
/// variant, which has no `PartialEq`, so refusals are compared this way.
fn shown(error: &SealError) -> String {
    format!("{error:?}")
}

/// The refusal of `result`, as `Debug` shows it; panics if it opened.
#[track_caller]
fn refusal<T: std::fmt::Debug>(result: Result<T, SealError>) -> String {
    shown(&result.unwrap_err())
}

const BASE64URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

#[test]
fn a_sealed_payload_opens_as_it_was() {
    let token = token();
    let back: Parked = keyring().open(&token, &binding(), at(NOW)).unwrap();
    assert_eq!(back, parked());
    // A payload of any serde type, and an empty binding.
    let list = keyring().seal(&[1u8, 2, 3], &[], None).unwrap();
    assert_eq!(
        keyring().open::<Vec<u8>>(&list, &[], at(NOW)).unwrap(),
        [1, 2, 3]
    );
}

#[test]
fn a_token_is_compact_text_safe_in_json_and_headers() {
    let token = token();
    let parts: Vec<&str> = token.split('.').collect();
    assert_eq!(parts.len(), 3, "{token}");
    assert_eq!(parts[0], "v1");
    assert_eq!(parts[2].len(), 43, "a 32-byte mac in base64url");
    assert!(
        parts[1..]
            .iter()
            .all(|part| part.bytes().all(|b| BASE64URL.contains(&b))),
        "{token}"
    );
    // JSON writes it as it is, and it is a valid header value.
    assert_eq!(
        serde_json::to_string(&token).unwrap(),
        format!("\"{token}\"")
    );
    assert!(http::HeaderValue::from_str(&token).is_ok());
    // The binding's values are in it only as digests.
    let body = base64_url_decode(parts[1]);
    assert!(body.starts_with(r#"{"b":[["call",""#), "{body}");
    assert!(!body.contains("service"), "{body}");
}

fn base64_url_decode(text: &str) -> String {
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for b in text.bytes() {
        let value = BASE64URL.iter().position(|&c| c == b).unwrap() as u32;
        bits = bits << 6 | value;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// A token written by hand (Python's `hmac` and `base64`, from the format
/// in `src/seal/token.rs`): the format is what its docs say, and a token
/// sealed before a change to the code still opens after it.
const HAND_MADE: &str = "v1.eyJiIjpbWyJjYWxsIiwiTW4xY1ZQWk8tN2ZSOXl6N3BiVU52USJdXSwiZSI6MTgwMDAwMDA2MDUwMCwiZCI6InN0YXRlLW9rIn0.Qe48qAr0KPt4sFezGVaQ6I20Jje89vpeIsi2dGdSoS0";

#[test]
fn the_format_is_the_documented_one() {
    let expires = at(NOW) + Duration::from_millis(60_500);
    let binding = [("call", "call_1")];
    assert_eq!(
        keyring().seal("state-ok", &binding, Some(expires)).unwrap(),
        HAND_MADE
    );
    assert_eq!(
        keyring()
            .open::<String>(HAND_MADE, &binding, at(NOW))
            .unwrap(),
        "state-ok"
    );
}

#[test]
fn a_changed_character_anywhere_is_refused() {
    let token = token();
    let keyring = keyring();
    let dots: Vec<usize> = token.match_indices('.').map(|(i, _)| i).collect();
    let (body, mac) = (dots[0] + 1..dots[1], dots[1] + 1..token.len());
    let mut tampered = 0;
    for i in 0..token.len() {
        let original = token.as_bytes()[i];
        for &replacement in BASE64URL.iter().chain(b".=+/ ") {
            if replacement == original {
                continue;
            }
            let mut changed = token.clone().into_bytes();
            changed[i] = replacement;
            let changed = String::from_utf8(changed).unwrap();
            let refused = keyring
                .open::<Parked>(&changed, &binding(), at(NOW))
                .unwrap_err();
            let last_of_part = i + 1 == dots[1] || i + 1 == token.len();
            let in_part = body.contains(&i) || mac.contains(&i);
            if in_part && !last_of_part && BASE64URL.contains(&replacement) {
                // Still a token of the format: only the MAC can tell.
                assert_eq!(
                    shown(&refused),
                    shown(&SealError::Tampered),
                    "byte {i} -> {replacement}"
                );
                tampered += 1;
            } else {
                assert!(
                    matches!(refused, SealError::Tampered | SealError::Malformed { .. }),
                    "byte {i} -> {replacement}: {refused:?}"
                );
            }
        }
    }
    assert!(tampered > 60 * 100, "{tampered}");
    // Cut short, or grown, it is refused too.
    for cut in 0..token.len() {
        assert!(
            keyring
                .open::<Parked>(&token[..cut], &binding(), at(NOW))
                .is_err()
        );
    }
    assert!(
        keyring
            .open::<Parked>(&format!("{token}A"), &binding(), at(NOW))
            .is_err()
    );
}

#[test]
fn another_key_refuses_a_token() {
    let other = Keyring::new(OTHER_KEY).unwrap();
    let refused = other
        .open::<Parked>(&token(), &binding(), at(NOW))
        .unwrap_err();
    assert_eq!(shown(&refused), shown(&SealError::Tampered));
    assert_eq!(
        refused.to_string(),
        "sealed token was tampered with or sealed by another key: its mac does not match"
    );
}

#[test]
fn a_rotated_keyring_opens_the_old_tokens_and_seals_with_the_new_key() {
    let old_token = token();
    let rotated = Keyring::new(OTHER_KEY).unwrap().with_previous(KEY).unwrap();
    assert_eq!(
        rotated
            .open::<Parked>(&old_token, &binding(), at(NOW))
            .unwrap(),
        parked()
    );
    let new_token = rotated.seal(&parked(), &binding(), None).unwrap();
    assert_ne!(new_token, old_token);
    // Sealed with the new key: the new key alone opens it, the old alone does not.
    let new_only = Keyring::new(OTHER_KEY).unwrap();
    assert_eq!(
        new_only
            .open::<Parked>(&new_token, &binding(), at(NOW))
            .unwrap(),
        parked()
    );
    assert_eq!(
        refusal(keyring().open::<Parked>(&new_token, &binding(), at(NOW))),
        shown(&SealError::Tampered)
    );
    // A binding is checked under the key that sealed it.
    let other_call = [
        ("call", "call_9"),
        ("tool", "deploy"),
        ("arguments", ARGUMENTS),
        ("request", "req_1"),
    ];
    assert_eq!(
        refusal(rotated.open::<Parked>(&old_token, &other_call, at(NOW))),
        shown(&SealError::OtherCall {
            field: "call".into()
        })
    );
}

#[test]
fn an_expired_token_is_refused_and_one_not_yet_expired_opens() {
    let keyring = keyring();
    let expires = at(NOW) + Duration::from_millis(60_500);
    let token = keyring.seal(&parked(), &binding(), Some(expires)).unwrap();
    for before in [at(NOW), expires - Duration::from_millis(1), at(0)] {
        assert_eq!(
            keyring.open::<Parked>(&token, &binding(), before).unwrap(),
            parked()
        );
    }
    for after in [expires, expires + Duration::from_secs(3600)] {
        let refused = keyring
            .open::<Parked>(&token, &binding(), after)
            .unwrap_err();
        assert_eq!(
            shown(&refused),
            shown(&SealError::Expired {
                at: expires,
                now: after
            })
        );
    }
    assert_eq!(
        keyring
            .open::<Parked>(&token, &binding(), at(NOW + 3600))
            .unwrap_err()
            .to_string(),
        "sealed token expired at unix time 1800000060.500 s; it is now 1800003600.000 s"
    );
    // Without an expiry, it opens at any time.
    let forever = keyring.seal(&parked(), &binding(), None).unwrap();
    assert!(
        keyring
            .open::<Parked>(&forever, &binding(), at(u32::MAX.into()))
            .is_ok()
    );
}

#[test]
fn a_token_presented_for_another_call_is_refused_naming_the_field() {
    let token = token();
    let keyring = keyring();
    let changes = [
        ("call", "call_2"),
        ("tool", "delete"),
        ("arguments", r#"{"service":"api","env":"dev"}"#),
        ("arguments", r#"{"env":"prod","service":"api"}"#),
        ("request", "req_2"),
    ];
    for (field, value) in changes {
        let mut other = binding();
        other.iter_mut().find(|(name, _)| *name == field).unwrap().1 = value;
        let refused = keyring.open::<Parked>(&token, &other, at(NOW)).unwrap_err();
        assert_eq!(
            shown(&refused),
            shown(&SealError::OtherCall {
                field: field.into()
            }),
            "{field}"
        );
        assert_eq!(
            refused.to_string(),
            format!("sealed token was issued for another call: its `{field}` differs")
        );
    }
    // A field the token was not bound to, or one it was bound to and not given.
    let mut more = binding().to_vec();
    more.push(("attempt", "2"));
    assert_eq!(
        refusal(keyring.open::<Parked>(&token, &more, at(NOW))),
        shown(&SealError::OtherCall {
            field: "attempt".into()
        })
    );
    assert_eq!(
        refusal(keyring.open::<Parked>(&token, &binding()[..3], at(NOW))),
        shown(&SealError::OtherCall {
            field: "request".into()
        })
    );
    // The value under another name is another binding.
    let renamed = [
        ("call", "call_1"),
        ("tool", "deploy"),
        ("args", ARGUMENTS),
        ("request", "req_1"),
    ];
    assert_eq!(
        refusal(keyring.open::<Parked>(&token, &renamed, at(NOW))),
        shown(&SealError::OtherCall {
            field: "args".into()
        })
    );
    // Names are compared whole, not as a prefix of name and value.
    let split = keyring.seal(&1u8, &[("ab", "c")], None).unwrap();
    assert_eq!(
        refusal(keyring.open::<u8>(&split, &[("a", "bc")], at(NOW))),
        shown(&SealError::OtherCall { field: "a".into() })
    );
}

#[test]
fn a_key_shorter_than_32_bytes_is_refused_with_its_length() {
    for len in [0, 1, 16, 31] {
        let refused = Keyring::new(vec![7u8; len]).unwrap_err();
        assert!(matches!(refused, SealError::KeyTooShort { len: l } if l == len));
        assert_eq!(
            refused.to_string(),
            format!("seal key is {len} bytes long; a key needs at least 32 bytes")
        );
    }
    assert!(Keyring::new([7u8; 32]).is_ok());
    assert!(matches!(
        keyring().with_previous([7u8; 20]),
        Err(SealError::KeyTooShort { len: 20 })
    ));
}

#[test]
fn debug_shows_no_key_bytes() {
    let rotated = Keyring::new(KEY).unwrap().with_previous(OTHER_KEY).unwrap();
    for shown in [format!("{rotated:?}"), format!("{rotated:#?}")] {
        assert!(
            !shown.contains("K3y") && !shown.contains("an0ther"),
            "{shown}"
        );
        // Nor as numbers: the only digit is the count of previous keys.
        assert_eq!(
            shown.chars().filter(char::is_ascii_digit).count(),
            1,
            "{shown}"
        );
    }
    assert_eq!(format!("{rotated:?}"), "Keyring { previous_keys: 1, .. }");
}

#[test]
fn a_malformed_token_says_which_part() {
    let keyring = keyring();
    let token = token();
    let (_, rest) = token.split_once('.').unwrap();
    let (body, mac) = rest.split_once('.').unwrap();
    let cases = [
        (String::new(), "layout"),
        ("v1.abc".to_owned(), "layout"),
        (format!("{token}.extra"), "layout"),
        (format!("v2.{body}.{mac}"), "version"),
        (format!("V1.{body}.{mac}"), "version"),
        (format!("v1.{body}.{}", &mac[1..]), "mac"),
        (format!("v1.{body}.{}*", &mac[1..]), "mac"),
        (format!("v1.{body}=.{mac}"), "payload"),
        (format!("v1.{body}+.{mac}"), "payload"),
    ];
    for (text, part) in cases {
        match keyring.open::<Parked>(&text, &binding(), at(NOW)) {
            Err(SealError::Malformed { part: found, .. }) => assert_eq!(found, part, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert_eq!(
        keyring
            .open::<Parked>(&format!("v2.{body}.{mac}"), &binding(), at(NOW))
            .unwrap_err()
            .to_string(),
        "malformed sealed token: its version is not `v1`"
    );
}

#[test]
fn a_token_over_the_limit_is_refused_before_decoding() {
    let max = Keyring::MAX_TOKEN_LEN;
    // Of the right shape but one byte too long: refused for its length alone.
    let long = format!("v1.{}.{}", "A".repeat(max - 46), "A".repeat(43));
    assert_eq!(long.len(), max + 1);
    let refused = keyring()
        .open::<Parked>(&long, &binding(), at(NOW))
        .unwrap_err();
    assert_eq!(
        shown(&refused),
        shown(&SealError::TooLong { len: max + 1, max })
    );
    assert_eq!(
        refused.to_string(),
        "sealed token is 65537 bytes, over the 65536 bytes a token may have"
    );
    // Sealing refuses a payload whose token could never be opened.
    let big = "x".repeat(max);
    assert!(matches!(
        keyring().seal(&big, &[], None),
        Err(SealError::TooLong { max: m, .. }) if m == max
    ));
    // The largest token sealed opens.
    let mut size = max / 2;
    let mut step = size / 2;
    while step > 0 {
        let fits = keyring().seal(&"x".repeat(size + step), &[], None).is_ok();
        if fits {
            size += step;
        }
        step /= 2;
    }
    let largest = keyring().seal(&"x".repeat(size), &[], None).unwrap();
    assert!(largest.len() > max - 4, "{}", largest.len());
    assert_eq!(
        keyring()
            .open::<String>(&largest, &[], at(NOW))
            .unwrap()
            .len(),
        size
    );
}

#[test]
fn a_payload_of_another_type_is_refused_without_its_contents() {
    let keyring = keyring();
    let token = keyring
        .seal(&serde_json::json!({"secret": "hunter2-s3cr3t"}), &[], None)
        .unwrap();
    let refused = keyring.open::<Parked>(&token, &[], at(NOW)).unwrap_err();
    assert!(
        matches!(refused, SealError::Unreadable { .. }),
        "{refused:?}"
    );
    let shown = format!("{refused} {refused:?}");
    assert!(
        !shown.contains("hunter2") && !shown.contains("secret"),
        "{shown}"
    );
}

#[test]
fn no_refusal_names_the_key_or_the_payload() {
    let keyring = keyring();
    let secret = Parked {
        call: "hunter2-s3cr3t".into(),
        ..parked()
    };
    let token = keyring.seal(&secret, &binding(), Some(at(NOW))).unwrap();
    let mut refusals = vec![
        keyring
            .open::<Parked>(&token, &binding(), at(NOW))
            .unwrap_err(),
        Keyring::new(OTHER_KEY)
            .unwrap()
            .open::<Parked>(&token, &binding(), at(0))
            .unwrap_err(),
        keyring
            .open::<Parked>(&token, &[("call", "x")], at(0))
            .unwrap_err(),
        keyring.open::<u8>(&token, &binding(), at(0)).unwrap_err(),
    ];
    refusals.push(
        keyring
            .open::<Parked>(&token.replace("v1.", "v1.#"), &binding(), at(0))
            .unwrap_err(),
    );
    for refusal in refusals {
        let shown = format!("{refusal} {refusal:?}");
        for secret in ["hunter2", "K3y", "prod"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert_eq!(
            shown.chars().next().map(char::is_lowercase),
            Some(true),
            "{shown}"
        );
    }
}

#[test]
fn a_keyring_is_shared_across_threads_and_its_error_boxes() {
    fn shared<T: Send + Sync + Clone + 'static>(_: &T) {}
    fn boxed(error: SealError) -> Box<dyn std::error::Error + Send + Sync> {
        Box::new(error)
    }
    let keyring = keyring();
    shared(&keyring);
    let token = token();
    let opened = std::thread::spawn({
        let keyring = keyring.clone();
        move || keyring.open::<Parked>(&token, &binding(), at(NOW)).unwrap()
    })
    .join()
    .unwrap();
    assert_eq!(opened, parked());
    assert_eq!(
        boxed(Keyring::new([0u8; 8]).unwrap_err()).to_string(),
        "seal key is 8 bytes long; a key needs at least 32 bytes"
    );
}
