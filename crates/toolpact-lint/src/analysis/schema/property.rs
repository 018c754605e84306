//! The named properties of a tool's input schema, at any depth: nested objects, array items,
//! `$defs`, and the branches of `anyOf`/`oneOf`/`allOf`. Each comes with its JSON pointer and
//! a view through local `$ref`s and nullable unions, so that rules ask "what is its type?" or
//! "has it a description?" once, the same way.
//!
//! `$ref`s are followed to read a property, never to walk: a definition is visited once, where
//! it is written, so recursive schemas end and each finding has one place. Subschemas that
//! hold conditions rather than arguments (`not`, `if`, `contains`, `propertyNames`,
//! `contentSchema`) are not entered.

use super::{Edge, Flow, push_token, walk_pruned};
use crate::analysis::words::identifier_words;
use serde_json::{Map, Value};
use std::ops::Range;
use toolpact::Tool;
use toolpact::schema::resolve_local_ref;

/// How many `$ref`s in a row a view follows.
const MAX_REF_HOPS: usize = 8;

/// How many schemas one view holds at most: a union of unions of `$ref`s stays cheap.
const MAX_VIEWS: usize = 4 * MAX_REF_HOPS;

/// One named property of an input schema, as [`for_each_property`] shows it.
#[derive(Debug)]
pub(crate) struct Property<'a, 'v> {
    /// Its name, the key in `properties`.
    pub name: &'v str,
    /// Its schema as written.
    pub schema: &'v Value,
    /// Its JSON pointer in the tool, such as `/inputSchema/properties/date`.
    pub pointer: &'a str,
    /// The names of the properties beside it (its own included), and of the properties of the
    /// schema whose branch holds it.
    pub siblings: &'a [&'v str],
    /// The schema as written, then the schemas it refers to, then its union branches.
    views: &'a [&'v Map<String, Value>],
    /// Which object of the walk declares it (0 for the first): properties of one object
    /// share their siblings.
    object: usize,
}

/// The JSON Schema types a property declares, without `null`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Types(u8);

impl Types {
    /// The named types, one bit each; any other name sets [`Types::OTHER`].
    const NAMES: [&'static str; 6] = ["string", "number", "integer", "boolean", "object", "array"];
    /// A type name JSON Schema does not define (`"date"`): declared, but none of the above.
    const OTHER: u8 = 1 << 6;

    fn add(&mut self, name: &str) {
        if name == "null" {
            return;
        }
        self.0 |= Types::NAMES
            .iter()
            .position(|n| *n == name)
            .map_or(Types::OTHER, |bit| 1 << bit);
    }

    /// Whether no type (other than `null`) is declared.
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the JSON Schema type `name` (`string`, `object`, …) is declared.
    pub(crate) fn contains(self, name: &str) -> bool {
        Types::NAMES
            .iter()
            .position(|n| *n == name)
            .is_some_and(|bit| self.0 & (1 << bit) != 0)
    }
}

impl<'v> Property<'_, 'v> {
    /// The first value of `keyword` in the property's views.
    pub(crate) fn keyword(&self, keyword: &str) -> Option<&'v Value> {
        self.views.iter().find_map(|v| v.get(keyword))
    }

    /// The description, trimmed, if there is one that is not blank.
    pub(crate) fn description(&self) -> Option<&'v str> {
        self.views
            .iter()
            .filter_map(|v| v.get("description").and_then(Value::as_str))
            .map(str::trim)
            .find(|d| !d.is_empty())
    }

    /// The types its views declare, without `null`.
    pub(crate) fn types(&self) -> Types {
        let mut types = Types::default();
        for view in self.views {
            match view.get("type") {
                Some(Value::String(t)) => types.add(t),
                Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).for_each(|t| {
                    types.add(t);
                }),
                _ => {}
            }
        }
        types
    }

    /// Whether the property may be of type `name`: it declares it, or declares no type.
    pub(crate) fn may_be(&self, name: &str) -> bool {
        let types = self.types();
        types.is_empty() || types.contains(name)
    }

    /// Whether the property is an array: it says so, or has `items` and no other type.
    pub(crate) fn is_array(&self) -> bool {
        let types = self.types();
        types.contains("array") || (types.is_empty() && self.keyword("items").is_some())
    }

    /// Whether the property is a closed set (`enum` or `const`).
    pub(crate) fn is_closed(&self) -> bool {
        self.keyword("enum").is_some() || self.keyword("const").is_some()
    }

    /// The words of its name.
    pub(crate) fn name_words(&self) -> Vec<String> {
        identifier_words(self.name)
    }
}

