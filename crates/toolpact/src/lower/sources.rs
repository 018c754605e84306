//! Where each part of a lowered schema comes from: the [`SourceMap`] the lowering walker
//! records as it inlines, renames, merges and wraps, so that a reader of the lowered schema
//! (a lint rule, an error message) can point at what the author wrote.

use crate::json::{at_pointer, unescape_token};
use serde_json::Value;
use std::collections::BTreeMap;

/// Maps each JSON pointer of a lowered schema to the pointer of the schema as written that
/// it comes from. Both pointers are relative to their schema's root (`""` is the root).
///
/// Lowering keeps most of a schema where it was; the map records only the places where it
/// moved something, and a pointer is mapped through the longest recorded prefix, the rest
/// of it following unchanged. It records: an inlined `$ref` (the pointer continues inside
/// the definition; keywords written beside the `$ref` keep their own place), `oneOf`
/// written as `anyOf`, `allOf` branches merged into their parent (each merged keyword and
/// property points into the branch that declared it), the `anyOf` wrapper that makes an
/// optional property nullable in strict mode, the null branches Gemini folds into
/// `nullable` (the branches after them shift, a single one left is merged into its parent),
/// `const` written as `enum` and `examples` as `example`.
///
/// A pointer to something lowering added (an `additionalProperties: false`, an empty
/// `properties`, the null branch of a wrapper) maps to a place that does not exist in the
/// schema as written; [`SourceMap::original_in`] stops at the deepest node that does.
/// A schema sent as written has the empty map: every pointer maps to itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// Each recorded node of the lowered schema, and what is below it, by where it comes
    /// from.
    moved: BTreeMap<String, String>,
    /// Each lowered node whose members come from the members of the same name of another
    /// node (an inlined definition's keywords): by that node, for the members it has. The
    /// node itself keeps its own place; a member recorded in `moved` wins.
    members: BTreeMap<String, String>,
}

impl SourceMap {
    /// The pointer in `schema`, the schema as written, that `lowered`, a pointer into the
    /// lowered schema, comes from.
    pub fn original(&self, lowered: &str, schema: &Value) -> String {
        let mut prefix = lowered;
        loop {
            if let Some(source) = self.moved.get(prefix) {
                return format!("{source}{}", &lowered[prefix.len()..]);
            }
            let Some(cut) = prefix.rfind('/') else {
                return lowered.to_owned();
            };
            let parent = &prefix[..cut];
            if let Some(source) = self.members.get(parent)
                && let Some(Value::Object(node)) = at_pointer(schema, source)
                && node.contains_key(unescape_token(&prefix[cut + 1..]).as_ref())
            {
                return format!("{source}{}", &lowered[parent.len()..]);
            }
            prefix = parent;
        }
    }

    /// [`SourceMap::original`], cut to the deepest node that exists in `schema`, the schema
    /// as written: where lowering added what the author did not write, the pointer lands on
    /// the node it was added to.
    pub fn original_in(&self, lowered: &str, schema: &Value) -> String {
        let original = self.original(lowered, schema);
        let mut node = schema;
        let mut end = 0;
        for token in original.split('/').skip(1) {
            let next = match node {
                Value::Object(map) => map.get(unescape_token(token).as_ref()),
                Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            };
            let Some(next) = next else { break };
            node = next;
            end += 1 + token.len();
        }
        original[..end].to_owned()
    }

    /// Whether the lowered schema is the schema as written, place for place.
    pub fn is_identity(&self) -> bool {
        self.moved.is_empty() && self.members.is_empty()
    }

    /// Records that `lowered`, and what is below it, comes from `source`.
    pub(crate) fn record(&mut self, lowered: String, source: String) {
        self.moved.insert(lowered, source);
    }

    /// Whether `lowered` itself has a record (not through a prefix).
    pub(crate) fn has_record(&self, lowered: &str) -> bool {
        self.moved.contains_key(lowered)
    }

    /// Records that the members of `lowered` come from the members of the same name of
    /// `source` (those it has), over any such record before; `lowered` itself keeps its
    /// place, and a member recorded on its own keeps its record.
    pub(crate) fn record_members(&mut self, lowered: String, source: String) {
        self.members.insert(lowered, source);
    }

    /// Moves every record at `from` or below it to the same place under `to`.
    pub(crate) fn move_under(&mut self, from: &str, to: &str) {
        move_under(&mut self.moved, from, to);
        move_under(&mut self.members, from, to);
    }

    /// Removes every record at `prefix` or below it.
    pub(crate) fn forget_under(&mut self, prefix: &str) {
        forget_under(&mut self.moved, prefix);
        forget_under(&mut self.members, prefix);
    }
}

/// Moves every entry of `map` at `from` or below it (by JSON pointer) to the same place under
/// `to`.
pub(crate) fn move_under<V>(map: &mut BTreeMap<String, V>, from: &str, to: &str) {
    for key in under(map, from) {
        if let Some(value) = map.remove(&key) {
            map.insert(format!("{to}{}", &key[from.len()..]), value);
        }
    }
}

