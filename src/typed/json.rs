//! The model-facing JSON of a typed result.

use std::fmt;

use serde::Serialize;
use serde::ser::{self, Impossible};

/// The output of a result whose value or error could not be serialised.
pub(crate) const SERIALISE_FAILED_OUTPUT: &str =
    r#"{"error":{"message":"the tool's result could not be serialised to JSON"}}"#;

/// The `output` of a success, and whether it is JSON (a value that is not a
/// string) or text.
pub(crate) struct SuccessOutput {
    pub(crate) output: String,
    pub(crate) is_json: bool,
}

/// The JSON of a success value; a value that serialises to a JSON string
/// becomes that string, unquoted, taken as it is (never escaped to JSON and
/// read back).
pub(crate) fn success_output<T: Serialize + ?Sized>(
    value: &T,
) -> serde_json::Result<SuccessOutput> {
    if let Ok(text) = value.serialize(StringProbe) {
        return Ok(SuccessOutput {
            output: text,
            is_json: false,
        });
    }
    let json = serde_json::to_string(value)?;
    if json.starts_with('"') {
        // A `Serialize` that wrote a string by a route the probe does not
        // follow (a raw JSON value, say): read the string back.
        return Ok(SuccessOutput {
            output: serde_json::from_str(&json)?,
            is_json: false,
        });
    }
    Ok(SuccessOutput {
        output: json,
        is_json: true,
    })
}

/// `{"error": error}`, serialised from a borrowed wrapper.
pub(crate) fn failure_output<E: Serialize + ?Sized>(error: &E) -> serde_json::Result<String> {
    #[derive(Serialize)]
    struct Envelope<'a, E: ?Sized> {
        error: &'a E,
    }
    serde_json::to_string(&Envelope { error })
}

/// The probe's refusal: the value is not a JSON string. It carries nothing,
/// so refusing costs nothing.
#[derive(Debug)]
struct NotAString;

impl fmt::Display for NotAString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a string")
    }
}

impl std::error::Error for NotAString {}

impl ser::Error for NotAString {
    fn custom<M: fmt::Display>(_: M) -> Self {
        NotAString
    }
}

/// A serializer that accepts exactly what `serde_json` writes as a JSON
/// string (a `str`, a `char`, a unit variant, and those inside `Some` or a
/// newtype) and refuses everything else at its first call.
struct StringProbe;

macro_rules! refuse {
    ($($method:ident($($arg:ty),*)),* $(,)?) => {$(
        fn $method(self, $(_: $arg),*) -> Result<String, NotAString> {
            Err(NotAString)
        }
    )*};
}

impl ser::Serializer for StringProbe {
    type Ok = String;
    type Error = NotAString;
    type SerializeSeq = Impossible<String, NotAString>;
    type SerializeTuple = Impossible<String, NotAString>;
    type SerializeTupleStruct = Impossible<String, NotAString>;
    type SerializeTupleVariant = Impossible<String, NotAString>;
    type SerializeMap = Impossible<String, NotAString>;
    type SerializeStruct = Impossible<String, NotAString>;
    type SerializeStructVariant = Impossible<String, NotAString>;

    fn serialize_str(self, text: &str) -> Result<String, NotAString> {
        Ok(text.to_owned())
    }

    fn serialize_char(self, c: char) -> Result<String, NotAString> {
        Ok(c.to_string())
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, NotAString> {
        Ok(variant.to_owned())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String, NotAString> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, NotAString> {
        value.serialize(self)
    }

    refuse! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_i128(i128), serialize_u8(u8), serialize_u16(u16),
        serialize_u32(u32), serialize_u64(u64), serialize_u128(u128), serialize_f32(f32),
        serialize_f64(f64), serialize_bytes(&[u8]), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str),
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, NotAString> {
        Err(NotAString)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotAString> {
        Err(NotAString)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotAString> {
        Err(NotAString)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotAString> {
        Err(NotAString)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotAString> {
        Err(NotAString)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotAString> {
        Err(NotAString)
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, NotAString> {
        Err(NotAString)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotAString> {
        Err(NotAString)
    }
}
