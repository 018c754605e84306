//! The named properties of a tool's input schema, at any depth: nested objects, array items,
//! `$defs`, and the branches of `anyOf`/`oneOf`/`allOf`. Each comes with its JSON pointer and
//! a view through local `$ref`s and nullable unions, so that rules ask "what is its type?" or
//! "has it a description?" once, the same way.
//!
//! `$ref`s are followed to read a property, never to walk: a definition is visited once, where
//! it is written, so recursive schemas end and each finding has one place. The walk stops at
//! [`toolpact::schema::MAX_DEPTH`].

use serde_json::{Map, Value};
use toolpact::Tool;
use toolpact::schema::{MAX_DEPTH, child_pointer, resolve_local_ref};

/// Keywords whose value maps names to subschemas, walked for nested properties.
const MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is a list of subschemas. Properties in these branches that the
/// enclosing schema already declares are not reported again.
const BRANCH_KEYWORDS: &[&str] = &["anyOf", "oneOf", "allOf"];

/// Keywords whose value is one subschema (or, for `items` before 2020-12, a list). `not`,
/// `if`, `contains` and `propertyNames` are left out: they hold conditions, not arguments.
const SINGLE_KEYWORDS: &[&str] = &[
    "items",
    "prefixItems",
    "additionalItems",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "then",
    "else",
];

/// How many `$ref`s in a row a view follows.
const MAX_REF_HOPS: usize = 8;

/// One named property of an input schema.
#[derive(Debug, Clone)]
pub(crate) struct Property<'v> {
    /// Its name, the key in `properties`.
    pub name: &'v str,
    /// Its JSON pointer in the tool, such as `/inputSchema/properties/date`.
    pub pointer: String,
    /// The names of the properties beside it (its own included), and of the properties of the
    /// schema whose branch holds it.
    pub siblings: Vec<&'v str>,
    /// The schema as written, then the schemas it refers to, then its union branches.
    views: Vec<&'v Map<String, Value>>,
}

impl<'v> Property<'v> {
    /// The first value of `keyword` in the property's views.
    pub fn keyword(&self, keyword: &str) -> Option<&'v Value> {
        self.views.iter().find_map(|v| v.get(keyword))
    }

    /// The description, trimmed, if there is one that is not blank.
    pub fn description(&self) -> Option<&'v str> {
        self.views
            .iter()
            .filter_map(|v| v.get("description").and_then(Value::as_str))
            .map(str::trim)
            .find(|d| !d.is_empty())
    }

    /// The declared types, without `null`.
    pub fn types(&self) -> Vec<&'v str> {
        let mut types = Vec::new();
        for view in &self.views {
            let declared: Vec<&str> = match view.get("type") {
                Some(Value::String(t)) => vec![t.as_str()],
                Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            for t in declared {
                if t != "null" && !types.contains(&t) {
                    types.push(t);
                }
            }
        }
        types
    }

    /// Whether the property may be of type `name`: it declares it, or declares no type.
    pub fn may_be(&self, name: &str) -> bool {
        let types = self.types();
        types.is_empty() || types.contains(&name)
    }

    /// Whether the property is an array: it says so, or has `items` and no other type.
    pub fn is_array(&self) -> bool {
        let types = self.types();
        types.contains(&"array") || (types.is_empty() && self.keyword("items").is_some())
    }

    /// Whether the property is a closed set (`enum` or `const`).
    pub fn is_closed(&self) -> bool {
        self.keyword("enum").is_some() || self.keyword("const").is_some()
    }

    /// The words of its name.
    pub fn name_words(&self) -> Vec<String> {
        super::words::identifier_words(self.name)
    }
}

/// Every named property of the tool's input schema, in document order.
pub(crate) fn input_properties(tool: &Tool) -> Vec<Property<'_>> {
    let root = &tool.input_schema;
    let mut out = Vec::new();
    walk(root, root, "/inputSchema".to_owned(), &[], 0, &mut out);
    out
}

