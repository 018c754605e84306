//! Walking a tool's schemas: every subschema with its JSON pointer and the keyword that holds
//! it, every member of a JSON value, and the few keywords rules read of every schema. The
//! views built on the walk live beside it: [`Facts`] (what one schema says, read in one pass)
//! and [`Property`] (a named input property, seen through `$ref`s and nullable unions).
//!
//! What a subschema is comes from the library ([`toolpact::schema::MAP_KEYWORDS`],
//! [`ARRAY_KEYWORDS`](toolpact::schema::ARRAY_KEYWORDS) and
//! [`SINGLE_KEYWORDS`](toolpact::schema::SINGLE_KEYWORDS)), so that the linter and the
//! lowering agree. The walks do not call [`toolpact::schema::for_each_subschema`], which
//! builds a new pointer string for every child: here one pointer buffer serves a whole walk,
//! extended and cut back at each level, and a rule copies a pointer only when it reports.
//!
//! Every walk stops descending past [`MAX_DEPTH`], so that a hostile schema cannot exhaust the
//! stack.

mod facts;
mod property;

pub(crate) use facts::{Facts, property_counts, resolved};
pub(crate) use property::{Properties, Property};

use serde_json::{Map, Value};
use std::fmt::Write as _;
use toolpact::Tool;
use toolpact::json::escape_token;
use toolpact::schema::MAX_DEPTH;

/// The tool's schemas with the pointer of each: the input schema, then the output schema.
pub(crate) fn tool_schemas(tool: &Tool) -> impl Iterator<Item = (&Value, &'static str)> {
    [
        Some((&tool.input_schema, "/inputSchema")),
        tool.output_schema.as_ref().map(|s| (s, "/outputSchema")),
    ]
    .into_iter()
    .flatten()
}

/// Appends one reference token to a JSON pointer, escaped as RFC 6901 asks.
pub(crate) fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    if token.contains(['~', '/']) {
        pointer.push_str(&escape_token(token));
    } else {
        pointer.push_str(token);
    }
}

/// Appends an array index to a JSON pointer, without an intermediate string.
pub(crate) fn push_index(pointer: &mut String, index: usize) {
    // Writing into a `String` cannot fail.
    let _ = write!(pointer, "/{index}");
}

/// How a subschema is reached from its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Edge {
    /// The schema the walk started from.
    Root,
    /// A value of `properties`.
    Property,
    /// `items`, `prefixItems`, `contains`, `additionalItems` or `unevaluatedItems`.
    Items,
    /// A branch of `allOf`: its properties join its siblings'.
    AllOf,
    /// A branch of `anyOf` or `oneOf`.
    Branch,
    /// A value of `$defs` or `definitions`.
    Definition,
    /// Any other keyword (`additionalProperties`, `not`, `if`, …).
    Other,
}

/// How a keyword holds its subschemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// One subschema.
    One,
    /// A map from names to subschemas.
    Map,
    /// A list of subschemas.
    List,
}

