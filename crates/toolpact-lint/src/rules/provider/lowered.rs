//! What the provider rules read from an export: each tool as the target received it, matched
//! to its place in the catalog; the subschemas of a lowered schema; pointers from a lowered
//! schema back into the tool as written; and findings that several targets share.
//!
//! The rules never lower anything themselves: they read [`crate::context::Context::exports`],
//! which holds what `toolpact convert` would send, so a finding and the converted payload
//! cannot disagree.

use crate::context::{Context, TargetExport};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use toolpact::schema::{MAX_DEPTH, child_pointer, resolve_local_ref};
use toolpact::{Target, Tool};

/// One tool as a target received it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sent<'a> {
    /// The tool's position in the catalog.
    pub index: usize,
    /// The tool as written.
    pub tool: &'a Tool,
    /// The name the target saw (rewritten when the target's naming rule required it).
    pub name: &'a str,
    /// The target's payload item for the tool.
    item: &'a Value,
    target: Target,
}

impl<'a> Sent<'a> {
    /// A field of the function definition (`function.<key>` for OpenAI Chat).
    fn field(&self, key: &str) -> Option<&'a Value> {
        field(self.target, self.item, key)
    }

    /// The description the target received.
    pub fn description(&self) -> Option<&'a str> {
        self.field("description").and_then(Value::as_str)
    }

    /// The input schema the target received (`parameters`, `input_schema`, …), as lowered.
    pub fn input_schema(&self) -> Option<&'a Value> {
        self.field(match self.target {
            Target::Mcp => "inputSchema",
            Target::OpenAiResponses | Target::OpenAiChat | Target::Gemini => "parameters",
            Target::Anthropic => "input_schema",
            Target::GeminiJson => "parametersJsonSchema",
        })
    }
}

fn field<'a>(target: Target, item: &'a Value, key: &str) -> Option<&'a Value> {
    match target {
        Target::OpenAiChat => item.get("function")?.get(key),
        _ => item.get(key),
    }
}

/// The tool definitions of a payload, whatever the envelope around them.
fn payload_items(target: Target, payload: &Value) -> &[Value] {
    let list = match target {
        Target::Mcp => payload.get("tools"),
        Target::OpenAiResponses | Target::OpenAiChat | Target::Anthropic => Some(payload),
        Target::Gemini | Target::GeminiJson => payload
            .get(0)
            .and_then(|tool| tool.get("functionDeclarations")),
    };
    list.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// The tools an export sent, in catalog order. The export keeps every tool it does not leave
/// out, in order, so the payload lines up with the catalog once the left-out tools are
/// skipped; the name map confirms each pair, and an item that does not match is skipped
/// rather than reported against the wrong tool.
pub(crate) fn sent<'c>(cx: &'c Context<'_>, export: &TargetExport<'c>) -> Vec<Sent<'c>> {
    let left_out: HashSet<usize> = export
        .export
        .report
        .left_out
        .iter()
        .map(|u| u.index)
        .collect();
    let items = payload_items(export.target, &export.export.payload);
    cx.tools()
        .filter(|(index, _)| !left_out.contains(index))
        .zip(items)
        .filter_map(|((index, tool), item)| {
            let name = field(export.target, item, "name")?.as_str()?;
            (export.export.names.original(name) == Some(tool.name.as_str())).then_some(Sent {
                index,
                tool,
                name,
                item,
                target: export.target,
            })
        })
        .collect()
}

/// Calls `f` with each direct subschema of `node` and its pointer (`pointer` is the node's):
/// the library's own walk, so that the linter and the lowering agree on what a subschema is.
pub(crate) fn for_each_child<'v>(
    node: &'v Value,
    pointer: &str,
    f: &mut dyn FnMut(&'v Value, String),
) {
    toolpact::schema::for_each_subschema(node, pointer, f);
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
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
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

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `120000` → `120,000`, for limits people read.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
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

    #[test]
    fn numbers_and_lists_read_well() {
        assert_eq!(thousands(120_000), "120,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        let l = |v: &[&str]| join(&v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(l(&["a"]), "a");
        assert_eq!(l(&["a", "b"]), "a and b");
        assert_eq!(l(&["a", "b", "c"]), "a, b and c");
    }
}
