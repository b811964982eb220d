//! A seal for what leaves the process and comes back: an MCP request state,
//! a person's answer to a parked call.
//!
//! A [`Keyring`] seals a serde payload into a token bound to its call (the
//! call id, the tool, the arguments, the request id: name-value pairs the
//! caller chooses), with an optional expiry. When the token comes back,
//! [`Keyring::open`] gives the payload only if a key of the keyring sealed
//! it, it has not expired, and it is presented for the same call; else an
//! [`SealError`] says which check failed. The MAC is HMAC-SHA-256 from
//! RustCrypto's `hmac` and `sha2`, compared in constant time. Any replica
//! holding the keyring opens what another sealed.
//!
//! A token is signed, not encrypted: keep secrets out of the payload. It
//! does not stop a genuine token from being presented twice for the same
//! call before it expires; what may happen once, the caller records.
//!
//! ```
//! use std::time::{Duration, SystemTime};
//! use toolresult::seal::{Keyring, SealError};
//!
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Parked { round: u32, request: String }
//!
//! let keyring = Keyring::new(b"0123456789abcdef0123456789abcdef")?;
//! let arguments = r#"{"service":"api","env":"prod"}"#;
//! let call = [("call", "call_1"), ("tool", "deploy"), ("arguments", arguments), ("request", "req_1")];
//! let now = SystemTime::now();
//!
//! let state = Parked { round: 1, request: "req_1".into() };
//! let token = keyring.seal(&state, &call, Some(now + Duration::from_secs(300)))?;
//!
//! // Back from the client, for the same call: the state, as sealed.
//! assert_eq!(keyring.open::<Parked>(&token, &call, now)?, state);
//!
//! // The same token for changed arguments: genuine, but another call's.
//! let changed = [("call", "call_1"), ("tool", "deploy"), ("arguments", r#"{"env":"dev"}"#), ("request", "req_1")];
//! assert_eq!(
//!     keyring.open::<Parked>(&token, &changed, now).unwrap_err().to_string(),
//!     "sealed token was issued for another call: its `arguments` differs"
//! );
//!
//! // A token changed on the way: refused.
//! let forged = token.replacen("v1.e", "v1.f", 1);
//! assert!(matches!(keyring.open::<Parked>(&forged, &call, now), Err(SealError::Tampered)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod keyring;
mod token;

pub use error::SealError;
pub use keyring::Keyring;
