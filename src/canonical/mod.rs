//! The canonical result of the Toolnexus shared contract: what transcripts,
//! provider requests and MCP carry.
//!
//! - [`ToolResult`] (SPEC §1): `{output, isError, parts?, metadata?}`.
//! - [`ContentPart`] (SPEC §1B): text, image, file or audio, built only
//!   through constructors that check the contract (a file's mime type from
//!   a fixed extension table, see [`ContentPart::from_path`]); [`PartLimit`]
//!   is the size limit.
//! - [`Request`] and [`Answer`] (SPEC §10): the suspension handshake.
//! - [`ToolResult::from_path`]: the built-in `read` of a path.
//!
//! Whatever reads a file or a reader takes a [`PartLimit`] as an argument,
//! so no read is larger than its caller allows; a parse uses the default
//! limit unless it is handed another.
//!
//! ```
//! use toolresult::canonical::{ContentPart, PartLimit, Request, ToolResult};
//!
//! let png = ContentPart::from_path("tests/fixtures/fixture.png", PartLimit::default())?;
//! let shot = ToolResult::ok(png.describe()).with_parts([png]);
//! assert_eq!(shot.output, "image (image/png, 82 bytes)");
//!
//! let parked = ToolResult::pending(Request::input("Which environment?"));
//! let json = serde_json::to_string(&parked)?;
//! let back: ToolResult = serde_json::from_str(&json)?;
//! assert_eq!(back.pending_request().unwrap().prompt, "Which environment?");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod base64_data;
mod bounded_read;
mod media_type;
mod object_only;
mod part;
mod part_constructors;
mod part_error;
mod part_kind;
mod part_limit;
mod part_serde;
mod part_validation;
mod pending;
mod read;
mod result;
mod write_json;

pub(crate) use media_type::MediaType;
pub use part::ContentPart;
pub(crate) use part::MediaSource;
pub use part_error::PartError;
pub use part_kind::PartKind;
pub use part_limit::PartLimit;
#[cfg(any(all(feature = "toolbox", feature = "seal"), feature = "mcp-client"))]
pub(crate) use pending::SEAL;
#[cfg(feature = "toolbox")]
pub(crate) use pending::{ALWAYS, ARGUMENTS};
pub use pending::{Answer, Request};
pub use result::ToolResult;

pub(crate) use base64_data::Base64;
pub(crate) use bounded_read::open_without_blocking;
pub(crate) use part_error::{clip_echoes, shorten};
pub(crate) use part_serde::{WireSource, media_part_from_wire};
pub(crate) use result::estimate_text_tokens;
