//! JSON Schema plumbing shared by the providers and the registry: local `$ref`
//! resolution, the keywords that hold subschemas, dialects, and the text a constraint becomes
//! when a target cannot carry it.

use crate::json::{at_pointer, child_pointer, push_token};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt::Write as _;

/// How deep a schema may nest before toolpact refuses it. Deeper schemas are not useful to a
/// model and are a denial-of-service risk (MCP 2026-07-28 asks implementations to bound depth).
pub const MAX_DEPTH: usize = 128;

/// Keywords whose value is a map from names to subschemas.
pub const MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is an array of subschemas.
pub const ARRAY_KEYWORDS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// Keywords whose value is one subschema (`items` may also be an array, in drafts before 2020-12).
pub const SINGLE_KEYWORDS: &[&str] = &[
    "items",
    "additionalProperties",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
];

/// Calls `f` with every direct subschema of `node` and its pointer (`pointer` is the node's
/// own).
pub fn for_each_subschema<'v>(
    node: &'v Value,
    pointer: &str,
    f: &mut dyn FnMut(&'v Value, String),
) {
    let Some(obj) = node.as_object() else { return };
    for (key, value) in obj {
        let key = key.as_str();
        if MAP_KEYWORDS.contains(&key) {
            if let Some(map) = value.as_object() {
                let base = child_pointer(pointer, key);
                for (name, sub) in map {
                    f(sub, child_pointer(&base, name));
                }
            }
        } else if ARRAY_KEYWORDS.contains(&key) || (key == "items" && value.is_array()) {
            if let Some(items) = value.as_array() {
                let base = child_pointer(pointer, key);
                for (i, sub) in items.iter().enumerate() {
                    f(sub, child_pointer(&base, &i.to_string()));
                }
            }
        } else if SINGLE_KEYWORDS.contains(&key) {
            f(value, child_pointer(pointer, key));
        }
    }
}

/// Calls `visit` with every schema object of `schema` (the root and each subschema below it,
/// each before its own subschemas) and its JSON pointer relative to `schema`, down to
/// [`MAX_DEPTH`]. The pointer is kept in one buffer as the walk goes, growing only for the
/// keywords it enters.
pub(crate) fn for_each_schema_object(
    schema: &Value,
    visit: &mut dyn FnMut(&Map<String, Value>, &str),
) {
    fn walk(
        node: &Value,
        pointer: &mut String,
        depth: usize,
        visit: &mut dyn FnMut(&Map<String, Value>, &str),
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let Value::Object(map) = node else { return };
        visit(map, pointer);
        let len = pointer.len();
        for (key, value) in map {
            match (key.as_str(), value) {
                (k, Value::Object(children)) if MAP_KEYWORDS.contains(&k) => {
                    push_token(pointer, key);
                    for (name, child) in children {
                        let at = pointer.len();
                        push_token(pointer, name);
                        walk(child, pointer, depth + 1, visit);
                        pointer.truncate(at);
                    }
                }
                (k, Value::Array(children)) if ARRAY_KEYWORDS.contains(&k) || k == "items" => {
                    push_token(pointer, key);
                    for (i, child) in children.iter().enumerate() {
                        let at = pointer.len();
                        // Writing to a String cannot fail.
                        let _ = write!(pointer, "/{i}");
                        walk(child, pointer, depth + 1, visit);
                        pointer.truncate(at);
                    }
                }
                (k, _) if SINGLE_KEYWORDS.contains(&k) => {
                    push_token(pointer, key);
                    walk(value, pointer, depth + 1, visit);
                }
                _ => {}
            }
            pointer.truncate(len);
        }
    }
    walk(schema, &mut String::new(), 0, visit);
}

/// Whether a `$ref` points inside the same document (`#`, `#/…` or `#anchor`).
pub fn is_local_ref(reference: &str) -> bool {
    reference.starts_with('#')
}

