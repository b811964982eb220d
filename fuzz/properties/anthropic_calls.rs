//! The anthropic call reader on arbitrary bytes (lossy UTF-8): see
//! [`calls`](super::calls) for the property.

use super::providers::Style;

/// Panics when the property breaks for `data`.
pub fn check(data: &[u8]) {
    super::calls::check(Style::Anthropic, data);
}
