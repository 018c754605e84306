//! Parsing a document into a `serde_json::Value`, on the machine's cores when it is large.
//!
//! A large document's outer container is first read through without building its members,
//! which checks all of its syntax as one parse would and finds where each member lies (a
//! large member is read the same way, for its own members); the members are then built on
//! the cores and put together in their order. The value is the one `serde_json::from_str` builds: members in the order
//! written, and a key written twice keeps its first place and its last value.

use crate::catalog::compact;
use crate::parallel::map_pieces;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// Containers this large or larger are split into their members.
const SPLIT_FROM: usize = 1 << 20;

/// Members per core below which a container's members are built on one thread.
const LEAST_MEMBERS: usize = 64;

/// A parse error and where it is in the whole document.
#[derive(Debug)]
pub(crate) struct ParseError {
    /// What serde_json said.
    pub error: serde_json::Error,
    /// The line of the error, from 1.
    pub line: usize,
    /// The column of the error, in bytes as serde_json counts it (0 at the very end).
    pub column: usize,
}

impl ParseError {
    /// `error`, found in the part of `text` that starts at byte `start`.
    fn at(text: &str, start: usize, error: serde_json::Error) -> ParseError {
        let before = text.get(..start).unwrap_or_default();
        let lines_before = before.bytes().filter(|&b| b == b'\n').count();
        let (line, column) = if error.line() <= 1 {
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            (lines_before + 1, start - line_start + error.column())
        } else {
            (lines_before + error.line(), error.column())
        };
        ParseError {
            error,
            line,
            column,
        }
    }
}

/// Parses `text` into a value, as `serde_json::from_str` does.
pub(crate) fn parse(text: &str) -> Result<Value, ParseError> {
    if text.len() < SPLIT_FROM {
        return compact::from_str(text).map_err(|e| ParseError::at(text, 0, e));
    }
    // No reading of the whole document first: splitting a container reads all of its syntax
    // as that reading would, and finds the same first error at the same place.
    build(text, text.trim_start_matches(JSON_SPACE), true)
}

/// What JSON reads as white space between values.
const JSON_SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// Where `part` (a slice of `text`) starts in it.
fn start_of(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

/// Builds the value of `json`, a part of `text` from the start of a value to the end of
/// `text` or of that value; when `split`, a large container is split into its members (see
/// [`build_all`]).
fn build(text: &str, json: &str, split: bool) -> Result<Value, ParseError> {
    let start = start_of(text, json);
    let whole = || compact::from_str(json).map_err(|e| ParseError::at(text, start, e));
    if !split || json.len() < SPLIT_FROM {
        return whole();
    }
    match json.as_bytes().first() {
        Some(b'[') => {
            let items: Vec<&RawValue> =
                serde_json::from_str(json).map_err(|e| ParseError::at(text, start, e))?;
            let built = build_all(text, &items)?;
            Ok(Value::Array(built))
        }
        Some(b'{') => {
            let Members(members) =
                serde_json::from_str(json).map_err(|e| ParseError::at(text, start, e))?;
            let values: Vec<&RawValue> = members.iter().map(|(_, raw)| *raw).collect();
            let built = build_all(text, &values)?;
            let mut map = Map::new();
            for ((key, _), value) in members.into_iter().zip(built) {
                map.insert(key, value);
            }
            Ok(Value::Object(map))
        }
        _ => whole(),
    }
}

/// Builds every member, in order; the first error in the document if any. Many members are
/// built on the cores, and not split again; a few are built one by one, each split if large
/// (`{"tools": [...]}` is split at its array).
fn build_all(text: &str, members: &[&RawValue]) -> Result<Vec<Value>, ParseError> {
    if members.len() < 2 * LEAST_MEMBERS {
        return members
            .iter()
            .map(|raw| build(text, raw.get(), true))
            .collect();
    }
    let mut built = Vec::with_capacity(members.len());
    let pieces = map_pieces(members, LEAST_MEMBERS, |piece| {
        piece
            .iter()
            .map(|raw| build(text, raw.get(), false))
            .collect::<Result<Vec<_>, _>>()
    });
    for piece in pieces {
        built.extend(piece?);
    }
    Ok(built)
}

/// An object's members, each value left as written, in the order written (a key written
/// twice appears twice).
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Collect;
        impl<'de> Visitor<'de> for Collect {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, &'de RawValue>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(Collect)
    }
}

#[cfg(test)]
mod tests {
    use super::{SPLIT_FROM, parse};
    use serde_json::{Value, json};

    /// A document over the size that is split, with members of every kind, keys written
    /// twice, escapes and text outside ASCII.
    fn large() -> String {
        let tool = |i: usize| {
            json!({"name": format!("tool_{i}"), "description": "Gets \"x\" — é\n東京",
                   "inputSchema": {"type": "object", "properties": {"n": {"type": "number",
                   "default": 1.5e300, "enum": [0.1, -0, 18446744073709551615u64]}}}})
        };
        let tools: Vec<Value> = (0..SPLIT_FROM / 100).map(tool).collect();
        let tools = serde_json::to_string_pretty(&tools).unwrap();
        format!(
            "{{\"tools\": {tools}, \"nextCursor\": null, \"tools\": {tools}, \"z\": [1, {{\"a\": 2, \"a\": 3}}]}}"
        )
    }

    #[test]
    fn builds_the_value_one_parse_builds() {
        let text = large();
        assert!(text.len() > 2 * SPLIT_FROM);
        let expected: Value = serde_json::from_str(&text).unwrap();
        let built = parse(&text).unwrap();
        assert_eq!(built, expected);
        // The same order of keys, too.
        assert_eq!(
            serde_json::to_string(&built).unwrap(),
            serde_json::to_string(&expected).unwrap()
        );
        let array = format!("[{text}, {text}]");
        assert_eq!(
            parse(&array).unwrap(),
            serde_json::from_str::<Value>(&array).unwrap()
        );
    }

    #[test]
    fn an_error_is_placed_where_one_parse_places_it() {
        let text = large();
        // A syntax error, found by the first reading; a number out of range and a lone
        // surrogate, found only when a member is built.
        let placed_as_one_parse = |broken: &str| {
            let expected = serde_json::from_str::<Value>(broken).unwrap_err();
            let error = parse(broken).unwrap_err();
            assert_eq!(
                (error.line, error.column, error.error.classify()),
                (expected.line(), expected.column(), expected.classify()),
                "{error:?} against {expected}"
            );
        };
        let cut = text.len() / 2 + text[text.len() / 2..].find("\"name\"").unwrap();
        for bad in [
            "\"name\" \"x\",",
            "\"name\": 1e999, \"x\"",
            "\"name\": \"\\udc00\", \"x\"",
        ] {
            placed_as_one_parse(&format!("{}{}{}", &text[..cut], bad, &text[cut + 6..]));
        }
        // A lone surrogate in a key of the outer object comes before a syntax error further
        // on: one parse stops at the key.
        placed_as_one_parse(&format!("{{\"\\udc00\": 1, {}", &text[1..text.len() / 2]));
        let first_line = format!("{{\"tools\": [1e999{}]}}", " ".repeat(SPLIT_FROM));
        let expected = serde_json::from_str::<Value>(&first_line).unwrap_err();
        let error = parse(&first_line).unwrap_err();
        assert_eq!(
            (error.line, error.column),
            (expected.line(), expected.column())
        );
    }
}
