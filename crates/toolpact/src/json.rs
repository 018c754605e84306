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
    out.push('/');
    out.push_str(&escape_token(token));
    out
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
}
