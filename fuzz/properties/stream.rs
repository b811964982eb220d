//! A provider's stream reader (`CallStream`) on arbitrary bytes (lossy
//! UTF-8), one event's data a line:
//!
//! - a stream read to its end gives an assembled message that the
//!   provider's `read_calls` reads; the calls given out while reading are,
//!   in order, the first calls of that message (an Anthropic input that
//!   never became JSON is given as its text and written
//!   `{"INVALID_JSON": text}`); when the stream finished, they are all of
//!   them, and they are the calls to run; otherwise none is to run;
//! - anything else is a `ReadCallsError` whose message starts with the
//!   reader's style and is at most [`LIMIT`](super::calls::LIMIT)
//!   characters long, given again by `finish`;
//! - events given as parsed values read as the same events given as text
//!   (but for a key written twice in an event, which only the text shows).

use serde_json::json;
use toolresult::provider::{Call, StreamEnd};
use toolresult::tool::Arguments;

use super::calls::LIMIT;
use super::providers::{self, Style};

/// How the style's stream errors begin.
fn prefix(style: Style) -> &'static str {
    match style {
        Style::OpenaiChat => "openai chat stream: ",
        Style::OpenaiResponses => "openai responses stream: ",
        Style::Anthropic => "anthropic stream: ",
        Style::Gemini => "gemini stream: ",
        Style::Mcp => "",
    }
}

/// Panics when the property breaks for `style` and `data`.
pub(super) fn check(style: Style, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let events: Vec<&str> = text.lines().collect();
    let Some(read) = providers::read_stream(style, &events, false) else {
        return;
    };
    match &read {
        Ok(read) => check_read(style, read),
        Err(err) => {
            let message = err.to_string();
            assert!(message.starts_with(prefix(style)), "{message}");
            assert!(
                message.chars().count() <= LIMIT,
                "{} characters",
                message.len()
            );
        }
    }
    if let Some(as_values) = providers::read_stream(style, &events, true) {
        match (&read, &as_values) {
            (Ok(text), Ok(values)) => assert_eq!(text, values, "text and values read apart"),
            (Err(_), Err(_)) => {}
            // A parsed value keeps one of a key written twice: only the
            // text can tell.
            (Err(err), Ok(_)) if err.to_string().contains("duplicate field") => {}
            _ => panic!("text {read:?} and values {as_values:?} disagree"),
        }
    }
}

fn check_read(style: Style, read: &providers::StreamRead) {
    let message = providers::read_calls(style, &read.message).unwrap_or_else(|err| {
        panic!(
            "the assembled message {} does not read: {err}",
            read.message
        )
    });
    let written: Vec<Call> = read.given.iter().map(|call| written(style, call)).collect();
    assert!(
        written.len() <= message.len() && message[..written.len()] == written[..],
        "given {:?}, the message holds {message:?}",
        read.given
    );
    if read.end == StreamEnd::Finished {
        assert_eq!(
            written.len(),
            message.len(),
            "a finished stream gives every call"
        );
        assert_eq!(read.calls, read.given, "a finished stream runs every call");
    } else {
        assert!(
            read.calls.is_empty(),
            "a stream ended by {:?} runs calls",
            read.end
        );
    }
}

/// A given call as its message writes it.
fn written(style: Style, call: &Call) -> Call {
    match (&call.arguments, style) {
        (Arguments::Text(text), Style::Anthropic) => Call::new(
            call.id.clone(),
            call.name.clone(),
            Arguments::Json(json!({"INVALID_JSON": text})),
        ),
        _ => call.clone(),
    }
}
