//! The anthropic stream reader on arbitrary bytes (lossy UTF-8), one event a
//! line: see [`stream`](super::stream) for the property.

use super::providers::Style;

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    super::stream::check(Style::Anthropic, data);
}
