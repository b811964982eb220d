//! Reading the call of an MCP `tools/call` request.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, Visitor};
use serde_json::Value;

use crate::provider::calls::{self, Call, Object, ReadCallsError};
use crate::tool::Arguments;

const STYLE: &str = "mcp tools/call request";

pub(super) fn read_calls(request: &str) -> Result<Vec<Call>, ReadCallsError> {
    let request: Request<'_> = calls::parse_object(STYLE, "", request)?;
    if request.method != "tools/call" {
        return Err(calls::invalid(
            STYLE,
            "method".to_owned(),
            format!(
                "expected \"tools/call\", found {}",
                calls::quote(&request.method)
            ),
        ));
    }
    let RequestId(Some(id)) = request.id else {
        return Err(calls::invalid(STYLE, String::new(), "missing field `id`"));
    };
    let Some(Object(params)) = request.params else {
        return Err(calls::invalid(
            STYLE,
            String::new(),
            "missing field `params`",
        ));
    };
    let name = calls::required(
        STYLE,
        params.name,
        || "params".to_owned(),
        "name",
        "tool name",
    )?;
    let arguments = params
        .arguments
        .unwrap_or_else(|| Value::Object(Default::default()));
    Ok(vec![Call::new(id, name, Arguments::Json(arguments))])
}

/// A JSON-RPC request of any method: what a `tools/call` needs, optional so
/// that another method is reported as such.
#[derive(Deserialize)]
#[serde(expecting = "a JSON object")]
struct Request<'a> {
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(default)]
    id: RequestId,
    /// An object: a derived struct would also read `["add", {}]`, field
    /// by field.
    #[serde(default)]
    params: Option<Object<Params>>,
}

#[derive(Deserialize)]
#[serde(expecting = "a params object")]
struct Params {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Value>,
}

/// The call id of a JSON-RPC request whose id is a number: its decimal
/// digits, so that the number `7` and the string `"7"` name one call. A
/// string id is the call id as it is. Every MCP path (this reader, the
/// server) turns a request id into a call id here.
pub(crate) fn number_id(id: impl Into<i128>) -> String {
    id.into().to_string()
}

/// A JSON-RPC id as text; `None` when the request has none.
#[derive(Default)]
struct RequestId(Option<String>);

impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;

        impl Visitor<'_> for IdVisitor {
            type Value = RequestId;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a string or an integer")
            }

            fn visit_str<E: serde::de::Error>(self, id: &str) -> Result<Self::Value, E> {
                Ok(RequestId(Some(id.to_owned())))
            }

            fn visit_string<E: serde::de::Error>(self, id: String) -> Result<Self::Value, E> {
                Ok(RequestId(Some(id)))
            }

            fn visit_u64<E: serde::de::Error>(self, id: u64) -> Result<Self::Value, E> {
                Ok(RequestId(Some(number_id(id))))
            }

            fn visit_i64<E: serde::de::Error>(self, id: i64) -> Result<Self::Value, E> {
                Ok(RequestId(Some(number_id(id))))
            }
        }

        deserializer.deserialize_any(IdVisitor)
    }
}
