//! One event's data, read into a dialect's event type with the errors
//! `read_calls` gives.

use serde::Deserialize;
use serde_json::Value;

use crate::canonical::shorten;
use crate::provider::ReadCallsError;
use crate::provider::calls::{self, Object};

/// An event's data, as text or as a parsed value: a reader may read it
/// more than once, into a lean type first.
pub(crate) trait Data<'de>: Copy {
    /// The event read into `T`, with the errors `read_calls` gives.
    fn parse<T: Deserialize<'de>>(self, style: &'static str) -> Result<T, ReadCallsError>;
}

impl<'de> Data<'de> for &'de str {
    fn parse<T: Deserialize<'de>>(self, style: &'static str) -> Result<T, ReadCallsError> {
        from_text(style, self)
    }
}

impl<'de> Data<'de> for &'de Value {
    fn parse<T: Deserialize<'de>>(self, style: &'static str) -> Result<T, ReadCallsError> {
        from_value(style, self)
    }
}

/// An event given as text: read as `read_calls` reads a message.
pub(crate) fn from_text<'de, T: Deserialize<'de>>(
    style: &'static str,
    event: &'de str,
) -> Result<T, ReadCallsError> {
    calls::parse_object(style, "", event)
}

/// An event given as a value: read once; only a bad one is read again,
/// tracking the path, to say where it went wrong.
pub(crate) fn from_value<'de, T: Deserialize<'de>>(
    style: &'static str,
    event: &'de Value,
) -> Result<T, ReadCallsError> {
    if let Ok(Object(read)) = Object::<T>::deserialize(event) {
        return Ok(read);
    }
    serde_path_to_error::deserialize::<_, Object<T>>(event)
        .map(|Object(read)| read)
        .map_err(|err| {
            let path = match err.path().to_string() {
                root if root == "." => String::new(),
                path => path,
            };
            calls::from_serde(style, path, err.into_inner())
        })
}

/// An error a provider sends in its stream, `{"message": ..}` (inside
/// `error`): its message, cut to 64 characters.
#[derive(Deserialize, Default)]
pub(crate) struct ErrorBody {
    #[serde(default)]
    message: Option<Value>,
}

impl ErrorBody {
    /// An error whose message came on its own (Responses' `error` event).
    pub(crate) fn from_message(message: Option<Value>) -> Self {
        Self { message }
    }

    pub(crate) fn message(&self) -> String {
        match &self.message {
            Some(Value::String(text)) => shorten(text),
            Some(other) => shorten(&other.to_string()),
            None => String::new(),
        }
    }
}
