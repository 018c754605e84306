//! A depth-bounded walk over the subschemas of an input schema, with their JSON pointers, and
//! the small questions the design rules ask of a schema (its properties, whether it is
//! nullable, whether it is a closed set).

use serde_json::{Map, Value};
use toolpact::schema::{MAX_DEPTH, escape_token, resolve_local_ref};

/// How a subschema is reached from its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Edge {
    /// The schema the walk started from.
    Root,
    /// A value of `properties`.
    Property,
    /// `items`, `prefixItems`, `contains` or `additionalItems`.
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

/// One subschema met on a walk.
#[derive(Debug)]
pub(crate) struct Node<'v, 'p> {
    /// The subschema.
    pub schema: &'v Value,
    /// Its JSON pointer, from the walk's base pointer.
    pub pointer: &'p str,
    /// How it was reached.
    pub edge: Edge,
}

/// Calls `f` with `schema` and every subschema below it, parents first, in document order.
/// Stops descending past [`MAX_DEPTH`], so a hostile schema cannot exhaust the stack. One
/// pointer buffer serves the whole walk: a rule copies a pointer only when it reports.
pub(crate) fn walk<'v>(schema: &'v Value, pointer: &str, f: &mut dyn FnMut(&Node<'v, '_>)) {
    let mut buffer = String::with_capacity(64);
    buffer.push_str(pointer);
    visit(schema, &mut buffer, Edge::Root, 0, f);
}

/// Appends one reference token, escaped, to a pointer buffer.
fn push_token(buffer: &mut String, token: &str) {
    buffer.push('/');
    if token.contains(['~', '/']) {
        buffer.push_str(&escape_token(token));
    } else {
        buffer.push_str(token);
    }
}

fn visit<'v>(
    schema: &'v Value,
    pointer: &mut String,
    edge: Edge,
    depth: usize,
    f: &mut dyn FnMut(&Node<'v, '_>),
) {
    if depth > MAX_DEPTH {
        return;
    }
    f(&Node {
        schema,
        pointer,
        edge,
    });
    let Some(obj) = schema.as_object() else {
        return;
    };
    for (key, value) in obj {
        // Most keys (`type`, `description`, `enum`) hold no subschema; the first byte rules
        // them out before any string comparison.
        if !matches!(
            key.as_bytes().first(),
            Some(b'p' | b'd' | b'$' | b'a' | b'o' | b'i' | b'c' | b'u' | b'n' | b't' | b'e')
        ) || key == "type"
            || key == "description"
        {
            continue;
        }
        let (edge, many) = match key.as_str() {
            "properties" => (Edge::Property, Many::Map),
            "patternProperties" | "dependentSchemas" => (Edge::Other, Many::Map),
            "$defs" | "definitions" => (Edge::Definition, Many::Map),
            "allOf" => (Edge::AllOf, Many::List),
            "anyOf" | "oneOf" => (Edge::Branch, Many::List),
            "prefixItems" => (Edge::Items, Many::List),
            "items" if value.is_array() => (Edge::Items, Many::List),
            "items" | "contains" | "additionalItems" | "unevaluatedItems" => {
                (Edge::Items, Many::One)
            }
            "additionalProperties"
            | "unevaluatedProperties"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contentSchema" => (Edge::Other, Many::One),
            _ => continue,
        };
        let base = pointer.len();
        push_token(pointer, key);
        match many {
            Many::One => visit(value, pointer, edge, depth + 1, f),
            Many::Map => {
                let here = pointer.len();
                for (name, sub) in value.as_object().into_iter().flatten() {
                    push_token(pointer, name);
                    visit(sub, pointer, edge, depth + 1, f);
                    pointer.truncate(here);
                }
            }
            Many::List => {
                let here = pointer.len();
                for (i, sub) in value.as_array().into_iter().flatten().enumerate() {
                    pointer.push('/');
                    pointer.push_str(&i.to_string());
                    visit(sub, pointer, edge, depth + 1, f);
                    pointer.truncate(here);
                }
            }
        }
        pointer.truncate(base);
    }
}

enum Many {
    One,
    Map,
    List,
}