/// Removes every entry of `map` at `prefix` or below it (by JSON pointer).
pub(crate) fn forget_under<V>(map: &mut BTreeMap<String, V>, prefix: &str) {
    for key in under(map, prefix) {
        map.remove(&key);
    }
}

/// The keys of `map` at `prefix` and below it (at JSON pointer token boundaries).
pub(crate) fn under<V>(map: &BTreeMap<String, V>, prefix: &str) -> Vec<String> {
    map.range::<str, _>((
        std::ops::Bound::Included(prefix),
        std::ops::Bound::Unbounded,
    ))
    .map(|(key, _)| key)
    .take_while(|key| key.starts_with(prefix))
    .filter(|key| key.len() == prefix.len() || key.as_bytes()[prefix.len()] == b'/')
    .cloned()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(entries: &[(&str, &str)]) -> SourceMap {
        SourceMap {
            moved: entries
                .iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect(),
            members: BTreeMap::new(),
        }
    }

    #[test]
    fn maps_through_the_longest_recorded_prefix() {
        let m = map(&[
            ("/properties/a", "/$defs/A"),
            ("/properties/a/description", "/properties/a/description"),
            ("/properties/b/anyOf", "/properties/b/oneOf"),
        ]);
        assert_eq!(
            m.original("/properties/a/properties/x", &Value::Null),
            "/$defs/A/properties/x"
        );
        assert_eq!(
            m.original("/properties/a/description", &Value::Null),
            "/properties/a/description"
        );
        assert_eq!(
            m.original("/properties/b/anyOf/1", &Value::Null),
            "/properties/b/oneOf/1"
        );
        // A sibling whose name starts with a recorded one is not under it.
        assert_eq!(m.original("/properties/ab", &Value::Null), "/properties/ab");
        assert_eq!(m.original("", &Value::Null), "");
        assert!(SourceMap::default().original("/x/y", &Value::Null) == "/x/y");
    }

    #[test]
    fn members_come_from_the_definition_where_it_has_them() {
        let schema = json!({
            "properties": { "a": { "$ref": "#/$defs/A", "description": "beside" } },
            "$defs": { "A": { "type": "object", "properties": { "x": {} } } }
        });
        let mut m = SourceMap::default();
        m.record(
            "/properties/a/description".to_owned(),
            "/properties/a/description".to_owned(),
        );
        m.record_members("/properties/a".to_owned(), "/$defs/A".to_owned());
        // The definition's keywords, and what is below them.
        assert_eq!(
            m.original("/properties/a/properties/x/type", &schema),
            "/$defs/A/properties/x/type"
        );
        assert_eq!(m.original("/properties/a/type", &schema), "/$defs/A/type");
        // A keyword recorded on its own wins; the node keeps its place; what the
        // definition does not have (added by lowering) stays under the node.
        assert_eq!(
            m.original("/properties/a/description", &schema),
            "/properties/a/description"
        );
        assert_eq!(m.original("/properties/a", &schema), "/properties/a");
        assert_eq!(
            m.original("/properties/a/additionalProperties", &schema),
            "/properties/a/additionalProperties"
        );
        assert!(!m.is_identity());
        // Records move and go with their node.
        m.move_under("/properties/a", "/properties/b");
        assert_eq!(m.original("/properties/b/type", &schema), "/$defs/A/type");
        m.forget_under("/properties/b");
        assert!(m.is_identity());
    }

    #[test]
    fn original_in_stops_at_the_deepest_node_written() {
        let schema = json!({"properties": {"a~b": {"type": "string"}, "list": {"items": [true]}}});
        let m = SourceMap::default();
        assert_eq!(
            m.original_in("/properties/a~0b/additionalProperties", &schema),
            "/properties/a~0b"
        );
        assert_eq!(
            m.original_in("/properties/list/items/0", &schema),
            "/properties/list/items/0"
        );
        assert_eq!(m.original_in("/required", &schema), "");
    }

    #[test]
    fn records_below_a_prefix_are_found_at_token_boundaries() {
        let m = map(&[("/a", "x"), ("/a/b", "y"), ("/ab", "z"), ("/a/b/c", "w")]);
        assert_eq!(under(&m.moved, "/a"), vec!["/a", "/a/b", "/a/b/c"]);
        assert_eq!(under(&m.moved, "/a/b"), vec!["/a/b", "/a/b/c"]);
    }
}

#[cfg(test)]
mod walker_tests {
    use crate::export::{Exporter, LoweredTool};
    use crate::provider::{ExportOptions, Target};
    use crate::tool::Tool;
    use serde_json::{Value, json};