/// Calls `found` with the JSON pointer (relative to `schema`) and the text of every `$ref`
/// that is not local to the schema: a reference no model can follow and no registry fetches.
/// Walks every object and array of the schema, down to [`MAX_DEPTH`]; builds a pointer only
/// for what it finds.
pub(crate) fn for_each_remote_ref(schema: &Value, found: &mut dyn FnMut(String, &str)) {
    enum Step<'v> {
        Key(&'v str),
        Index(usize),
    }
    fn walk<'v>(
        node: &'v Value,
        path: &mut Vec<Step<'v>>,
        depth: usize,
        found: &mut dyn FnMut(String, &str),
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        fn descend<'v>(
            step: Step<'v>,
            child: &'v Value,
            path: &mut Vec<Step<'v>>,
            depth: usize,
            found: &mut dyn FnMut(String, &str),
        ) {
            if child.is_object() || child.is_array() {
                path.push(step);
                walk(child, path, depth + 1, found);
                path.pop();
            }
        }
        match node {
            Value::Object(map) => {
                // A scan of the keys, which the walk reads anyway, costs less than hashing
                // "$ref" to look it up.
                if let Some((_, Value::String(reference))) = map.iter().find(|(k, _)| *k == "$ref")
                    && !is_local_ref(reference)
                {
                    let mut pointer = String::new();
                    for step in path.iter() {
                        pointer = match step {
                            Step::Key(key) => child_pointer(&pointer, key),
                            Step::Index(i) => child_pointer(&pointer, &i.to_string()),
                        };
                    }
                    found(child_pointer(&pointer, "$ref"), reference);
                }
                for (key, value) in map {
                    descend(Step::Key(key), value, path, depth, found);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    descend(Step::Index(i), item, path, depth, found);
                }
            }
            _ => {}
        }
    }
    walk(schema, &mut Vec::new(), 0, found);
}

/// Resolves a local `$ref` against `root`: `#`, a JSON-pointer fragment (`#/$defs/Address`,
/// percent-decoded) or a plain-name fragment matching an `$anchor`.
pub fn resolve_local_ref<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
    let fragment = reference.strip_prefix('#')?;
    if fragment.is_empty() {
        return Some(root);
    }
    if fragment.starts_with('/') {
        return at_pointer(root, &percent_decode(fragment));
    }
    find_anchor(root, fragment, 0)
}

fn find_anchor<'v>(node: &'v Value, anchor: &str, depth: usize) -> Option<&'v Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    if node.get("$anchor").and_then(Value::as_str) == Some(anchor) {
        return Some(node);
    }
    let mut found = None;
    for_each_subschema(node, "", &mut |sub, _| {
        if found.is_none() {
            found = find_anchor(sub, anchor, depth + 1);
        }
    });
    found
}

fn percent_decode(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// Every `$ref` and `$dynamicRef` in `schema`, with the pointer of the keyword, in document
/// order.
pub fn refs(schema: &Value) -> Vec<(String, String)> {
    fn walk(node: &Value, pointer: String, depth: usize, out: &mut Vec<(String, String)>) {
        if depth > MAX_DEPTH {
            return;
        }
        for key in ["$ref", "$dynamicRef"] {
            if let Some(reference) = node.get(key).and_then(Value::as_str) {
                out.push((child_pointer(&pointer, key), reference.to_owned()));
            }
        }
        for_each_subschema(node, &pointer, &mut |sub, p| walk(sub, p, depth + 1, out));
    }
    let mut out = Vec::new();
    walk(schema, String::new(), 0, &mut out);
    out
}

/// How deeply `schema` nests, counting only subschemas; stops counting past [`MAX_DEPTH`].
pub fn depth(schema: &Value) -> usize {
    fn walk(node: &Value, d: usize) -> usize {
        if d > MAX_DEPTH {
            return d;
        }
        let mut max = d;
        for_each_subschema(node, "", &mut |sub, _| max = max.max(walk(sub, d + 1)));
        max
    }
    walk(schema, 0)
}

/// Whether `schema` declares `type: "object"` (alone, or in a type array).
pub fn is_object_schema(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        _ => false,
    }
}

