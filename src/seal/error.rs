//! What can go wrong making a keyring, sealing a payload or opening a
//! token: one error for the seal. No message names a key or a payload's
//! contents.

use std::time::{SystemTime, UNIX_EPOCH};

/// What went wrong making a [`Keyring`](super::Keyring), sealing a payload
/// or opening a token.
///
/// [`Keyring::open`](super::Keyring::open) checks in the order of the
/// variants from [`TooLong`](Self::TooLong) on, so a variant says the
/// checks before it passed: an [`Expired`](Self::Expired) or
/// [`OtherCall`](Self::OtherCall) token is genuine (sealed by a key of the
/// keyring), a [`Tampered`](Self::Tampered) one is not. No message names a
/// key or a payload's contents.
///
/// ```
/// use std::time::SystemTime;
/// use toolresult::seal::{Keyring, SealError};
///
/// let short = Keyring::new(b"sixteen byte key").unwrap_err();
/// assert!(matches!(short, SealError::KeyTooShort { len: 16 }));
/// assert_eq!(short.to_string(), "seal key is 16 bytes long; a key needs at least 32 bytes");
///
/// let keyring = Keyring::new([7u8; 32])?;
/// let call = [("call", "call_1"), ("tool", "deploy")];
/// let token = keyring.seal("approved", &call, None)?;
/// let other = [("call", "call_2"), ("tool", "deploy")];
/// let refused = keyring.open::<String>(&token, &other, SystemTime::now()).unwrap_err();
/// assert!(matches!(&refused, SealError::OtherCall { field } if field == "call"));
/// assert_eq!(refused.to_string(), "sealed token was issued for another call: its `call` differs");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SealError {
    /// A key shorter than [`Keyring::MIN_KEY_LEN`](super::Keyring::MIN_KEY_LEN).
    #[error("seal key is {len} bytes long; a key needs at least {min} bytes", min = super::Keyring::MIN_KEY_LEN)]
    KeyTooShort {
        /// The length of the key given, in bytes.
        len: usize,
    },
    /// Sealing: the payload's `Serialize` failed (the source says how).
    #[error("the payload to seal does not serialise to JSON")]
    Unserializable(#[source] serde_json::Error),
    /// A token longer than [`Keyring::MAX_TOKEN_LEN`](super::Keyring::MAX_TOKEN_LEN):
    /// sealing, it could never come back; opening, it is refused before
    /// any decoding.
    #[error("sealed token is {len} bytes, over the {max} bytes a token may have")]
    TooLong {
        /// The token's length, in bytes.
        len: usize,
        /// [`Keyring::MAX_TOKEN_LEN`](super::Keyring::MAX_TOKEN_LEN).
        max: usize,
    },
    /// Not a token of this format: `part` names which part is wrong
    /// (`layout`, `version`, `payload` or `mac`) and `problem` how.
    #[error("malformed sealed token: its {part} {problem}")]
    Malformed {
        /// The part that is wrong: `layout`, `version`, `payload` or `mac`.
        part: &'static str,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// Its MAC does not match: the token was changed, or sealed by a key
    /// this keyring does not hold.
    #[error("sealed token was tampered with or sealed by another key: its mac does not match")]
    Tampered,
    /// Genuine, but its expiry has passed.
    #[error(
        "sealed token expired at unix time {} s; it is now {} s",
        unix_seconds(.at),
        unix_seconds(.now)
    )]
    Expired {
        /// When it expired.
        at: SystemTime,
        /// The time it was opened at.
        now: SystemTime,
    },
    /// Genuine, but sealed for another call: `field` names the first
    /// binding field whose value differs (or that only one side has).
    #[error("sealed token was issued for another call: its `{field}` differs")]
    OtherCall {
        /// The binding field that differs.
        field: String,
    },
    /// Genuine and for this call, but its payload does not read as the
    /// type asked for (it was sealed as another type).
    #[error(
        "the sealed payload does not read as the type asked for (at column {column} of its JSON)"
    )]
    Unreadable {
        /// Where in the payload's JSON reading stopped, from 1.
        column: usize,
    },
}

/// `at` as seconds since the unix epoch, to the millisecond (`-` before it).
fn unix_seconds(at: &SystemTime) -> String {
    match at.duration_since(UNIX_EPOCH) {
        Ok(since) => format!("{}.{:03}", since.as_secs(), since.subsec_millis()),
        Err(before) => {
            let before = before.duration();
            format!("-{}.{:03}", before.as_secs(), before.subsec_millis())
        }
    }
}
