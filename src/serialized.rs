//! A value with its JSON, made once. An answer whose size is measured (the catch-up brief's
//! sessions, the brief itself for its receipt) keeps the JSON it was measured by and is
//! answered as that JSON, never serialised again; read back, it is the value again.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::ops::Deref;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

#[derive(Debug)]
pub struct Serialized<T> {
    value: T,
    json: Box<RawValue>,
}

impl<T: Serialize> Serialized<T> {
    pub fn new(value: T) -> serde_json::Result<Self> {
        let json = serde_json::value::to_raw_value(&value)?;
        Ok(Serialized { value, json })
    }
}

impl<T> Serialized<T> {
    /// The JSON, compact, as it is answered.
    pub fn json(&self) -> &str {
        self.json.get()
    }
}

impl<T> Deref for Serialized<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> Serialize for Serialized<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Serialized<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let json = Box::<RawValue>::deserialize(deserializer)?;
        let value = serde_json::from_str(json.get()).map_err(D::Error::custom)?;
        Ok(Serialized { value, json })
    }
}

/// Described as the value it holds.
impl<T: utoipa::ToSchema> utoipa::PartialSchema for Serialized<T> {
    fn schema() -> RefOr<Schema> {
        T::schema()
    }
}

impl<T: utoipa::ToSchema> utoipa::ToSchema for Serialized<T> {
    fn name() -> Cow<'static, str> {
        T::name()
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        T::schemas(schemas)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    struct Point {
        x: i32,
        label: String,
    }

    #[test]
    fn it_is_answered_as_the_json_it_was_measured_by_and_read_back_as_the_value() {
        let point = Serialized::new(Point {
            x: 3,
            label: "a \"b\"".into(),
        })
        .unwrap();
        assert_eq!(point.json(), r#"{"x":3,"label":"a \"b\""}"#);
        let outer = serde_json::to_string_pretty(&vec![&point]).unwrap();
        assert!(outer.contains(point.json()), "{outer}");
        let back: Vec<Serialized<Point>> = serde_json::from_str(&outer).unwrap();
        assert_eq!(back[0].x, 3);
        assert_eq!(back[0].json(), point.json());
    }
}