/// The keyword `key` as the library defines it (a `&'static` copy of the name), how it
/// holds subschemas, and the edge they hang from; `None` for a keyword that holds none.
///
/// A `match` rather than a scan of the library's lists: it runs for every key of every
/// schema the rules walk. `classifies_exactly_the_library_keywords` keeps the two in step.
fn classify(key: &str, value: &Value) -> Option<(&'static str, Holds, Edge)> {
    // Most keys (`type`, `description`, `enum`) hold no subschema; the first byte rules most
    // of them out before any string comparison.
    if !matches!(
        key.as_bytes().first(),
        Some(b'p' | b'd' | b'$' | b'a' | b'o' | b'i' | b'c' | b'u' | b'n' | b't' | b'e')
    ) {
        return None;
    }
    Some(match key {
        "properties" => ("properties", Holds::Map, Edge::Property),
        "patternProperties" => ("patternProperties", Holds::Map, Edge::Other),
        "dependentSchemas" => ("dependentSchemas", Holds::Map, Edge::Other),
        "$defs" => ("$defs", Holds::Map, Edge::Definition),
        "definitions" => ("definitions", Holds::Map, Edge::Definition),
        "allOf" => ("allOf", Holds::List, Edge::AllOf),
        "anyOf" => ("anyOf", Holds::List, Edge::Branch),
        "oneOf" => ("oneOf", Holds::List, Edge::Branch),
        "prefixItems" => ("prefixItems", Holds::List, Edge::Items),
        // Before 2020-12, `items` may be a list of schemas, one per position.
        "items" if value.is_array() => ("items", Holds::List, Edge::Items),
        "items" => ("items", Holds::One, Edge::Items),
        "contains" => ("contains", Holds::One, Edge::Items),
        "additionalItems" => ("additionalItems", Holds::One, Edge::Items),
        "unevaluatedItems" => ("unevaluatedItems", Holds::One, Edge::Items),
        "additionalProperties" => ("additionalProperties", Holds::One, Edge::Other),
        "unevaluatedProperties" => ("unevaluatedProperties", Holds::One, Edge::Other),
        "propertyNames" => ("propertyNames", Holds::One, Edge::Other),
        "not" => ("not", Holds::One, Edge::Other),
        "if" => ("if", Holds::One, Edge::Other),
        "then" => ("then", Holds::One, Edge::Other),
        "else" => ("else", Holds::One, Edge::Other),
        "contentSchema" => ("contentSchema", Holds::One, Edge::Other),
        _ => return None,
    })
}

/// One direct subschema, as [`for_each_child`] gives it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Child<'v> {
    /// The subschema.
    pub schema: &'v Value,
    /// The keyword that holds it (`properties`, `anyOf`, `items`, …).
    pub keyword: &'static str,
    /// How it hangs from its parent.
    pub edge: Edge,
}

/// Calls `f` with each direct subschema of `node`, in document order, while `pointer` (the
/// node's own pointer on entry) is extended to the child's; it is restored on return.
pub(crate) fn for_each_child<'v>(
    node: &'v Value,
    pointer: &mut String,
    mut f: impl FnMut(Child<'v>, &mut String),
) {
    let Some(obj) = node.as_object() else { return };
    let base = pointer.len();
    for (key, value) in obj {
        let Some((keyword, holds, edge)) = classify(key, value) else {
            continue;
        };
        pointer.push('/');
        pointer.push_str(keyword);
        let here = pointer.len();
        let mut child = |schema, pointer: &mut String| {
            f(
                Child {
                    schema,
                    keyword,
                    edge,
                },
                pointer,
            );
            pointer.truncate(here);
        };
        match holds {
            Holds::One => child(value, pointer),
            Holds::Map => {
                for (name, schema) in value.as_object().into_iter().flatten() {
                    push_token(pointer, name);
                    child(schema, pointer);
                }
            }
            Holds::List => {
                for (i, schema) in value.as_array().into_iter().flatten().enumerate() {
                    push_index(pointer, i);
                    child(schema, pointer);
                }
            }
        }
        pointer.truncate(base);
    }
}

/// One subschema met on a walk.
#[derive(Debug)]
pub(crate) struct Node<'v, 'p> {
    /// The subschema.
    pub schema: &'v Value,
    /// Its JSON pointer, from the walk's base pointer.
    pub pointer: &'p str,
    /// The keyword that holds it (`""` for the root).
    pub keyword: &'static str,
    /// How it was reached.
    pub edge: Edge,
    /// How many subschemas down from the root (0 for the root).
    pub depth: usize,
}

impl Node<'_, '_> {
    /// A short name for the object at this node, for messages: `the input`,
    /// `` `shippingAddress` ``, `each item`, `this object`.
    pub(crate) fn object_name(&self) -> String {
        let last = self.pointer.rsplit('/').next().unwrap_or_default();
        match self.edge {
            Edge::Root => "the input".to_owned(),
            Edge::Property | Edge::Definition => {
                format!("`{}`", toolpact::json::unescape_token(last))
            }
            Edge::Items => "each item".to_owned(),
            _ => "this object".to_owned(),
        }
    }
}

