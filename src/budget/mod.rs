//! Output budgets: results that fit the model's context and stay valid.
//!
//! A tool that returns 2 MB of log, a 40,000-row query or a dozen
//! screenshots would fill the context and cost tokens on every later turn.
//! A [`Budget`] caps what the model is handed: `output` in bytes or tokens
//! ([`Tokenizer`]), parts by count and bytes. What is over is cut so that
//! it stays valid, and the whole is kept as an artifact the model can read
//! back:
//!
//! - text keeps its head and tail around one marker line;
//! - the JSON of a typed value is elided inside the JSON (the longest
//!   arrays and strings first), so it still parses, and MCP's
//!   `structuredContent` is sent only when the cut value still matches the
//!   tool's output schema;
//! - parts over budget are left out, each named by a line the model sees;
//! - the whole is kept in an [`ArtifactStore`] ([`MemoryStore`],
//!   [`FileStore`]) and referenced by an `artifact://` URL, and the
//!   [`ArtifactReader`] tool (`read_artifact`) reads it back in slices.
//!
//! A result within budget is returned untouched. The
//! [`Toolbox`](crate::toolbox::Toolbox) applies a budget per tool
//! ([`Toolbox::budget`](crate::toolbox::Toolbox::budget),
//! [`ToolOptions::budget`](crate::toolbox::ToolOptions::budget)); anything
//! else calls [`Budget::apply`].

mod apply;
mod artifact;
mod elide;
mod json_tree;
mod limits;
mod reader;
mod schema_rules;
mod text;
mod tokens;

pub use artifact::{
    Artifact, ArtifactError, ArtifactId, ArtifactStore, FileStore, IdProblem, MemoryStore,
};
pub use limits::Budget;
pub use reader::ArtifactReader;
pub use tokens::Tokenizer;

/// The scheme of an artifact's URL.
pub(crate) const ARTIFACT_SCHEME: &str = "artifact://";

/// The name of the tool that reads artifacts back.
const READER_NAME: &str = ArtifactReader::NAME;
