//! The subschemas of a tool's input and output schemas, each with its JSON pointer and the
//! keyword that holds it, for the structure rules that look at every level of a schema.
//!
//! Walks stop at [`MAX_DEPTH`]: a deeper schema is refused elsewhere, and a bound keeps a
//! hostile catalog from exhausting the stack.

use serde_json::Value;
use toolpact::Tool;
use toolpact::schema::{ARRAY_KEYWORDS, MAP_KEYWORDS, MAX_DEPTH, SINGLE_KEYWORDS, child_pointer};

/// The keywords that apply their subschemas to the same instance as the parent, so that
/// what the parent declares also holds inside them.
pub(crate) const SAME_INSTANCE: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
];

/// One direct subschema: the schema, its pointer, and the keyword that holds it.
pub(crate) struct Child<'v> {
    /// The subschema.
    pub value: &'v Value,
    /// Its JSON pointer, from the tool's root.
    pub pointer: String,
    /// The keyword it sits under (`properties`, `anyOf`, `items`, …).
    pub keyword: &'static str,
}

/// The direct subschemas of `node`, in document order.
pub(crate) fn children<'v>(node: &'v Value, pointer: &str) -> Vec<Child<'v>> {
    let mut out = Vec::new();
    let Some(obj) = node.as_object() else {
        return out;
    };
    for (key, value) in obj {
        if let Some(&keyword) = MAP_KEYWORDS.iter().find(|k| **k == key) {
            if let Some(map) = value.as_object() {
                let base = child_pointer(pointer, keyword);
                out.extend(map.iter().map(|(name, sub)| Child {
                    value: sub,
                    pointer: child_pointer(&base, name),
                    keyword,
                }));
            }
        } else if let Some(&keyword) = ARRAY_KEYWORDS
            .iter()
            .chain(&["items"])
            .find(|k| **k == key && value.is_array())
        {
            if let Some(items) = value.as_array() {
                let base = child_pointer(pointer, keyword);
                out.extend(items.iter().enumerate().map(|(i, sub)| Child {
                    value: sub,
                    pointer: child_pointer(&base, &i.to_string()),
                    keyword,
                }));
            }
        } else if let Some(&keyword) = SINGLE_KEYWORDS.iter().find(|k| **k == key) {
            out.push(Child {
                value,
                pointer: child_pointer(pointer, keyword),
                keyword,
            });
        }
    }
    out
}

/// The tool's schemas with the pointer of each: the input schema, then the output schema.
pub(crate) fn tool_schemas(tool: &Tool) -> impl Iterator<Item = (&Value, &'static str)> {
    [
        Some((&tool.input_schema, "/inputSchema")),
        tool.output_schema.as_ref().map(|s| (s, "/outputSchema")),
    ]
    .into_iter()
    .flatten()
}

/// Calls `f` with every schema object in `schema` (the root included) and its pointer,
/// parents before children.
pub(crate) fn walk<'v>(schema: &'v Value, pointer: &str, f: &mut dyn FnMut(&'v Value, &str)) {
    fn go<'v>(node: &'v Value, pointer: &str, depth: usize, f: &mut dyn FnMut(&'v Value, &str)) {
        if depth > MAX_DEPTH || !node.is_object() {
            return;
        }
        f(node, pointer);
        for child in children(node, pointer) {
            go(child.value, &child.pointer, depth + 1, f);
        }
    }
    go(schema, pointer, 0, f);
}

/// Whether the schema's `type` is `name`, alone or in a list of types.
pub(crate) fn has_type(schema: &Value, name: &str) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(types)) => types.iter().any(|t| t.as_str() == Some(name)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn walks_every_level_with_pointers() {
        let schema = json!({
            "type": "object",
            "properties": {"a/b": {"type": "array", "items": {"type": "string"}}},
            "anyOf": [{"required": ["a/b"]}]
        });
        let mut seen = Vec::new();
        walk(&schema, "/inputSchema", &mut |_, p| seen.push(p.to_owned()));
        assert_eq!(
            seen,
            [
                "/inputSchema",
                "/inputSchema/properties/a~1b",
                "/inputSchema/properties/a~1b/items",
                "/inputSchema/anyOf/0",
            ]
        );
    }

    #[test]
    fn stops_at_the_depth_bound() {
        let mut deep = json!({"type": "string"});
        for _ in 0..(MAX_DEPTH * 2) {
            deep = json!({"type": "array", "items": deep});
        }
        let mut count = 0;
        walk(&deep, "", &mut |_, _| count += 1);
        assert_eq!(count, MAX_DEPTH + 1);
    }
}
