//! Standard padded base64, the one encoding of inline bytes on every wire:
//! written straight into a serialiser's output, read with every character
//! checked.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use base64_simd::AsOut as _;
use bytes::Bytes;
use serde::ser::SerializeStruct as _;
use serde::{Serialize, Serializer};

use super::PartError;

/// Input bytes encoded per step into a stack buffer: a multiple of 3, so
/// padding only ever comes at the end. 2 KiB of base64 a step: large
/// enough that the calls cost nothing, small enough that the copy out of
/// the buffer is a vector loop (larger copies go through `rep movsb`,
/// which measured slower here).
const CHUNK: usize = 3 * 512;

/// The name serde_json gives a raw JSON value (`serde_json::value::RawValue`
/// serialises as a struct of this name with one field of this name), and
/// which its writer copies out as it is, unescaped.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// Inline bytes written as standard padded base64, a chunk at a time with
/// the SIMD encoder, so no base64 copy is ever held. The canonical part and
/// every provider rendering write their bytes through it.
///
/// Into serde_json's writer (`to_string`, `to_vec`, `to_writer`, whatever
/// its formatter) the chunks go as raw JSON fragments: base64 never needs
/// escaping, so serde_json's byte-by-byte escape scan is skipped and the
/// string costs what [`ToolResult::to_json`](super::ToolResult::to_json)
/// pays. Every other serialiser (`serde_json::to_value`, other formats,
/// wrappers) gets the same characters through `collect_str`.
#[derive(Clone, Copy)]
pub(crate) struct Base64<'a>(pub(crate) &'a [u8]);

impl Serialize for Base64<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if writes_json_text::<S>() {
            let mut raw = serializer.serialize_struct(RAW_VALUE_TOKEN, 1)?;
            raw.serialize_field(RAW_VALUE_TOKEN, "\"")?;
            let mut failed = None;
            encode_chunks(self.0, |chunk| {
                failed = raw.serialize_field(RAW_VALUE_TOKEN, chunk).err();
                failed.is_none()
            });
            if let Some(error) = failed {
                return Err(error);
            }
            raw.serialize_field(RAW_VALUE_TOKEN, "\"")?;
            return raw.end();
        }
        serializer.collect_str(self)
    }
}

/// Whether `S` is serde_json's writer (`&mut serde_json::Serializer<W, F>`),
/// which writes a raw value's text as it is. Only its type's name tells:
/// should that name ever read differently, every serialiser takes the
/// portable path, which writes the same characters.
fn writes_json_text<S: Serializer>() -> bool {
    std::any::type_name::<S>().starts_with("&mut serde_json::ser::Serializer<")
}

/// `bytes` as base64, handed to `each` a chunk at a time from a stack
/// buffer, until `each` says stop. The chunks start at 64 characters and
/// double up to the buffer's size, so a growing output (serde_json's `Vec`)
/// is never sized to a chunk: it keeps doubling from where it stood, as
/// for any run of small writes.
fn encode_chunks(bytes: &[u8], mut each: impl FnMut(&str) -> bool) {
    let mut encoded = [0u8; CHUNK / 3 * 4];
    let mut step = 48;
    let mut rest = bytes;
    while !rest.is_empty() {
        let Some((chunk, after)) = rest.split_at_checked(step.min(rest.len())) else {
            return;
        };
        if !each(base64_simd::STANDARD.encode_as_str(chunk, encoded.as_mut_slice().as_out())) {
            return;
        }
        rest = after;
        step = (step * 2).min(CHUNK);
    }
}

impl fmt::Display for Base64<'_> {
    /// The base64 text, a chunk at a time.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut result = Ok(());
        encode_chunks(self.0, |chunk| {
            result = f.write_str(chunk);
            result.is_ok()
        });
        result
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
