//! What the provider rules make of an export beyond the tools it sent
//! ([`crate::rules::exported`]): pointers from a lowered schema back into the tool as
//! written, and findings that several targets share.

use crate::analysis::message::join;
use crate::context::Context;
use crate::engine::blocks::{Block, BlockExport};
use crate::rule::{Part, parts_of};
use serde_json::Value;
use std::collections::HashMap;
use std::hash::Hash;
use toolpact::json::child_pointer;
use toolpact::schema::{MAX_DEPTH, resolve_local_ref};
use toolpact::{Target, Tool};

/// How many tools each export of `block` sends, in configuration order: the part of a rule
/// about how many tools a request carries.
pub(crate) fn gather_sent_counts(block: &Block<'_>) -> Part {
    Box::new(
        block
            .exports
            .iter()
            .map(BlockExport::sent_count)
            .collect::<Vec<usize>>(),
    )
}

/// How many tools each export sends over the whole catalog, with its target and whether it
/// is the strict variant, from the parts [`gather_sent_counts`] made.
pub(crate) fn sent_counts(cx: &Context<'_>, parts: Vec<Part>) -> Vec<(Target, bool, usize)> {
    let mut counts: Vec<(Target, bool, usize)> = cx
        .export_targets()
        .map(|(target, strict)| (target, strict, 0))
        .collect();
    for part in parts_of::<Vec<usize>>(parts) {
        for ((.., total), n) in counts.iter_mut().zip(part) {
            *total += n;
        }
    }
    counts
}

/// Maps a pointer into a lowered input schema (relative to its root, `""` for the root) to a
/// pointer into the tool as written (`/inputSchema/…`), so that the finding lands on the
/// text the author wrote.
///
/// Lowering keeps the shape of the schema but for four changes, which this undoes: `oneOf`
/// becomes `anyOf`; a `$ref` is replaced by its definition (the pointer continues inside the
/// definition); `allOf` branches are merged into their parent (the pointer goes into the
/// branch that declares the key); and a nullable wrapper `anyOf: [X, {"type": "null"}]` is
/// put around an optional property (the wrapper is skipped). Where the original has no
/// counterpart, the pointer stops at the deepest node that exists.
pub(crate) fn locate(tool: &Tool, lowered: &str) -> String {
    let root = &tool.input_schema;
    let base = "/inputSchema";
    let tokens: Vec<String> = lowered
        .split('/')
        .skip(1)
        .map(|t| toolpact::json::unescape_token(t).into_owned())
        .collect();
    let mut node = root;
    let mut out = base.to_owned();
    let mut jumps = 0;
    let mut i = 0;
    'tokens: while i < tokens.len() {
        let token = tokens[i].as_str();
        loop {
            if let Some(next) = step(node, token) {
                out = child_pointer(&out, token);
                node = next;
                i += 1;
                continue 'tokens;
            }
            if token == "anyOf" {
                if let Some(next) = node.get("oneOf") {
                    out = child_pointer(&out, "oneOf");
                    node = next;
                    i += 1;
                    continue 'tokens;
                }
                if tokens.get(i + 1).map(String::as_str) == Some("0") {
                    i += 2;
                    continue 'tokens;
                }
            }
            if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
                let fragment = reference
                    .strip_prefix('#')
                    .filter(|f| f.is_empty() || f.starts_with('/'));
                if let (Some(fragment), true) = (fragment, jumps < MAX_DEPTH)
                    && let Some(target) = resolve_local_ref(root, reference)
                {
                    jumps += 1;
                    node = target;
                    out = format!("{base}{fragment}");
                    continue;
                }
            }
            if let Some(Value::Array(branches)) = node.get("allOf")
                && let Some((b, branch)) = branches
                    .iter()
                    .enumerate()
                    .find(|(_, branch)| step(branch, token).is_some())
            {
                out = child_pointer(&child_pointer(&out, "allOf"), &b.to_string());
                node = branch;
                continue;
            }
            break 'tokens;
        }
    }
    out
}

fn step<'v>(node: &'v Value, token: &str) -> Option<&'v Value> {
    match node {
        Value::Object(map) => map.get(token),
        Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    }
}

/// Findings that several targets share, kept once with every target's name, in the order
/// they were first seen.
#[derive(Debug)]
pub(crate) struct ByTarget<K> {
    seen: HashMap<K, usize>,
    entries: Vec<(K, Vec<String>)>,
}

impl<K: Hash + Eq + Clone> ByTarget<K> {
    pub(crate) fn new() -> Self {
        ByTarget {
            seen: HashMap::new(),
            entries: Vec::new(),
        }
    }

    /// Records that `target` shows the finding `key`.
    pub(crate) fn add(&mut self, key: K, target: Target) {
        let label = target.as_str();
        let at = *self.seen.entry(key.clone()).or_insert_with(|| {
            self.entries.push((key, Vec::new()));
            self.entries.len() - 1
        });
        if let Some((_, labels)) = self.entries.get_mut(at)
            && !labels.iter().any(|l| l == label)
        {
            labels.push(label.to_owned());
        }
    }

    /// Each finding with the targets that show it, joined for a message (`gemini and
    /// gemini-json`).
    pub(crate) fn into_entries(self) -> impl Iterator<Item = (K, String)> {
        self.entries
            .into_iter()
            .map(|(key, labels)| (key, join(&labels)))
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
    fn locate_follows_renamed_inlined_and_merged_keywords() {
        let t = tool(json!({
            "type": "object",
            "properties": {
                "a": {"$ref": "#/$defs/A", "description": "inlined with a sibling"},
                "b": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "c": {"allOf": [{"properties": {"x": {"type": "string"}}}]},
                "d": {"$ref": "#/$defs/A"}
            },
            "$defs": {"A": {"type": "object", "properties": {"deep": {"type": "string"}}}}
        }));
        assert_eq!(
            locate(&t, "/properties/a/properties/deep"),
            "/inputSchema/$defs/A/properties/deep"
        );
        assert_eq!(
            locate(&t, "/properties/b/anyOf/1"),
            "/inputSchema/properties/b/oneOf/1"
        );
        assert_eq!(
            locate(&t, "/properties/c/properties/x"),
            "/inputSchema/properties/c/allOf/0/properties/x"
        );
        assert_eq!(
            locate(&t, "/properties/d/anyOf/0/properties/deep"),
            "/inputSchema/$defs/A/properties/deep"
        );
        assert_eq!(
            locate(&t, "/properties/zzz/items"),
            "/inputSchema/properties"
        );
        assert_eq!(locate(&t, ""), "/inputSchema");
    }
}
