//! JSON plumbing every layer shares: JSON pointers (RFC 6901) built and read one reference
//! token at a time, and the name of a value's JSON type for messages.

use serde_json::Value;
use std::borrow::Cow;

/// Escapes one reference token for a JSON pointer (RFC 6901): `~` becomes `~0`, `/` becomes
/// `~1`.
pub fn escape_token(token: &str) -> String {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_owned()
    }
}

/// Reads one reference token of a JSON pointer back (RFC 6901): `~1` becomes `/`, then `~0`
/// becomes `~`. Borrows the token when there is nothing to unescape.
pub fn unescape_token(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// `base` followed by one more reference token.
pub fn child_pointer(base: &str, token: &str) -> String {
    let mut out = String::with_capacity(base.len() + token.len() + 1);
    out.push_str(base);
    push_token(&mut out, token);
    out
}

/// Appends `/` and `token`, escaped as a reference token of a JSON pointer (RFC 6901), to
/// `out`, without building the escaped token on its own.
pub(crate) fn push_token(out: &mut String, token: &str) {
    out.push('/');
    if token.contains(['~', '/']) {
        for c in token.chars() {
            match c {
                '~' => out.push_str("~0"),
                '/' => out.push_str("~1"),
                c => out.push(c),
            }
        }
    } else {
        out.push_str(token);
    }
}

/// The value at `pointer` in `root` (RFC 6901), as [`Value::pointer`] finds it, reading each
/// token in place where it has nothing to unescape rather than copying it.
pub(crate) fn at_pointer<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    pointer
        .strip_prefix('/')?
        .split('/')
        .try_fold(root, |node, token| match node {
            Value::Object(map) => map.get(unescape_token(token).as_ref()),
            Value::Array(items) => array_index(token).and_then(|i| items.get(i)),
            _ => None,
        })
}

/// An array index token of a JSON pointer: digits without a sign or a leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

/// The JSON type of a value, in JSON Schema's words (an integral number is an `integer`).
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Writes `value` into `out` as compact JSON, byte for byte as `serde_json` writes it, except
/// for the value at `pointer` inside it, which is left out: returns the offset in `out` where
/// that value's JSON belongs, or `None` (having written the whole value) when `pointer` names
/// nothing in `value`. For a reader that has the inner value already and wants the text
/// around it, without writing the inner value again.
pub fn write_around(value: &Value, pointer: &str, out: &mut Vec<u8>) -> Option<usize> {
    match value.pointer(pointer) {
        Some(inner) => write_without(value, inner, out),
        None => {
            write_without(value, &Value::Null, out);
            None
        }
    }
}

/// Writes `value` as compact JSON, but for `hole`, a value inside it found by its address:
/// returns where `hole` would have been.
fn write_without(value: &Value, hole: &Value, out: &mut Vec<u8>) -> Option<usize> {
    if std::ptr::eq(value, hole) {
        return Some(out.len());
    }
    let mut at = None;
    match value {
        Value::Object(map) => {
            out.push(b'{');
            for (k, (key, value)) in map.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                // Writing to a Vec cannot fail, nor can writing a string or a number.
                let _ = serde_json::to_writer(&mut *out, key);
                out.push(b':');
                at = at.or(write_without(value, hole, out));
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                at = at.or(write_without(item, hole, out));
            }
            out.push(b']');
        }
        other => {
            let _ = serde_json::to_writer(&mut *out, other);
        }
    }
    at
}

/// A JSON type with its article, for messages: "an array", "a string".
pub(crate) fn a_type(value: &Value) -> String {
    let name = json_type(value);
    let article = if matches!(name, "array" | "integer" | "object") {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_escape_and_unescape_back() {
        for token in ["plain", "a/b", "x~y", "~1", "/~0/", ""] {
            assert_eq!(unescape_token(&escape_token(token)), token);
        }
        assert_eq!(child_pointer("/properties", "a/b~c"), "/properties/a~1b~0c");
        assert_eq!(unescape_token("~01"), "~1");
    }

    #[test]
    fn the_text_around_an_inner_value_is_serde_jsons_without_it() {
        let value = serde_json::json!({
            "name": "a \"b\" é",
            "function": {"parameters": {"type": "object", "n": [1, 2.5, null]}, "strict": true},
            "tail": [{"x": "y"}]
        });
        let whole = serde_json::to_string(&value).unwrap();
        for pointer in [
            "",
            "/name",
            "/function/parameters",
            "/function/parameters/n/1",
            "/tail/0",
        ] {
            let mut out = Vec::new();
            let at = write_around(&value, pointer, &mut out).unwrap();
            let inner = serde_json::to_string(value.pointer(pointer).unwrap()).unwrap();
            let mut joined = out[..at].to_vec();
            joined.extend_from_slice(inner.as_bytes());
            joined.extend_from_slice(&out[at..]);
            assert_eq!(String::from_utf8(joined).unwrap(), whole, "{pointer}");
        }
        let mut out = Vec::new();
        assert_eq!(write_around(&value, "/nothing", &mut out), None);
        assert_eq!(out, whole.as_bytes());
    }
}