/// The short phrase a constraint becomes when it is moved into a description, so that the
/// model still reads it: `minimum: 1` → `at least 1`.
pub fn constraint_phrase(keyword: &str, value: &Value) -> String {
    let v = compact(value);
    match (keyword, value) {
        ("minimum", _) => format!("at least {v}"),
        ("maximum", _) => format!("at most {v}"),
        ("exclusiveMinimum", Value::Bool(true)) => "minimum is exclusive".to_owned(),
        ("exclusiveMaximum", Value::Bool(true)) => "maximum is exclusive".to_owned(),
        ("exclusiveMinimum", _) => format!("greater than {v}"),
        ("exclusiveMaximum", _) => format!("less than {v}"),
        ("multipleOf", _) => format!("a multiple of {v}"),
        ("minLength", _) => format!("at least {v} characters"),
        ("maxLength", _) => format!("at most {v} characters"),
        ("pattern", Value::String(p)) => format!("matches the regular expression {p}"),
        ("format", Value::String(f)) => format!("format: {f}"),
        ("minItems", _) => format!("at least {v} items"),
        ("maxItems", _) => format!("at most {v} items"),
        ("uniqueItems", Value::Bool(true)) => "items must be unique".to_owned(),
        ("minProperties", _) => format!("at least {v} properties"),
        ("maxProperties", _) => format!("at most {v} properties"),
        ("default", _) => format!("default: {v}"),
        ("examples", _) => format!("examples: {v}"),
        ("const", _) => format!("must be {v}"),
        _ => format!("{keyword}: {v}"),
    }
}

/// Appends constraint phrases to the `description` of a schema object.
pub(crate) fn append_to_description(node: &mut Map<String, Value>, phrases: &[String]) {
    if phrases.is_empty() {
        return;
    }
    let joined = phrases.join("; ");
    let text = match node.get("description").and_then(Value::as_str) {
        Some(desc) if !desc.trim().is_empty() => format!("{} ({joined})", desc.trim_end()),
        _ => {
            let mut chars = joined.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => joined,
            }
        }
    };
    node.insert("description".to_owned(), Value::String(text));
}

fn compact(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_pointer_and_anchor_refs() {
        let s = json!({"$defs": {"a b": {"type": "string"}, "n": {"$anchor": "num", "type": "number"}}});
        assert_eq!(
            resolve_local_ref(&s, "#/$defs/a%20b"),
            Some(&json!({"type": "string"}))
        );
        assert_eq!(
            resolve_local_ref(&s, "#num").and_then(|v| v.get("type")),
            Some(&json!("number"))
        );
        assert_eq!(resolve_local_ref(&s, "#"), Some(&s));
        assert_eq!(resolve_local_ref(&s, "other.json#/x"), None);
    }

    #[test]
    fn lists_every_reference_with_its_pointer() {
        let s = json!({
            "properties": {
                "a": {"$ref": "https://example.com/a.json"},
                "c": {"$ref": "#/$defs/c"}
            },
            "$defs": {"c": {"$dynamicRef": "#node"}}
        });
        assert_eq!(
            refs(&s),
            vec![
                (
                    "/properties/a/$ref".to_owned(),
                    "https://example.com/a.json".to_owned()
                ),
                ("/properties/c/$ref".to_owned(), "#/$defs/c".to_owned()),
                ("/$defs/c/$dynamicRef".to_owned(), "#node".to_owned()),
            ]
        );
    }

    #[test]
    fn phrases_read_as_text() {
        let mut node = json!({"description": "Days to forecast."});
        let map = node.as_object_mut().unwrap();
        append_to_description(
            map,
            &[
                constraint_phrase("minimum", &json!(1)),
                constraint_phrase("maximum", &json!(7)),
            ],
        );
        assert_eq!(
            map["description"],
            json!("Days to forecast. (at least 1; at most 7)")
        );
        let mut bare = Map::new();
        append_to_description(&mut bare, &[constraint_phrase("uniqueItems", &json!(true))]);
        assert_eq!(bare["description"], json!("Items must be unique"));
    }
}