fn walk<'v>(
    root: &'v Value,
    node: &'v Value,
    pointer: String,
    enclosing: &[&'v str],
    depth: usize,
    out: &mut Vec<Property<'v>>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(obj) = node.as_object() else { return };
    let declared: Vec<&str> = obj
        .get("properties")
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let mut siblings = declared.clone();
    siblings.extend(enclosing.iter().copied().filter(|n| !declared.contains(n)));
    if let Some(properties) = obj.get("properties").and_then(Value::as_object) {
        let base = child_pointer(&pointer, "properties");
        for (name, schema) in properties {
            // A branch that repeats a property of the schema around it narrows it (a
            // discriminator's `const`); the declaration around it is the one to check.
            if enclosing.contains(&name.as_str()) {
                continue;
            }
            if let Some(map) = schema.as_object() {
                out.push(Property {
                    name,
                    pointer: child_pointer(&base, name),
                    siblings: siblings.clone(),
                    views: views(root, map),
                });
            }
        }
    }
    for (key, value) in obj {
        let key = key.as_str();
        if MAP_KEYWORDS.contains(&key) {
            if let Some(map) = value.as_object() {
                let base = child_pointer(&pointer, key);
                for (name, sub) in map {
                    walk(root, sub, child_pointer(&base, name), &[], depth + 1, out);
                }
            }
        } else if BRANCH_KEYWORDS.contains(&key) {
            if let Some(items) = value.as_array() {
                let base = child_pointer(&pointer, key);
                for (i, sub) in items.iter().enumerate() {
                    let p = child_pointer(&base, &i.to_string());
                    walk(root, sub, p, &siblings, depth + 1, out);
                }
            }
        } else if SINGLE_KEYWORDS.contains(&key) {
            let base = child_pointer(&pointer, key);
            match value {
                Value::Array(items) => {
                    for (i, sub) in items.iter().enumerate() {
                        let p = child_pointer(&base, &i.to_string());
                        walk(root, sub, p, &[], depth + 1, out);
                    }
                }
                other => walk(root, other, base, &[], depth + 1, out),
            }
        }
    }
}

/// The schema, the schemas its `$ref`s lead to, and the branches of its unions (with their
/// `$ref`s), in that order.
fn views<'v>(root: &'v Value, schema: &'v Map<String, Value>) -> Vec<&'v Map<String, Value>> {
    let mut out = Vec::new();
    follow(root, schema, &mut out);
    let mut i = 0;
    while i < out.len() {
        let view = out[i];
        for key in BRANCH_KEYWORDS {
            for branch in view
                .get(*key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(map) = branch.as_object()
                    && out.len() < 4 * MAX_REF_HOPS
                {
                    follow(root, map, &mut out);
                }
            }
        }
        i += 1;
    }
    out
}

/// Pushes `schema` and the chain of local `$ref`s from it.
fn follow<'v>(
    root: &'v Value,
    schema: &'v Map<String, Value>,
    out: &mut Vec<&'v Map<String, Value>>,
) {
    let mut current = schema;
    for _ in 0..MAX_REF_HOPS {
        if out.iter().any(|v| std::ptr::eq(*v, current)) {
            return;
        }
        out.push(current);
        let Some(next) = current
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve_local_ref(root, r))
            .and_then(Value::as_object)
        else {
            return;
        };
        current = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(schema: Value) -> Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": schema})).unwrap()
    }

    #[test]
    fn finds_nested_properties_once_with_their_pointers() {
        let t = tool(json!({
            "type": "object",
            "properties": {
                "a": {"type": "object", "properties": {"b": {"type": "string"}}},
                "list": {"type": "array", "items": {"type": "object", "properties": {"c": {}}}},
                "node": {"$ref": "#/$defs/node"},
                "kind": {"type": "string", "description": "Kind"}
            },
            "oneOf": [{"properties": {"kind": {"const": "x"}, "x": {"type": "integer"}}}],
            "$defs": {"node": {"type": "object", "description": "A node", "properties": {"next": {"$ref": "#/$defs/node"}}}}
        }));
        let found: Vec<String> = input_properties(&t)
            .iter()
            .map(|p| p.pointer.clone())
            .collect();
        assert_eq!(
            found,
            [
                "/inputSchema/properties/a",
                "/inputSchema/properties/list",
                "/inputSchema/properties/node",
                "/inputSchema/properties/kind",
                "/inputSchema/properties/a/properties/b",
                "/inputSchema/properties/list/items/properties/c",
                "/inputSchema/oneOf/0/properties/x",
                "/inputSchema/$defs/node/properties/next",
            ]
        );
        let props = input_properties(&t);
        assert_eq!(props[2].description(), Some("A node"));
        assert_eq!(props[2].types(), ["object"]);
        assert!(props[1].is_array());
        assert_eq!(props[6].siblings, ["kind", "x", "a", "list", "node"]);
    }

    #[test]
    fn stops_at_the_depth_bound() {
        let mut schema = json!({"type": "string"});
        for _ in 0..200 {
            schema = json!({"type": "object", "properties": {"p": schema}});
        }
        let t = Tool {
            input_schema: schema,
            ..tool(json!({}))
        };
        let found = input_properties(&t).len();
        assert!(found > 0 && found <= MAX_DEPTH + 1, "{found}");
    }

    #[test]
    fn reads_through_nullable_unions_and_survives_ref_cycles() {
        let t = tool(json!({
            "properties": {
                "d": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
                "loop": {"$ref": "#/$defs/a"}
            },
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}
        }));
        let props = input_properties(&t);
        assert_eq!(props[0].types(), ["string"]);
        assert_eq!(props[0].keyword("format"), Some(&json!("date")));
        assert!(props[1].types().is_empty());
    }
}