/// Calls `f` with every named property of the tool's input schema, parents before the
/// properties nested in them.
///
/// A property that a branch of `anyOf`/`oneOf`/`allOf` repeats from the schema around it is
/// left out: the branch narrows it (a discriminator's `const`), and the declaration around it
/// is the one to check. The pointer, the siblings and the views live in buffers the walk
/// reuses, so a rule pays for a copy only when it reports.
pub(crate) fn for_each_property<'v>(tool: &'v Tool, f: &mut dyn FnMut(&Property<'_, 'v>)) {
    let root = &tool.input_schema;
    // The siblings of each object on the path from the root, one range of `names` per depth:
    // a branch reads the range of the object that holds it.
    let mut names: Vec<&'v str> = Vec::new();
    let mut levels: Vec<(usize, usize)> = Vec::new();
    let mut views: Vec<&'v Map<String, Value>> = Vec::new();
    let mut pointer = String::new();
    let mut objects = 0;
    walk_pruned(root, "/inputSchema", &mut |node| {
        if matches!(
            node.keyword,
            "not" | "if" | "contains" | "propertyNames" | "contentSchema"
        ) {
            return Flow::Skip;
        }
        let Some(obj) = node.schema.as_object() else {
            return Flow::Descend;
        };
        levels.truncate(node.depth);
        let (enclosing_start, enclosing_end) = match node.edge {
            Edge::Branch | Edge::AllOf => levels.last().copied().unwrap_or_default(),
            _ => (0, 0),
        };
        names.truncate(levels.last().map_or(0, |level| level.1));
        let start = names.len();
        let declared = obj.get("properties").and_then(Value::as_object);
        names.extend(
            declared
                .into_iter()
                .flat_map(|p| p.keys().map(String::as_str)),
        );
        for i in enclosing_start..enclosing_end {
            if let Some(&name) = names.get(i)
                && !declared.is_some_and(|d| d.contains_key(name))
            {
                names.push(name);
            }
        }
        levels.push((start, names.len()));
        let Some(declared) = declared else {
            return Flow::Descend;
        };
        let enclosing = names
            .get(enclosing_start..enclosing_end)
            .unwrap_or_default();
        let siblings = names.get(start..).unwrap_or_default();
        let object = objects;
        objects += 1;
        for (name, schema) in declared {
            if enclosing.contains(&name.as_str()) {
                continue;
            }
            let Some(map) = schema.as_object() else {
                continue;
            };
            collect_views(root, map, &mut views);
            pointer.clear();
            pointer.push_str(node.pointer);
            push_token(&mut pointer, "properties");
            push_token(&mut pointer, name);
            f(&Property {
                name,
                schema,
                pointer: &pointer,
                siblings,
                views: &views,
                object,
            });
        }
        Flow::Descend
    });
}

/// The named properties of a tool's input schema, as [`for_each_property`] shows them, kept
/// so that several rules read them without walking the schema again.
#[derive(Debug, Default)]
pub(crate) struct Properties<'v> {
    found: Vec<Found<'v>>,
    /// Every pointer, one after the other.
    pointers: String,
    /// The siblings of each object, one after the other.
    siblings: Vec<&'v str>,
    /// The views of each property, one after the other.
    views: Vec<&'v Map<String, Value>>,
}

/// One property, its pointer, siblings and views as ranges of [`Properties`]' buffers.
#[derive(Debug)]
struct Found<'v> {
    name: &'v str,
    schema: &'v Value,
    pointer: Range<usize>,
    siblings: Range<usize>,
    views: Range<usize>,
    object: usize,
}

impl<'v> Properties<'v> {
    /// Walks the tool's input schema once.
    pub(crate) fn of(tool: &'v Tool) -> Self {
        let mut kept = Properties::default();
        let mut siblings = 0..0;
        for_each_property(tool, &mut |property| {
            let object_changed = kept
                .found
                .last()
                .is_none_or(|last| last.object != property.object);
            if object_changed {
                let start = kept.siblings.len();
                kept.siblings.extend_from_slice(property.siblings);
                siblings = start..kept.siblings.len();
            }
            let pointer = kept.pointers.len()..kept.pointers.len() + property.pointer.len();
            kept.pointers.push_str(property.pointer);
            let views = kept.views.len()..kept.views.len() + property.views.len();
            kept.views.extend_from_slice(property.views);
            kept.found.push(Found {
                name: property.name,
                schema: property.schema,
                pointer,
                siblings: siblings.clone(),
                views,
                object: property.object,
            });
        });
        kept
    }

