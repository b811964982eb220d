//! Standard padded base64, the one encoding of inline bytes on every wire:
//! written straight into a serialiser's output, read with every character
//! checked.

use std::fmt;

use base64::Engine as _;
use base64::display::Base64Display;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use serde::{Serialize, Serializer};

use super::PartError;

/// Inline bytes written as standard padded base64 through `collect_str`:
/// serde_json escapes and writes each encoded chunk directly, so no base64
/// copy is ever held. The canonical part and every provider rendering write
/// their bytes through it.
#[derive(Clone, Copy)]
pub(crate) struct Base64<'a>(pub(crate) &'a [u8]);

impl Serialize for Base64<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&Base64Display::new(self.0, &STANDARD))
    }
}

impl fmt::Debug for Base64<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Base64({} bytes)", self.0.len())
    }
}

/// Decodes standard padded base64, naming where it came from on failure.
pub(crate) fn decode_base64(what: &'static str, text: &str) -> Result<Bytes, PartError> {
    // Fast path: the SIMD decoder checks the alphabet, the length and the
    // padding at several times the scalar speed. It is not strict about the
    // unused bits of the last quantum, so that quantum is re-checked by the
    // strict decoder. Anything refused is decoded again by the strict decoder,
    // whose error says where the input went wrong.
    if let Ok(bytes) = base64_simd::STANDARD.decode_to_vec(text) {
        let last_quantum = text.get(text.len().saturating_sub(4)..).unwrap_or_default();
        if STANDARD.decode(last_quantum).is_ok() {
            return Ok(Bytes::from(bytes));
        }
    }
    STANDARD
        .decode(text)
        .map(Bytes::from)
        .map_err(|source| PartError::InvalidBase64 { what, source })
}

/// The decoded length of standard padded base64 of `encoded` characters
/// (exact for valid base64, an upper bound otherwise), known before any of
/// it is decoded.
pub(crate) fn decoded_len(encoded: &str) -> u64 {
    let padding = encoded
        .as_bytes()
        .iter()
        .rev()
        .take(2)
        .take_while(|b| **b == b'=')
        .count() as u64;
    ((encoded.len() as u64).div_ceil(4) * 3).saturating_sub(padding)
}