/// A short name for the object at a walk node: `the input`, `` `shippingAddress` ``, `each
/// item`.
pub(crate) fn object_name(node: &Node<'_, '_>) -> String {
    let last = node.pointer.rsplit('/').next().unwrap_or_default();
    match node.edge {
        Edge::Root => "the input".to_owned(),
        Edge::Property | Edge::Definition => {
            format!("`{}`", last.replace("~1", "/").replace("~0", "~"))
        }
        Edge::Items => "each item".to_owned(),
        _ => "this object".to_owned(),
    }
}

/// Names joined for a sentence: `a`, `a and b`, `a, b and c`.
pub(crate) fn join_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
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

/// The names listed in `required` (ignoring anything that is not a string).
pub(crate) fn required(schema: &Value) -> Vec<&str> {
    field(schema, "required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// What the design rules ask of one schema, read in one pass over its keys: the rules ask
/// many questions of every property, and a keyword lookup each would cost more than the rest
/// of the check.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Facts<'v> {
    /// `type`.
    pub types: Option<&'v Value>,
    /// `enum` or `const` is present.
    pub listed: bool,
    /// `enum` lists `null`.
    pub enum_has_null: bool,
    /// `anyOf`.
    pub any_of: &'v [Value],
    /// `oneOf`.
    pub one_of: &'v [Value],
    /// `$ref`.
    pub reference: Option<&'v str>,
    /// `pattern`.
    pub pattern: Option<&'v str>,
    /// `format`.
    pub format: Option<&'v str>,
    /// `description`.
    pub description: Option<&'v str>,
    /// `default` is present.
    pub default: bool,
    /// `nullable: true` (OpenAPI, Gemini).
    pub nullable: bool,
    /// `items`.
    pub items: Option<&'v Value>,
}

impl<'v> Facts<'v> {
    /// Reads the facts of a schema (all empty for `true`, `false` or a non-schema).
    pub(crate) fn of(schema: &'v Value) -> Facts<'v> {
        let mut facts = Facts::default();
        let Some(obj) = schema.as_object() else {
            return facts;
        };
        for (key, value) in obj {
            match key.as_str() {
                "type" => facts.types = Some(value),
                "enum" => {
                    facts.listed = true;
                    facts.enum_has_null = value
                        .as_array()
                        .is_some_and(|values| values.contains(&Value::Null));
                }
                "const" => facts.listed = true,
                "anyOf" => facts.any_of = value.as_array().map_or(&[], Vec::as_slice),
                "oneOf" => facts.one_of = value.as_array().map_or(&[], Vec::as_slice),
                "$ref" => facts.reference = value.as_str(),
                "pattern" => facts.pattern = value.as_str(),
                "format" => facts.format = value.as_str(),
                "description" => facts.description = value.as_str(),
                "default" => facts.default = true,
                "nullable" => facts.nullable = value == &Value::Bool(true),
                "items" => facts.items = Some(value),
                _ => {}
            }
        }
        facts
    }

    /// Whether its own `type` (a string or a list) includes `t`.
    pub(crate) fn declares(&self, t: &str) -> bool {
        match self.types {
            Some(Value::String(s)) => s == t,
            Some(Value::Array(ts)) => ts.iter().any(|s| s.as_str() == Some(t)),
            _ => false,
        }
    }

    /// Whether its `type` is exactly `t`.
    pub(crate) fn is_only(&self, t: &str) -> bool {
        match self.types {
            Some(Value::String(s)) => s == t,
            Some(Value::Array(ts)) => ts.len() == 1 && ts[0].as_str() == Some(t),
            _ => false,
        }
    }

    /// The `anyOf` and `oneOf` branches.
    pub(crate) fn branches(&self) -> impl Iterator<Item = &'v Value> + use<'v> {
        self.any_of.iter().chain(self.one_of.iter())
    }

    /// Whether it declares type `t`, itself or in an `anyOf`/`oneOf` branch.
    pub(crate) fn has_type(&self, t: &str) -> bool {
        self.declares(t) || self.branches().any(|b| Facts::of(b).declares(t))
    }

    /// Whether `null` is accepted: `type: [T, "null"]`, `nullable: true`, a `null` branch,
    /// or `null` in `enum`.
    pub(crate) fn is_nullable(&self) -> bool {
        self.nullable || self.enum_has_null || self.has_type("null")
    }

    /// Whether only listed values are accepted: `enum`, `const`, or `anyOf`/`oneOf`
    /// branches that are each `const`, `enum` or `null` (the documented-enum pattern).
    pub(crate) fn is_closed_set(&self, root: &'v Value) -> bool {
        if self.listed {
            return true;
        }
        let mut any = false;
        for branch in self.branches() {
            let (_, branch) = resolved(root, branch);
            if !(branch.listed || branch.is_only("null")) {
                return false;
            }
            any = true;
        }
        any
    }
}

/// Follows local `$ref`s (a few hops, so a cycle ends) against `root`, and reads the facts of
/// the schema reached; an unresolvable reference leaves the schema as it is.
pub(crate) fn resolved<'v>(root: &'v Value, schema: &'v Value) -> (&'v Value, Facts<'v>) {
    let mut current = schema;
    let mut facts = Facts::of(current);
    for _ in 0..8 {
        match facts.reference.and_then(|r| resolve_local_ref(root, r)) {
            Some(target) if !std::ptr::eq(target, current) => {
                current = target;
                facts = Facts::of(current);
            }
            _ => break,
        }
    }
    (current, facts)
}

/// How many properties an object schema has, how many of them are optional (not in
/// `required`), and how many more are required but nullable — optional in all but name, as
/// OpenAI strict mode writes optional fields.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PropertyCounts {
    /// Every property.
    pub total: usize,
    /// Not in `required`.
    pub optional: usize,
    /// In `required`, but accepting `null`.
    pub nullable: usize,
}

