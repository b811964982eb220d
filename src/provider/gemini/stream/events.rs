//! A Gemini stream's events as the reader reads them: only what the
//! content needs.

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::provider::stream::ErrorBody;

/// A `GenerateContentResponse`: only what the content needs.
#[derive(Deserialize)]
#[serde(expecting = "a generate content response object")]
pub(super) struct Response {
    #[serde(default)]
    pub(super) candidates: Vec<Candidate>,
    #[serde(rename = "promptFeedback", default)]
    pub(super) prompt_feedback: Option<PromptFeedback>,
    #[serde(default)]
    pub(super) error: Option<ErrorBody>,
}

#[derive(Deserialize)]
#[serde(expecting = "a candidate object")]
pub(super) struct Candidate {
    #[serde(default)]
    pub(super) index: Option<u64>,
    #[serde(default)]
    pub(super) content: Option<Content>,
    #[serde(rename = "finishReason", default)]
    pub(super) finish_reason: Option<String>,
}

#[derive(Deserialize)]
#[serde(expecting = "a content object")]
pub(super) struct Content {
    #[serde(default)]
    pub(super) parts: Option<Vec<Part0>>,
}

/// A part, kept whole.
#[derive(Deserialize)]
pub(super) struct Part0(pub(super) Map<String, Value>);

#[derive(Deserialize)]
pub(super) struct PromptFeedback {
    #[serde(rename = "blockReason", default)]
    pub(super) block_reason: Option<String>,
}
