//! Conversions between the canonical result and `toolnexus::ToolResult`.
//!
//! The two share the wire form, so a Toolnexus result converts part by
//! part through it: every part is checked against the contract on the way
//! in, and a part that breaks it is an error that names it.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;

use crate::canonical::{ContentPart, ToolResult};

use super::ConvertError;

impl From<&ContentPart> for toolnexus::tool::ContentPart {
    fn from(part: &ContentPart) -> Self {
        Self {
            kind: part.kind().as_str().to_owned(),
            text: part.as_text().unwrap_or_default().to_owned(),
            mime_type: part.mime_type().unwrap_or_default().to_owned(),
            data: part.data().map(|d| STANDARD.encode(d)).unwrap_or_default(),
            url: part.url().unwrap_or_default().to_owned(),
            name: part.name().unwrap_or_default().to_owned(),
        }
    }
}

impl From<&ToolResult> for toolnexus::ToolResult {
    fn from(result: &ToolResult) -> Self {
        Self {
            output: result.output.clone(),
            is_error: result.is_error,
            parts: result.parts.iter().map(Into::into).collect(),
            metadata: result.metadata.clone(),
        }
    }
}

impl From<ToolResult> for toolnexus::ToolResult {
    fn from(result: ToolResult) -> Self {
        Self {
            parts: result.parts.iter().map(Into::into).collect(),
            output: result.output,
            is_error: result.is_error,
            metadata: result.metadata,
        }
    }
}

impl TryFrom<&toolnexus::tool::ContentPart> for ContentPart {
    type Error = ConvertError;

    fn try_from(part: &toolnexus::tool::ContentPart) -> Result<Self, Self::Error> {
        let at = || "the part".to_owned();
        let value = serde_json::to_value(part).map_err(|source| ConvertError::Encode {
            what: "toolnexus content part",
            source,
        })?;
        ContentPart::deserialize(&value)
            .map_err(|source| ConvertError::InvalidPart { at: at(), source })
    }
}

impl TryFrom<&toolnexus::ToolResult> for ToolResult {
    type Error = ConvertError;

    fn try_from(result: &toolnexus::ToolResult) -> Result<Self, Self::Error> {
        let parts = result
            .parts
            .iter()
            .enumerate()
            .map(|(index, part)| {
                ContentPart::try_from(part).map_err(|err| match err {
                    ConvertError::InvalidPart { source, .. } => ConvertError::InvalidPart {
                        at: format!("parts[{index}]"),
                        source,
                    },
                    other => other,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            output: result.output.clone(),
            is_error: result.is_error,
            parts,
            metadata: result.metadata.clone(),
        })
    }
}

impl TryFrom<toolnexus::ToolResult> for ToolResult {
    type Error = ConvertError;

    fn try_from(result: toolnexus::ToolResult) -> Result<Self, Self::Error> {
        Self::try_from(&result)
    }
}
