//! A direct JSON writer for the canonical result.
//!
//! It writes exactly the bytes `serde_json::to_string` gives (the tests hold
//! it to that), but encodes part data as base64 straight into the output
//! with the SIMD encoder (base64 never needs JSON escaping, so the escape
//! scan of serde's string path is skipped) and presizes the buffer, so an
//! image costs one buffer of its base64 size and no regrowth.

use std::io::{self, Write};

use base64_simd::AsOut as _;
use serde::Serialize;

use super::part::Body;
use super::{ContentPart, MediaSource, ToolResult};

/// Input bytes encoded per step into a stack buffer when writing to an
/// `io::Write`: a multiple of 3, so padding only ever comes at the end.
const CHUNK: usize = 3 * 1024;

impl ToolResult {
    /// Writes the result's JSON to `writer`: the same bytes as
    /// `serde_json::to_writer`, faster for parts with data.
    ///
    /// ```
    /// use toolresult::canonical::{ContentPart, PartLimit, ToolResult};
    ///
    /// let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())?;
    /// let shot = ToolResult::ok(png.describe()).with_parts([png]);
    /// let mut transcript = Vec::new();
    /// shot.write_json(&mut transcript)?;
    /// assert_eq!(transcript, serde_json::to_vec(&shot)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Whatever `writer` fails with.
    pub fn write_json<W: Write>(&self, writer: W) -> io::Result<()> {
        write_result(self, &mut IoSink(writer))
    }

    /// The result's JSON text in one presized buffer: the same string as
    /// `serde_json::to_string`, written with no regrowth and the base64 of
    /// a part's data encoded straight into it (an 8 MiB image needs one
    /// buffer of about 11 MiB).
    ///
    /// ```
    /// use toolresult::canonical::ToolResult;
    ///
    /// let found = ToolResult::ok("eu-west-1");
    /// assert_eq!(found.to_json()?, r#"{"output":"eu-west-1","isError":false}"#);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    ///
    /// # Errors
    /// None in practice (every key is a string); the signature follows
    /// `serde_json::to_string`.
    pub fn to_json(&self) -> serde_json::Result<String> {
        let mut json = String::with_capacity(self.json_size_hint());
        write_result(self, &mut json).map_err(serde_json::Error::io)?;
        Ok(json)
    }

    /// A close upper estimate of the JSON's length: exact for part data,
    /// with headroom for escapes in text and a little for metadata.
    fn json_size_hint(&self) -> usize {
        let text = |s: &str| s.len() + s.len() / 16;
        let mut size = 40 + text(&self.output);
        for part in &self.parts {
            size += 40 + part.name.as_deref().map_or(0, text);
            size += match &part.body {
                Body::Text(t) => text(t),
                Body::Media { mime_type, source } => {
                    text(mime_type)
                        + match source {
                            MediaSource::Data(bytes) => bytes.len().div_ceil(3) * 4,
                            MediaSource::Url(url) => text(url),
                        }
                }
            };
        }
        if self.metadata.is_some() {
            size += 256;
        }
        size + size / 64
    }
}

/// Where the JSON goes: raw ASCII, serde-encoded values, and base64.
trait Sink {
    fn raw(&mut self, text: &str) -> io::Result<()>;
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> io::Result<()>;
    fn base64(&mut self, bytes: &[u8]) -> io::Result<()>;
}

/// Any writer: base64 a chunk at a time through a stack buffer.
struct IoSink<W>(W);

impl<W: Write> Sink for IoSink<W> {
    fn raw(&mut self, text: &str) -> io::Result<()> {
        self.0.write_all(text.as_bytes())
    }
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> io::Result<()> {
        serde_json::to_writer(&mut self.0, value).map_err(io::Error::from)
    }
    fn base64(&mut self, bytes: &[u8]) -> io::Result<()> {
        let mut encoded = [0u8; CHUNK / 3 * 4];
        for chunk in bytes.chunks(CHUNK) {
            let chunk = base64_simd::STANDARD.encode(chunk, encoded.as_mut_slice().as_out());
            self.0.write_all(chunk)?;
        }
        Ok(())
    }
}

/// A `String`: base64 appended in place, with no copy and no UTF-8 check.
impl Sink for String {
    fn raw(&mut self, text: &str) -> io::Result<()> {
        self.push_str(text);
        Ok(())
    }
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> io::Result<()> {
        self.push_str(&serde_json::to_string(value)?);
        Ok(())
    }
    fn base64(&mut self, bytes: &[u8]) -> io::Result<()> {
        base64_simd::STANDARD.encode_append(bytes, self);
        Ok(())
    }
}

/// The result, in the field order of its `Serialize` derive.
fn write_result<S: Sink>(result: &ToolResult, sink: &mut S) -> io::Result<()> {
    sink.raw("{\"output\":")?;
    sink.value(&result.output)?;
    sink.raw(if result.is_error {
        ",\"isError\":true"
    } else {
        ",\"isError\":false"
    })?;
    if !result.parts.is_empty() {
        sink.raw(",\"parts\":[")?;
        for (index, part) in result.parts.iter().enumerate() {
            if index > 0 {
                sink.raw(",")?;
            }
            write_part(part, sink)?;
        }
        sink.raw("]")?;
    }
    if let Some(metadata) = &result.metadata {
        sink.raw(",\"metadata\":")?;
        sink.value(metadata)?;
    }
    sink.raw("}")
}

/// One part, in the field order of its `Serialize` impl: `type`, then
/// `text` (when not empty) or `mimeType` and `data`/`url`, then `name`.
fn write_part<S: Sink>(part: &ContentPart, sink: &mut S) -> io::Result<()> {
    sink.raw("{\"type\":")?;
    sink.value(&part.kind)?;
    match &part.body {
        Body::Text(text) => {
            if !text.is_empty() {
                sink.raw(",\"text\":")?;
                sink.value(text)?;
            }
        }
        Body::Media { mime_type, source } => {
            sink.raw(",\"mimeType\":")?;
            sink.value(mime_type)?;
            match source {
                MediaSource::Data(bytes) => {
                    sink.raw(",\"data\":\"")?;
                    sink.base64(bytes)?;
                    sink.raw("\"")?;
                }
                MediaSource::Url(url) => {
                    sink.raw(",\"url\":")?;
                    sink.value(url)?;
                }
            }
        }
    }
    if let Some(name) = &part.name {
        sink.raw(",\"name\":")?;
        sink.value(name)?;
    }
    sink.raw("}")
}
