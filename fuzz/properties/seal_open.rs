//! `Keyring::open` on arbitrary text and on sealed tokens changed by the
//! input: it never panics, and nothing opens but a token the keyring
//! sealed, for the call it was sealed for, before its expiry.
//!
//! The input is read three ways:
//! - whole, as a token: opening it never panics, and if it opens (no
//!   expiry, an empty binding), it is exactly the token sealing its
//!   payload gives;
//! - up to its first `0xff` byte, as a payload string and a binding (its
//!   first line, split on `=` and `&`, as name-value pairs); the token
//!   sealed over them opens for that binding and no other, and is refused
//!   after its expiry;
//! - after that byte, as edits of that token, three bytes each (a
//!   position, big-endian, then a byte written there): the edited token
//!   opens only if it is the token unchanged, and is otherwise refused as
//!   malformed or tampered, never at a later check.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::value::RawValue;
use toolresult::seal::{Keyring, SealError};

const KEY: &[u8; 32] = b"the fuzz target's seal key, 32 b";
const PREVIOUS: &[u8; 32] = b"the fuzz target's old key, 32 by";

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    let keyring = Keyring::new(KEY).expect("a 32-byte key");
    let text = String::from_utf8_lossy(data);
    open_as_text(&keyring, &text);

    let (head, edits) = match data.iter().position(|&b| b == 0xff) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let head = String::from_utf8_lossy(head);
    let (first_line, payload) = head.split_once('\n').unwrap_or((&head, ""));
    let binding: Vec<(&str, &str)> = first_line
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .collect();
    let sealed_at = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    let expires = sealed_at + Duration::from_secs(1 + u64::from(data.len() as u8));
    let token = match keyring.seal(payload, &binding, Some(expires)) {
        Ok(token) => token,
        Err(error) => {
            // Only a payload too long for any token is refused.
            assert!(matches!(error, SealError::TooLong { .. }), "{error}");
            return;
        }
    };
    assert!(token.len() <= Keyring::MAX_TOKEN_LEN);
    let opened: String = keyring
        .open(&token, &binding, sealed_at)
        .expect("a token opens before its expiry");
    assert_eq!(opened, payload);

    // Expired: refused, and only for that.
    assert!(matches!(
        keyring.open::<String>(&token, &binding, expires),
        Err(SealError::Expired { .. })
    ));
    // Another binding: refused, naming a field of one side or the other.
    let mut other = binding.clone();
    let changed = format!("{}+", other.last().map_or("", |(_, value)| *value));
    match other.last_mut() {
        Some(last) => last.1 = &changed,
        None => other.push(("call", "")),
    }
    match keyring.open::<String>(&token, &other, sealed_at) {
        Err(SealError::OtherCall { field }) => {
            assert!(other.iter().chain(&binding).any(|(name, _)| *name == field))
        }
        other => panic!("another binding: {other:?}"),
    }
    // A keyring holding the key as a previous one opens it; one without, not.
    let rotated = Keyring::new(PREVIOUS)
        .expect("a 32-byte key")
        .with_previous(KEY)
        .expect("a 32-byte key");
    assert_eq!(
        rotated
            .open::<String>(&token, &binding, sealed_at)
            .ok()
            .as_deref(),
        Some(payload)
    );
    let stranger = Keyring::new(PREVIOUS).expect("a 32-byte key");
    assert!(matches!(
        stranger.open::<String>(&token, &binding, sealed_at),
        Err(SealError::Tampered)
    ));

    // Edited: opens only unchanged.
    let mut edited = token.clone().into_bytes();
    for edit in edits.chunks_exact(3) {
        let at = usize::from(u16::from_be_bytes([edit[0], edit[1]])) % (edited.len() + 1);
        if at == edited.len() {
            edited.push(edit[2]);
        } else {
            edited[at] = edit[2];
        }
    }
    let edited = String::from_utf8_lossy(&edited);
    match keyring.open::<String>(&edited, &binding, sealed_at) {
        Ok(opened) => {
            assert_eq!(edited, token, "an edited token opened");
            assert_eq!(opened, payload);
        }
        Err(SealError::TooLong { .. } | SealError::Malformed { .. } | SealError::Tampered) => {
            assert_ne!(edited, token, "the token unchanged was refused")
        }
        Err(other) => panic!("an edited token got past its mac: {other:?}"),
    }
}

/// The input as a token: no panic, and whatever opens is what sealing its
/// payload gives (at the end of time, so only a token without an expiry
/// opens).
fn open_as_text(keyring: &Keyring, text: &str) {
    let end = SystemTime::UNIX_EPOCH + Duration::from_secs(u64::from(u32::MAX) * 4);
    match keyring.open::<Box<RawValue>>(text, &[], end) {
        Ok(payload) => {
            let again = keyring.seal(&payload, &[], None).expect("it sealed once");
            assert_eq!(again, text, "a token opened that sealing does not give");
        }
        Err(error) => {
            let shown = error.to_string();
            assert!(shown.len() < 200, "{shown}");
        }
    }
}