/// Whether a walk goes below the node it just showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Visit the node's subschemas.
    Descend,
    /// Leave them out.
    Skip,
}

/// Calls `f` with `schema` and every subschema below it, parents first, in document order;
/// `pointer` is the pointer of `schema` itself.
pub(crate) fn walk<'v>(schema: &'v Value, pointer: &str, f: &mut dyn FnMut(&Node<'v, '_>)) {
    walk_pruned(schema, pointer, &mut |node| {
        f(node);
        Flow::Descend
    });
}

/// Like [`walk`], but `f` decides for each node whether the walk goes below it: for rules
/// that leave some keywords out, or stop once a budget is spent.
pub(crate) fn walk_pruned<'v>(
    schema: &'v Value,
    pointer: &str,
    f: &mut dyn FnMut(&Node<'v, '_>) -> Flow,
) {
    let mut buffer = String::with_capacity(64);
    buffer.push_str(pointer);
    visit(schema, &mut buffer, "", Edge::Root, 0, f);
}

fn visit<'v>(
    schema: &'v Value,
    pointer: &mut String,
    keyword: &'static str,
    edge: Edge,
    depth: usize,
    f: &mut dyn FnMut(&Node<'v, '_>) -> Flow,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let flow = f(&Node {
        schema,
        pointer,
        keyword,
        edge,
        depth,
    });
    if flow == Flow::Skip {
        return;
    }
    for_each_child(schema, pointer, |child, pointer| {
        visit(
            child.schema,
            pointer,
            child.keyword,
            child.edge,
            depth + 1,
            f,
        );
    });
}

/// One member of a JSON value met by [`walk_members`]: an object's entry or an array's item.
#[derive(Debug)]
pub(crate) struct Member<'v, 'p> {
    /// The key, or `None` for an array item.
    pub key: Option<&'v str>,
    /// The value.
    pub value: &'v Value,
    /// Its JSON pointer.
    pub pointer: &'p str,
    /// How many levels below the walk's start the value is (1 for a member of the start).
    pub depth: usize,
}

/// Calls `f` with every member of `value`, at any depth, parents first; `f` decides whether
/// the walk enters each member's value. Unlike [`walk`], this visits every key, not only the
/// keywords that hold subschemas: text under an extension keyword (`x-…`) or in a misspelt
/// keyword reaches the model all the same. `pointer` is the pointer of `value`.
pub(crate) fn walk_members<'v>(
    value: &'v Value,
    pointer: &str,
    f: &mut dyn FnMut(&Member<'v, '_>) -> Flow,
) {
    fn visit_members<'v>(
        value: &'v Value,
        pointer: &mut String,
        depth: usize,
        f: &mut dyn FnMut(&Member<'v, '_>) -> Flow,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let len = pointer.len();
        // Shows one member, whose pointer is already in the buffer, and enters it if asked.
        let mut member = |key: Option<&'v str>, item: &'v Value, pointer: &mut String| {
            let shown = Member {
                key,
                value: item,
                pointer,
                depth: depth + 1,
            };
            if f(&shown) == Flow::Descend {
                visit_members(item, pointer, depth + 1, f);
            }
            pointer.truncate(len);
        };
        match value {
            Value::Object(map) => {
                for (key, item) in map {
                    push_token(pointer, key);
                    member(Some(key), item, pointer);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    push_index(pointer, i);
                    member(None, item, pointer);
                }
            }
            _ => {}
        }
    }
    let mut buffer = String::with_capacity(64);
    buffer.push_str(pointer);
    visit_members(value, &mut buffer, 0, f);
}

/// The value of one keyword of a schema. Schemas are small maps: a scan of their keys is
/// faster than hashing the keyword, and the rules ask many keywords of every property.
pub(crate) fn field<'v>(schema: &'v Value, key: &str) -> Option<&'v Value> {
    let obj = schema.as_object()?;
    if obj.len() > 12 {
        return obj.get(key);
    }
    obj.iter().find(|(k, _)| same(k, key)).map(|(_, v)| v)
}

