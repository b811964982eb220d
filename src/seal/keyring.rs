//! The keys a seal is made and checked with: one current key that seals,
//! and previous keys that still open what they sealed, so replicas can
//! rotate a key without refusing the tokens already out.

use std::fmt;
use std::time::SystemTime;

use hmac::{Hmac, Mac};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::Sha256;

use super::error::SealError;
use super::token;

/// HMAC-SHA-256, as RustCrypto's `hmac` and `sha2` make it.
pub(crate) type HmacSha256 = Hmac<Sha256>;

/// One key, held as its two keyed HMAC states (one per use, so a binding
/// digest can never stand in for a token's MAC); the key's bytes are not
/// kept beside them.
#[derive(Clone)]
pub(crate) struct Key {
    /// Keyed and fed the token domain: clone it, feed the token, finalise.
    pub(crate) token: HmacSha256,
    /// Keyed and fed the binding domain: clone it, feed a field, finalise.
    pub(crate) binding: HmacSha256,
}

impl Key {
    fn new(bytes: &[u8]) -> Result<Self, SealError> {
        if bytes.len() < Keyring::MIN_KEY_LEN {
            return Err(SealError::KeyTooShort { len: bytes.len() });
        }
        let keyed = |domain: &[u8]| {
            // HMAC takes a key of any length; the length is checked above.
            <HmacSha256 as Mac>::new_from_slice(bytes)
                .map(|mac| mac.chain_update(domain))
                .map_err(|_| SealError::KeyTooShort { len: bytes.len() })
        };
        Ok(Key {
            token: keyed(token::TOKEN_DOMAIN)?,
            binding: keyed(token::BINDING_DOMAIN)?,
        })
    }
}

/// The keys that seal what leaves the process and open it when it comes
/// back: HMAC-SHA-256 over a payload bound to its call, with an optional
/// expiry.
///
/// The first key seals; keys added with
/// [`with_previous`](Self::with_previous) only open, so replicas can move
/// to a new key while tokens sealed with the old one are still out. Give
/// every replica the same keyring. `Debug` shows how many keys there are,
/// never their bytes.
///
/// A token is signed, not encrypted: anyone holding it can read its
/// payload. The binding's values are kept only as keyed digests.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use toolresult::seal::Keyring;
///
/// let keyring = Keyring::new(b"a key of 32 bytes or more, from a secret")?;
/// let call = [("call", "call_7"), ("tool", "deploy"), ("arguments", r#"{"env":"prod"}"#)];
/// let expires = SystemTime::now() + Duration::from_secs(600);
/// let token = keyring.seal(&("round", 2), &call, Some(expires))?;
///
/// let back: (String, u32) = keyring.open(&token, &call, SystemTime::now())?;
/// assert_eq!(back, ("round".to_owned(), 2));
/// assert_eq!(format!("{keyring:?}"), "Keyring { previous_keys: 0, .. }");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Keyring {
    current: Key,
    previous: Vec<Key>,
}

impl Keyring {
    /// The shortest key accepted, in bytes: as long as the hash's output.
    pub const MIN_KEY_LEN: usize = 32;

    /// The longest token sealed or opened, in bytes; a longer one is
    /// refused before any decoding.
    pub const MAX_TOKEN_LEN: usize = 64 * 1024;

    /// A keyring whose `key` seals and opens.
    ///
    /// Errors with [`SealError::KeyTooShort`] for a key shorter than
    /// [`MIN_KEY_LEN`](Self::MIN_KEY_LEN) bytes. Use random bytes, kept
    /// secret (from a secret store, or 32 bytes from the OS's generator);
    /// a passphrase is not a key.
    ///
    /// ```
    /// use toolresult::seal::Keyring;
    ///
    /// assert!(Keyring::new([0x5a; 32]).is_ok());
    /// assert_eq!(
    ///     Keyring::new("hunter2").unwrap_err().to_string(),
    ///     "seal key is 7 bytes long; a key needs at least 32 bytes"
    /// );
    /// ```
    pub fn new(key: impl AsRef<[u8]>) -> Result<Self, SealError> {
        Ok(Keyring {
            current: Key::new(key.as_ref())?,
            previous: Vec::new(),
        })
    }

