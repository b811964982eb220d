//! The sealed token's format, written and read.
//!
//! `v1.<body>.<mac>`, both base64url without padding:
//!
//! - the body is JSON, `{"b":[[name,digest],…],"e":expiry,"d":payload}`:
//!   the binding's names with a keyed digest of each value (the first 16
//!   bytes of an HMAC-SHA-256 under the binding domain), the expiry in
//!   milliseconds since the unix epoch (absent: none), and the payload;
//! - the mac is the HMAC-SHA-256, under the token domain, of the text
//!   `v1.<body>` as written, so nothing is canonicalised before checking.
//!
//! The binding's digests sit inside what the MAC covers, so once the MAC
//! holds, a binding that differs is a genuine token presented for another
//! call, told apart from a forged one.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::Mac;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::Keyring;
use super::error::SealError;
use super::keyring::{HmacSha256, Key};

/// The format's version, the token's first part.
const VERSION: &str = "v1";
/// What a token's MAC is keyed with beside the key.
pub(crate) const TOKEN_DOMAIN: &[u8] = b"toolresult seal v1 token\0";
/// What a binding value's digest is keyed with beside the key.
pub(crate) const BINDING_DOMAIN: &[u8] = b"toolresult seal v1 binding\0";
/// A MAC's bytes, and its length in base64url.
const MAC_LEN: usize = 32;
const MAC_TEXT_LEN: usize = 43;
/// The bytes of a binding value's digest kept in the token.
const DIGEST_LEN: usize = 16;

/// The body as sealed.
#[derive(Serialize)]
struct BodyOut<'a, T: ?Sized> {
    b: Vec<(&'a str, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    e: Option<u64>,
    d: &'a T,
}

/// The body as opened: the payload is read only after the checks.
#[derive(Deserialize)]
struct BodyIn<'a> {
    /// A digest is base64url, which JSON never escapes: it is borrowed.
    #[serde(borrow)]
    b: Vec<(String, &'a str)>,
    #[serde(default)]
    e: Option<u64>,
    #[serde(borrow)]
    d: &'a RawValue,
}

/// The keyed digest of one binding field. The name's length comes first,
/// so no name-value pair reads as another.
fn digest(key: &Key, name: &str, value: &str) -> HmacSha256 {
    let length = u64::try_from(name.len()).unwrap_or(u64::MAX);
    key.binding
        .clone()
        .chain_update(length.to_be_bytes())
        .chain_update(name.as_bytes())
        .chain_update(value.as_bytes())
}

/// `at` in milliseconds since the unix epoch (0 before it).
fn unix_millis(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map(|since| u64::try_from(since.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

pub(crate) fn seal<T: Serialize + ?Sized>(
    key: &Key,
    payload: &T,
    binding: &[(&str, &str)],
    expires_at: Option<SystemTime>,
) -> Result<String, SealError> {
    let b = binding
        .iter()
        .map(|&(name, value)| {
            let full = digest(key, name, value).finalize().into_bytes();
            let kept = full.get(..DIGEST_LEN).unwrap_or_default();
            (name, URL_SAFE_NO_PAD.encode(kept))
        })
        .collect();
    let body = BodyOut {
        b,
        e: expires_at.map(unix_millis),
        d: payload,
    };
    let json = serde_json::to_vec(&body).map_err(SealError::Unserializable)?;
    let len = base64::encoded_len(json.len(), false)
        .and_then(|body| (VERSION.len() + 2 + MAC_TEXT_LEN).checked_add(body))
        .unwrap_or(usize::MAX);
    if len > Keyring::MAX_TOKEN_LEN {
        return Err(SealError::TooLong {
            len,
            max: Keyring::MAX_TOKEN_LEN,
        });
    }
    let mut token = String::with_capacity(len);
    token.push_str(VERSION);
    token.push('.');
    URL_SAFE_NO_PAD.encode_string(&json, &mut token);
    let mac = key
        .token
        .clone()
        .chain_update(token.as_bytes())
        .finalize()
        .into_bytes();
    token.push('.');
    URL_SAFE_NO_PAD.encode_string(mac, &mut token);
    Ok(token)
}

fn malformed(part: &'static str, problem: &'static str) -> SealError {
    SealError::Malformed { part, problem }
}

pub(crate) fn open<'k, T: DeserializeOwned>(
    mut keys: impl Iterator<Item = &'k Key>,
    token: &str,
    binding: &[(&str, &str)],
    now: SystemTime,
) -> Result<T, SealError> {
    if token.len() > Keyring::MAX_TOKEN_LEN {
        return Err(SealError::TooLong {
            len: token.len(),
            max: Keyring::MAX_TOKEN_LEN,
        });
    }
    let mut parts = token.split('.');
    let (Some(version), Some(body), Some(mac), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(malformed(
            "layout",
            "is not three parts joined by dots, `v1.<payload>.<mac>`",
        ));
    };
    if version != VERSION {
        return Err(malformed("version", "is not `v1`"));
    }
    if mac.len() != MAC_TEXT_LEN {
        return Err(malformed("mac", "is not 43 characters long"));
    }
    let mac = URL_SAFE_NO_PAD
        .decode(mac)
        .ok()
        .filter(|mac| mac.len() == MAC_LEN)
        .ok_or_else(|| malformed("mac", "is not 32 bytes of base64url"))?;
    let body_bytes = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|_| malformed("payload", "is not base64url"))?;

    let signed = token
        .get(..version.len() + 1 + body.len())
        .unwrap_or_default()
        .as_bytes();
    let key = keys
        .find(|key| {
            key.token
                .clone()
                .chain_update(signed)
                .verify_slice(&mac)
                .is_ok()
        })
        .ok_or(SealError::Tampered)?;

    // Past the MAC, the body is what a key of the keyring sealed.
    let head: BodyIn<'_> = serde_json::from_slice(&body_bytes).map_err(|_| {
        malformed(
            "payload",
            "does not hold a binding and data, though its mac matches",
        )
    })?;
    if let Some(expiry) = head.e
        && unix_millis(now) >= expiry
    {
        return Err(SealError::Expired {
            at: UNIX_EPOCH
                .checked_add(Duration::from_millis(expiry))
                .unwrap_or(UNIX_EPOCH),
            now,
        });
    }
    let mut sealed = head.b.iter();
    for &(name, value) in binding {
        let same = sealed.next().is_some_and(|(sealed_name, kept)| {
            let mut bytes = [0u8; DIGEST_LEN + 2];
            sealed_name == name
                && URL_SAFE_NO_PAD
                    .decode_slice(kept, &mut bytes)
                    .ok()
                    .filter(|&len| len == DIGEST_LEN)
                    .and_then(|len| bytes.get(..len))
                    .is_some_and(|kept| {
                        digest(key, name, value).verify_truncated_left(kept).is_ok()
                    })
        });
        if !same {
            return Err(SealError::OtherCall {
                field: name.to_owned(),
            });
        }
    }
    if let Some((extra, _)) = sealed.next() {
        return Err(SealError::OtherCall {
            field: extra.clone(),
        });
    }
    serde_json::from_str(head.d.get()).map_err(|error| SealError::Unreadable {
        column: error.column(),
    })
}
