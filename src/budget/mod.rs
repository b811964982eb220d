//! Output budgets: results that fit the model's context and stay valid.
//!
//! A tool that returns 2 MB of log, a 40,000-row query or a dozen
//! screenshots would fill the context and cost LLM tokens on every later
//! turn. A [`Budget`] caps what the model is handed: `output` in bytes or
//! LLM tokens ([`Tokenizer`]), parts by count and bytes. What is over is
//! cut so that it stays valid, and the whole is kept as an artifact the
//! model can read back:
//!
//! - text keeps its head and tail around one marker line;
//! - the JSON of a typed value is elided inside the JSON (the longest
//!   arrays and strings first), so it still parses; MCP's
//!   `structuredContent`, set when the value was lowered, is withheld here
//!   when the cut value no longer matches the tool's output schema;
//! - parts over budget are left out, each named by a line the model sees;
//! - the whole is kept in an [`ArtifactStore`] ([`MemoryStore`],
//!   [`FileStore`]) and referenced by an `artifact://` URL, and the
//!   [`ArtifactReader`](crate::tool::ArtifactReader) tool (`read_artifact`) reads it back in slices.
//!
//! A result within budget is returned untouched. The
//! [`Toolbox`](crate::toolbox::Toolbox) applies a budget per tool
//! ([`Toolbox::budget`](crate::toolbox::Toolbox::budget),
//! [`ToolOptions::budget`](crate::toolbox::ToolOptions::budget)); anything
//! else calls [`Budget::apply`].

mod apply;
mod artifact;
mod artifact_error;
mod artifact_id;
mod artifact_store;
// The file holds `Budget`, the module's namesake.
#[allow(clippy::module_inception)]
mod budget;
mod elide;
mod file_store;
mod json_string;
mod json_tree;
mod memory_store;
mod schema_rules;
mod text_cut;
mod tokenizer;

pub use artifact::Artifact;
pub use artifact_error::ArtifactError;
pub use artifact_id::ArtifactId;
pub use artifact_store::ArtifactStore;
pub use budget::Budget;
pub use file_store::FileStore;
pub use memory_store::MemoryStore;
pub use tokenizer::Tokenizer;

/// The scheme of an artifact's URL.
pub(crate) const ARTIFACT_SCHEME: &str = "artifact://";

/// The name of the tool that reads artifacts back
/// ([`ArtifactReader`](crate::tool::ArtifactReader)).
pub(crate) const READER_NAME: &str = "read_artifact";