/// String equality that settles most mismatches on the length and the first and last bytes,
/// before any call to `memcmp`: keywords are short and compared very often.
#[inline]
fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.first() == b.first() && a.last() == b.last() && a == b
}

/// The `properties` of an object schema, or `None`.
pub(crate) fn properties(schema: &Value) -> Option<&Map<String, Value>> {
    field(schema, "properties").and_then(Value::as_object)
}

/// The names a schema lists in `required` (anything that is not a string is ignored).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Required<'v>(&'v [Value]);

impl Required<'_> {
    /// Whether `name` is required.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.0.iter().any(|v| v.as_str() == Some(name))
    }
}

/// The names listed in `required`; none when it is missing or not a list.
pub(crate) fn required(schema: &Value) -> Required<'_> {
    Required(
        field(schema, "required")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice),
    )
}

/// Whether a `type` value (a string or a list of strings) includes `name`.
pub(crate) fn type_includes(types: Option<&Value>, name: &str) -> bool {
    match types {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(types)) => types.iter().any(|t| t.as_str() == Some(name)),
        _ => false,
    }
}

/// Whether the schema's own `type` is `name`, alone or in a list of types.
pub(crate) fn declares_type(schema: &Value, name: &str) -> bool {
    type_includes(field(schema, "type"), name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use toolpact::schema::{ARRAY_KEYWORDS, MAP_KEYWORDS, SINGLE_KEYWORDS, for_each_subschema};

    #[test]
    fn classifies_exactly_the_library_keywords() {
        let one = json!({});
        let many = json!([]);
        for key in MAP_KEYWORDS {
            assert!(matches!(classify(key, &one), Some((k, Holds::Map, _)) if k == *key));
        }
        for key in ARRAY_KEYWORDS {
            assert!(matches!(classify(key, &many), Some((k, Holds::List, _)) if k == *key));
        }
        for key in SINGLE_KEYWORDS {
            assert!(matches!(classify(key, &one), Some((k, Holds::One, _)) if k == *key));
        }
        assert!(matches!(
            classify("items", &many),
            Some(("items", Holds::List, Edge::Items))
        ));
        for key in [
            "type",
            "description",
            "enum",
            "const",
            "required",
            "$ref",
            "default",
        ] {
            assert!(classify(key, &one).is_none(), "{key}");
        }
    }

    #[test]
    fn visits_the_children_the_library_visits() {
        let schema = json!({
            "type": "object",
            "properties": {"a/b": {"items": [{}, {"not": {}}]}, "c~d": {"anyOf": [{}, true]}},
            "patternProperties": {"^x": {}},
            "dependentSchemas": {"a": {}},
            "definitions": {"d": {"contentSchema": {}}},
            "$defs": {"e": {"if": {}, "then": {}, "else": {}}},
            "allOf": [{"contains": {}}],
            "oneOf": [{"prefixItems": [{}]}],
            "additionalProperties": {"propertyNames": {}},
            "unevaluatedProperties": false,
            "unevaluatedItems": {},
            "additionalItems": {},
            "items": {}
        });
        fn library(node: &Value, pointer: String, out: &mut Vec<String>) {
            out.push(pointer.clone());
            let mut children = Vec::new();
            for_each_subschema(node, &pointer, &mut |sub, p| children.push((sub, p)));
            for (sub, p) in children {
                library(sub, p, out);
            }
        }
        let mut expected = Vec::new();
        library(&schema, "/inputSchema".to_owned(), &mut expected);
        let mut seen = Vec::new();
        walk(&schema, "/inputSchema", &mut |n| {
            seen.push(n.pointer.to_owned())
        });
        assert_eq!(seen, expected);
    }

    #[test]
    fn walks_with_pointers_and_edges() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a/b": {"type": "array", "items": {"type": "string"}},
                "c": {"anyOf": [{"type": "string"}, {"type": "null"}]}
            },
            "allOf": [{"properties": {"d": {}}}],
            "$defs": {"x": {"type": "object"}}
        });
        let mut seen = Vec::new();
        walk(&schema, "/inputSchema", &mut |n| {
            seen.push((n.pointer.to_owned(), n.edge, n.keyword, n.depth));
        });
        assert_eq!(
            seen,
            [
                ("/inputSchema".to_owned(), Edge::Root, "", 0),
                (
                    "/inputSchema/properties/a~1b".to_owned(),
                    Edge::Property,
                    "properties",
                    1
                ),
                (
                    "/inputSchema/properties/a~1b/items".to_owned(),
                    Edge::Items,
                    "items",
                    2
                ),
                (
                    "/inputSchema/properties/c".to_owned(),
                    Edge::Property,
                    "properties",
                    1
                ),
                (
                    "/inputSchema/properties/c/anyOf/0".to_owned(),
                    Edge::Branch,
                    "anyOf",
                    2
                ),
                (
                    "/inputSchema/properties/c/anyOf/1".to_owned(),
                    Edge::Branch,
                    "anyOf",
                    2
                ),
                ("/inputSchema/allOf/0".to_owned(), Edge::AllOf, "allOf", 1),
                (
                    "/inputSchema/allOf/0/properties/d".to_owned(),
                    Edge::Property,
                    "properties",
                    2
                ),
                (
                    "/inputSchema/$defs/x".to_owned(),
                    Edge::Definition,
                    "$defs",
                    1
                ),
            ]
        );
    }

    #[test]
    fn pruned_walks_leave_subtrees_out() {
        let schema = json!({"properties": {"a": {"properties": {"b": {}}}}, "not": {"properties": {"c": {}}}});
        let mut seen = Vec::new();
        walk_pruned(&schema, "", &mut |n| {
            seen.push(n.pointer.to_owned());
            if n.keyword == "not" {
                Flow::Skip
            } else {
                Flow::Descend
            }
        });
        assert_eq!(
            seen,
            ["", "/properties/a", "/properties/a/properties/b", "/not"]
        );
    }

    #[test]
    fn walks_stop_at_the_depth_bound() {
        let mut deep = json!({"type": "string"});
        for _ in 0..(MAX_DEPTH * 2) {
            deep = json!({"type": "array", "items": deep});
        }
        let mut count = 0;
        walk(&deep, "", &mut |_| count += 1);
        assert_eq!(count, MAX_DEPTH + 1);
        let mut members = 0;
        walk_members(&deep, "", &mut |_| {
            members += 1;
            Flow::Descend
        });
        assert_eq!(members, 2 * (MAX_DEPTH + 1));
    }

    #[test]
    fn walks_every_member_with_its_pointer() {
        let value = json!({"a": [1, {"b/c": "x"}], "d": {"e": true}});
        let mut seen = Vec::new();
        walk_members(&value, "/t", &mut |m| {
            seen.push((m.key.map(str::to_owned), m.pointer.to_owned(), m.depth));
            if m.key == Some("d") {
                Flow::Skip
            } else {
                Flow::Descend
            }
        });
        assert_eq!(
            seen,
            [
                (Some("a".to_owned()), "/t/a".to_owned(), 1),
                (None, "/t/a/0".to_owned(), 2),
                (None, "/t/a/1".to_owned(), 2),
                (Some("b/c".to_owned()), "/t/a/1/b~1c".to_owned(), 3),
                (Some("d".to_owned()), "/t/d".to_owned(), 1),
            ]
        );
    }

    #[test]
    fn reads_types_and_required_names() {
        let schema = json!({"type": ["string", "null"], "required": ["a", 1, "b"]});
        assert!(declares_type(&schema, "null"));
        assert!(!declares_type(&schema, "object"));
        assert!(required(&schema).contains("b"));
        assert!(!required(&schema).contains("c"));
        assert!(!required(&json!(true)).contains("a"));
    }
}