    /// Calls `f` with each property, in the order of [`for_each_property`].
    pub(crate) fn for_each(&self, f: &mut dyn FnMut(&Property<'_, 'v>)) {
        for found in &self.found {
            f(&Property {
                name: found.name,
                schema: found.schema,
                pointer: self.pointers.get(found.pointer.clone()).unwrap_or_default(),
                siblings: self
                    .siblings
                    .get(found.siblings.clone())
                    .unwrap_or_default(),
                views: self.views.get(found.views.clone()).unwrap_or_default(),
                object: found.object,
            });
        }
    }
}

/// Fills `out` with the schema, the schemas its `$ref`s lead to, and the branches of its
/// unions (with their `$ref`s), in that order.
fn collect_views<'v>(
    root: &'v Value,
    schema: &'v Map<String, Value>,
    out: &mut Vec<&'v Map<String, Value>>,
) {
    out.clear();
    follow(root, schema, out);
    let mut i = 0;
    while i < out.len() {
        let view = out[i];
        for key in ["anyOf", "oneOf", "allOf"] {
            for branch in view
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(map) = branch.as_object()
                    && out.len() < MAX_VIEWS
                {
                    follow(root, map, out);
                }
            }
        }
        i += 1;
    }
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
    use toolpact::schema::MAX_DEPTH;

    fn tool(schema: Value) -> Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": schema})).unwrap()
    }

    /// What the rules see of each property: pointer, siblings, types, description. The
    /// properties kept for several rules are seen exactly as the walk shows them.
    fn seen(t: &Tool) -> Vec<(String, Vec<String>, Types, Option<String>)> {
        let mut walked = Vec::new();
        let record = |p: &Property<'_, '_>| {
            (
                p.pointer.to_owned(),
                p.siblings.iter().map(|s| (*s).to_owned()).collect(),
                p.types(),
                p.description().map(str::to_owned),
            )
        };
        for_each_property(t, &mut |p| walked.push(record(p)));
        let mut kept = Vec::new();
        Properties::of(t).for_each(&mut |p| kept.push(record(p)));
        assert_eq!(kept, walked);
        walked
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
            "not": {"properties": {"never": {}}},
            "$defs": {"node": {"type": "object", "description": "A node", "properties": {"next": {"$ref": "#/$defs/node"}}}}
        }));
        let found = seen(&t);
        let pointers: Vec<&str> = found.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(
            pointers,
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
        assert_eq!(found[2].3.as_deref(), Some("A node"));
        assert!(found[2].2.contains("object"));
        assert_eq!(found[6].1, ["kind", "x", "a", "list", "node"]);
        assert_eq!(found[4].1, ["b"]);
    }

    #[test]
    fn branches_of_branches_inherit_every_enclosing_name() {
        let t = tool(json!({
            "properties": {"a": {}},
            "anyOf": [{"properties": {"b": {}}, "allOf": [{"properties": {"a": {}, "b": {}, "c": {}}}]}]
        }));
        let found = seen(&t);
        let pointers: Vec<&str> = found.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/inputSchema/properties/a",
                "/inputSchema/anyOf/0/properties/b",
                "/inputSchema/anyOf/0/allOf/0/properties/c",
            ]
        );
        assert_eq!(found[2].1, ["a", "b", "c"]);
    }

    #[test]
    fn stops_at_the_depth_bound() {
        let mut schema = json!({"type": "string"});
        for _ in 0..200 {
            schema = json!({"type": "object", "properties": {"p": schema}});
        }
        let t = tool(schema);
        let found = seen(&t).len();
        assert!(found > 0 && found <= MAX_DEPTH + 1, "{found}");
    }

    #[test]
    fn reads_through_nullable_unions_and_survives_ref_cycles() {
        let t = tool(json!({
            "properties": {
                "d": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
                "loop": {"$ref": "#/$defs/a"},
                "odd": {"type": ["date", "null"], "items": {}}
            },
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}
        }));
        let mut checked = 0;
        for_each_property(&t, &mut |p| {
            match p.name {
                "d" => {
                    assert!(p.types().contains("string") && !p.types().contains("null"));
                    assert_eq!(p.keyword("format"), Some(&json!("date")));
                    assert!(p.may_be("string") && !p.may_be("integer"));
                }
                "loop" => {
                    assert!(p.types().is_empty());
                    assert!(p.may_be("integer"));
                }
                "odd" => {
                    assert!(!p.types().is_empty() && !p.may_be("string"));
                    assert!(!p.is_array());
                }
                _ => {}
            }
            checked += 1;
        });
        assert_eq!(checked, 3);
    }
}