    fn tool(schema: Value) -> Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": schema})).unwrap()
    }

    fn lowered(tool: &Tool, target: Target, strict: bool) -> LoweredTool<'_> {
        let exporter = Exporter::new(target, ExportOptions { strict }).unwrap();
        let named = exporter.name_all([tool]).pop().unwrap().unwrap();
        exporter.lower(tool, &named).unwrap()
    }

    /// Each pointer names a node of the lowered schema, and maps to the node it comes from.
    fn assert_origins(lowered: &LoweredTool<'_>, cases: &[(&str, &str)]) {
        let schema = lowered.input_schema.as_deref().unwrap();
        for (pointer, origin) in cases {
            assert!(
                schema.pointer(pointer).is_some(),
                "{pointer} is not in the lowered schema {schema:#}"
            );
            assert_eq!(lowered.input_origin(pointer), *origin, "for {pointer}");
        }
    }

    #[test]
    fn strict_mode_maps_inlined_renamed_merged_and_wrapped_nodes() {
        let t = tool(json!({
            "type": "object",
            "properties": {
                "a": {"$ref": "#/$defs/A", "description": "inlined with a sibling"},
                "b": {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/A", "title": "x"}]},
                "c": {"allOf": [
                    {"properties": {"x": {"type": "string"}}},
                    {"$ref": "#/$defs/A", "description": "merged"}
                ]},
                "d": {"$ref": "#/$defs/A"}
            },
            "required": ["a", "b", "c"],
            "$defs": {"A": {"type": "object", "properties": {"deep": {"type": "string"}}}}
        }));
        let lowered = lowered(&t, Target::OpenAiResponses, true);
        assert_origins(
            &lowered,
            &[
                (
                    "/properties/a/properties/deep",
                    "/inputSchema/$defs/A/properties/deep",
                ),
                (
                    "/properties/a/description",
                    "/inputSchema/properties/a/description",
                ),
                ("/properties/b/anyOf/0", "/inputSchema/properties/b/oneOf/0"),
                (
                    "/properties/b/anyOf/1/properties/deep",
                    "/inputSchema/$defs/A/properties/deep",
                ),
                (
                    "/properties/c/properties/x",
                    "/inputSchema/properties/c/allOf/0/properties/x",
                ),
                (
                    "/properties/c/properties/deep",
                    "/inputSchema/$defs/A/properties/deep",
                ),
                (
                    "/properties/c/description",
                    "/inputSchema/properties/c/allOf/1/description",
                ),
                ("/properties/c/type", "/inputSchema/$defs/A/type"),
                // `d` is optional: strict mode wraps its bare `$ref` in a nullable `anyOf`.
                ("/properties/d/anyOf/0", "/inputSchema/properties/d"),
                (
                    "/properties/d/anyOf/0/$ref",
                    "/inputSchema/properties/d/$ref",
                ),
                ("/properties/d/anyOf/1", "/inputSchema/properties/d"),
                // What lowering added lands on the node it was added to.
                (
                    "/properties/a/additionalProperties",
                    "/inputSchema/properties/a",
                ),
                ("/additionalProperties", "/inputSchema"),
                ("", "/inputSchema"),
            ],
        );
    }

    #[test]
    fn gemini_maps_folded_null_branches_const_and_examples() {
        let t = tool(json!({
            "type": "object",
            "properties": {
                "one": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/B"}]},
                "many": {"oneOf": [{"type": "null"}, {"type": "string", "format": "email"}, {"$ref": "#/$defs/B"}]},
                "fixed": {"const": 3, "examples": [3]}
            },
            "$defs": {"B": {"type": "object", "properties": {"k": {"type": "integer", "minimum": 1}}}}
        }));
        let lowered = lowered(&t, Target::Gemini, false);
        assert_origins(
            &lowered,
            &[
                (
                    "/properties/one/properties/k",
                    "/inputSchema/$defs/B/properties/k",
                ),
                ("/properties/one/type", "/inputSchema/$defs/B/type"),
                (
                    "/properties/many/anyOf/0",
                    "/inputSchema/properties/many/oneOf/1",
                ),
                (
                    "/properties/many/anyOf/0/type",
                    "/inputSchema/properties/many/oneOf/1/type",
                ),
                (
                    "/properties/many/anyOf/1/properties/k",
                    "/inputSchema/$defs/B/properties/k",
                ),
                (
                    "/properties/fixed/enum",
                    "/inputSchema/properties/fixed/const",
                ),
                (
                    "/properties/fixed/example",
                    "/inputSchema/properties/fixed/examples/0",
                ),
            ],
        );
    }

    #[test]
    fn a_schema_sent_as_written_maps_to_itself() {
        let t = tool(
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {}}}),
        );
        let lowered = lowered(&t, Target::Anthropic, false);
        assert!(lowered.input_sources.is_identity());
        assert_origins(
            &lowered,
            &[("/properties/a/$ref", "/inputSchema/properties/a/$ref")],
        );
    }
}