    /// Adds a previous key: it still opens the tokens it sealed, and seals
    /// nothing. Each key is tried in turn on a token, so keep only the keys
    /// whose tokens may still be out.
    ///
    /// ```
    /// use std::time::SystemTime;
    /// use toolresult::seal::Keyring;
    ///
    /// let old = Keyring::new([1u8; 32])?;
    /// let token = old.seal("state", &[], None)?;
    ///
    /// let rotated = Keyring::new([2u8; 32])?.with_previous([1u8; 32])?;
    /// assert_eq!(rotated.open::<String>(&token, &[], SystemTime::now())?, "state");
    /// // What the rotated keyring seals, the old key alone no longer opens.
    /// let new_token = rotated.seal("state", &[], None)?;
    /// assert!(old.open::<String>(&new_token, &[], SystemTime::now()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_previous(mut self, key: impl AsRef<[u8]>) -> Result<Self, SealError> {
        self.previous.push(Key::new(key.as_ref())?);
        Ok(self)
    }

    /// Seals `payload` for the call `binding` describes, valid until
    /// `expires_at` (for ever with `None`): a token of text safe in JSON, a
    /// URL and an HTTP header, `v1.<payload>.<mac>` in base64url.
    ///
    /// The binding is the call's name-value pairs (a call id, a tool name,
    /// the arguments' JSON, a request id: whatever the caller can give
    /// again, byte for byte, when the token comes back); only a keyed
    /// digest of each value goes into the token. Errors when the payload
    /// does not serialise, or makes a token over
    /// [`MAX_TOKEN_LEN`](Self::MAX_TOKEN_LEN).
    ///
    /// ```
    /// use toolresult::seal::Keyring;
    ///
    /// let keyring = Keyring::new([3u8; 32])?;
    /// let token = keyring.seal(&serde_json::json!({"round": 1}), &[("call", "call_1")], None)?;
    /// assert!(token.starts_with("v1."));
    /// assert!(token.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn seal<T: Serialize + ?Sized>(
        &self,
        payload: &T,
        binding: &[(&str, &str)],
        expires_at: Option<SystemTime>,
    ) -> Result<String, SealError> {
        token::seal(&self.current, payload, binding, expires_at)
    }

    /// Opens a token [`seal`](Self::seal) made with a key of this keyring,
    /// for the call `binding` describes, at the time `now` (the clock is
    /// the caller's: `SystemTime::now()`, or any time in a test).
    ///
    /// Checks, in this order, and refuses with the first that fails: the
    /// length ([`SealError::TooLong`]), the format
    /// ([`SealError::Malformed`]), the MAC, compared in constant time
    /// ([`SealError::Tampered`]), the expiry ([`SealError::Expired`]), the
    /// binding ([`SealError::OtherCall`], naming the field), and the
    /// payload's type ([`SealError::Unreadable`]).
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use toolresult::seal::{Keyring, SealError};
    ///
    /// let keyring = Keyring::new([4u8; 32])?;
    /// let sealed_at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    /// let token = keyring.seal(&7u8, &[], Some(sealed_at + Duration::from_secs(60)))?;
    ///
    /// assert_eq!(keyring.open::<u8>(&token, &[], sealed_at + Duration::from_secs(59))?, 7);
    /// let late = keyring.open::<u8>(&token, &[], sealed_at + Duration::from_secs(61));
    /// assert!(matches!(late, Err(SealError::Expired { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open<T: DeserializeOwned>(
        &self,
        token: &str,
        binding: &[(&str, &str)],
        now: SystemTime,
    ) -> Result<T, SealError> {
        token::open(
            std::iter::once(&self.current).chain(&self.previous),
            token,
            binding,
            now,
        )
    }
}

impl fmt::Debug for Keyring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Keyring")
            .field("previous_keys", &self.previous.len())
            .finish_non_exhaustive()
    }
}