/// Counts the properties of an object schema; see [`PropertyCounts`].
pub(crate) fn property_counts(root: &Value, schema: &Value) -> PropertyCounts {
    let Some(props) = properties(schema) else {
        return PropertyCounts::default();
    };
    let required = required(schema);
    let mut counts = PropertyCounts {
        total: props.len(),
        ..PropertyCounts::default()
    };
    for (name, sub) in props {
        if !required.contains(&name.as_str()) {
            counts.optional += 1;
        } else if resolved(root, sub).1.is_nullable() {
            counts.nullable += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
            seen.push((n.pointer.to_owned(), n.edge));
        });
        assert!(seen.contains(&("/inputSchema".to_owned(), Edge::Root)));
        assert!(seen.contains(&("/inputSchema/properties/a~1b".to_owned(), Edge::Property)));
        assert!(seen.contains(&("/inputSchema/properties/a~1b/items".to_owned(), Edge::Items)));
        assert!(seen.contains(&("/inputSchema/properties/c/anyOf/1".to_owned(), Edge::Branch)));
        assert!(seen.contains(&("/inputSchema/allOf/0".to_owned(), Edge::AllOf)));
        assert!(seen.contains(&("/inputSchema/$defs/x".to_owned(), Edge::Definition)));
    }

    #[test]
    fn stops_at_the_depth_bound() {
        let mut deep = json!({"type": "string"});
        for _ in 0..(MAX_DEPTH * 2) {
            deep = json!({"type": "array", "items": deep});
        }
        let mut count = 0;
        walk(&deep, "", &mut |_| count += 1);
        assert_eq!(count, MAX_DEPTH + 1);
    }

    #[test]
    fn resolves_cycles_without_looping() {
        let schema = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}});
        let a = &schema["$defs"]["a"];
        let _ = resolved(&schema, a);
    }

    #[test]
    fn recognizes_nullable_and_closed_sets() {
        let root = json!({"$defs": {"unit": {"enum": ["c", "f"]}}});
        let nullable = |s: Value| Facts::of(&s).is_nullable();
        assert!(nullable(json!({"type": ["string", "null"]})));
        assert!(nullable(
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
        ));
        assert!(nullable(json!({"nullable": true})));
        assert!(!nullable(json!({"type": "string"})));
        let closed = |s: Value| resolved(&root, &s).1.is_closed_set(&root);
        assert!(closed(json!({"$ref": "#/$defs/unit"})));
        assert!(closed(json!({"oneOf": [{"const": "a"}, {"const": "b"}]})));
        assert!(!closed(
            json!({"oneOf": [{"const": "a"}, {"type": "string"}]})
        ));
        assert!(!closed(json!({"type": "string"})));
    }
}
