//! Building a `serde_json::Value` whose objects and arrays hold exactly their members.
//!
//! serde_json's own `Value` grows each object and array as its members are read, and keeps
//! the room it grew to: an object of one member holds room for three, an array of one value
//! room for four. A catalog is mostly such small objects (a property, its `items`, its
//! `enum`), so a large catalog parsed that way holds a large share of empty room. Here each
//! container's members are first collected in a buffer that the thread reuses, and the
//! container is then made with room for exactly what it holds. The value is the one
//! `serde_json::from_str` builds (the same members in the same order; a key written twice
//! keeps its first place and its last value, and an object whose first key is serde_json's
//! raw-value token is read as the JSON text its value holds), and so are the errors, which come
//! from serde_json's reader.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::RefCell;

/// A buffer that grew beyond this many members is not kept for reuse.
const KEEP_UP_TO: usize = 256;

/// At most this many buffers of each kind are kept per thread (one per level of nesting
/// being read).
const KEEP_BUFFERS: usize = 32;

/// The key by which serde_json reads an object as a JSON text given in a string (what its
/// `RawValue` serializes to); its own `Value` honours it, and so does this one.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

thread_local! {
    /// Buffers for the objects being read on this thread, one per level being read.
    static MEMBERS: RefCell<Vec<Vec<(String, Value)>>> = const { RefCell::new(Vec::new()) };
    /// Buffers for the arrays being read on this thread.
    static ITEMS: RefCell<Vec<Vec<Value>>> = const { RefCell::new(Vec::new()) };
}

/// Parses `json` as `serde_json::from_str::<Value>` does, with every container at its size.
pub(crate) fn from_str(json: &str) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let value = Compact.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Reads one value, its containers at their size.
#[derive(Clone, Copy)]
struct Compact;

impl<'de> DeserializeSeed<'de> for Compact {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// A buffer from `pool`, empty.
fn take<T>(pool: &'static std::thread::LocalKey<RefCell<Vec<Vec<T>>>>) -> Vec<T> {
    pool.with(|p| p.borrow_mut().pop()).unwrap_or_default()
}

/// Gives `buffer` back to `pool`, emptied, unless it grew too large to keep.
fn give_back<T>(pool: &'static std::thread::LocalKey<RefCell<Vec<Vec<T>>>>, mut buffer: Vec<T>) {
    buffer.clear();
    if buffer.capacity() <= KEEP_UP_TO {
        pool.with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < KEEP_BUFFERS {
                p.push(buffer);
            }
        });
    }
}

impl<'de> Visitor<'de> for Compact {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut buffer = take(&ITEMS);
        let read = (|| {
            while let Some(item) = seq.next_element_seed(Compact)? {
                buffer.push(item);
            }
            Ok(())
        })();
        let items = read.map(|()| {
            let mut items = Vec::with_capacity(buffer.len());
            items.append(&mut buffer);
            items
        });
        give_back(&ITEMS, buffer);
        items.map(Value::Array)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let Some(first) = map.next_key::<String>()? else {
            return Ok(Value::Object(Map::new()));
        };
        if first == RAW_VALUE_TOKEN {
            let text = map.next_value_seed(RawText)?;
            return from_str(&text).map_err(serde::de::Error::custom);
        }
        let mut buffer = take(&MEMBERS);
        let read = (|| {
            let value = map.next_value_seed(Compact)?;
            buffer.push((first, value));
            while let Some(key) = map.next_key::<String>()? {
                let value = map.next_value_seed(Compact)?;
                buffer.push((key, value));
            }
            Ok(())
        })();
        let members = read.map(|()| {
            let mut members = Map::with_capacity(buffer.len());
            for (key, value) in buffer.drain(..) {
                members.insert(key, value);
            }
            members
        });
        give_back(&MEMBERS, buffer);
        members.map(Value::Object)
    }
}

/// The JSON text of a raw value, which serde_json writes as a string.
struct RawText;

impl<'de> DeserializeSeed<'de> for RawText {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for RawText {
    type Value = String;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("raw value")
    }

    fn visit_str<E>(self, text: &str) -> Result<String, E> {
        Ok(text.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::from_str;
    use serde_json::Value;

    #[test]
    fn builds_what_serde_json_builds() {
        for json in [
            r#"{"a": 1, "b": [1, 2.5, -3, "x", null, true, {}], "c": {"d": []}}"#,
            r#"{"a": 1, "b": 2, "a": 3}"#,
            r#"[18446744073709551615, -9223372036854775808, 1e300, "\u00e9\ud83d\ude00", "\\\""]"#,
            r#"  "text"  "#,
            "[[[[[]]]]]",
            "{}",
            r#"{"$serde_json::private::RawValue": "[1, {\"a\": 2}]"}"#,
            r#"{"x": {"$serde_json::private::RawValue": "7"}}"#,
        ] {
            let expected: Value = serde_json::from_str(json).unwrap();
            let built = from_str(json).unwrap();
            assert_eq!(built, expected, "{json}");
            assert_eq!(
                serde_json::to_string(&built).unwrap(),
                serde_json::to_string(&expected).unwrap()
            );
        }
    }

    #[test]
    fn holds_exactly_its_members() {
        let Value::Object(map) = from_str(r#"{"a": {"type": "string"}, "b": [1]}"#).unwrap() else {
            panic!("an object");
        };
        let Some(Value::Array(items)) = map.get("b") else {
            panic!("an array");
        };
        assert_eq!(items.capacity(), 1);
        let Some(Value::Object(inner)) = map.get("a") else {
            panic!("an object");
        };
        assert_eq!(inner.len(), 1);
    }

    #[test]
    fn fails_where_serde_json_fails() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for json in [
            "{\"a\": 1,}",
            "[1, 2",
            "{\"a\" 1}",
            "1e999",
            "\"\\udc00\"",
            "[1] x",
            r#"{"$serde_json::private::RawValue": 5}"#,
            r#"{"$serde_json::private::RawValue": "1", "x": 2}"#,
            r#"{"$serde_json::private::RawValue": "[1"}"#,
            deep.as_str(),
        ] {
            let expected = serde_json::from_str::<Value>(json).unwrap_err();
            let error = from_str(json).unwrap_err();
            assert_eq!(
                (error.line(), error.column(), error.to_string()),
                (expected.line(), expected.column(), expected.to_string()),
                "{json}"
            );
        }
    }
}
