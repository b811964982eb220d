//! Reading a wire type from a JSON object only.
//!
//! A derived `Deserialize` also reads a struct from a JSON array, field by
//! field in order, so `[]` would read as an empty result and `["done", true]`
//! as a failure. The contract's types are objects; these helpers refuse
//! anything else, with serde_json's position as usual.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserializer;
use serde::de::{MapAccess, Visitor};

/// A type read from the entries of a JSON object.
pub(crate) trait FromObject<'de>: Sized {
    /// What the type is called in an error: "a tool result object".
    const EXPECTING: &'static str;

    /// Reads the type from the object's entries.
    fn from_object<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// Deserialises `T` from a JSON object, refusing arrays and scalars.
pub(crate) fn deserialize<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromObject<'de>,
{
    struct ObjectVisitor<T>(PhantomData<T>);

    impl<'de, T: FromObject<'de>> Visitor<'de> for ObjectVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::from_object(map)
        }
    }

    deserializer.deserialize_map(ObjectVisitor(PhantomData))
}
