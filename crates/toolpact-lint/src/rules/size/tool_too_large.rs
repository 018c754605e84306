use crate::analysis::message::thousands;
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;
use toolpact::json::child_pointer;

declare_rule! {
    /// ## What it does
    /// Measures each whole tool — name, description, schemas with every nested object and
    /// enum, annotations, `_meta` — as compact JSON, and reports tools over a byte budget
    /// (4,096 bytes unless configured), naming the parts that weigh most.
    ///
    /// ## Why is this bad?
    /// Oversized tools fail in clients in confusing ways: "Tool description is too long",
    /// "Manifest exceeds size limits", or the tool silently disappears from the list. They
    /// also cost tokens on every request. A tool that needs more than about 4 KB to describe
    /// usually does too much, and the model uses it worse than two focused tools.
    ///
    /// ## Example
    /// A `manage_orders` tool whose input schema holds search filters, order creation,
    /// cancellation and refunds, with long descriptions on each of forty properties:
    /// 9,800 bytes.
    ///
    /// ## Use instead
    /// `search_orders`, `create_order`, `cancel_order` and `refund_order`, each with only
    /// its own properties and a description of a few sentences — each well under 4 KB.
    ///
    /// ## References
    /// - A definition stays small, and a tool that does everything is better split (see
    ///   `god-tool`)
    /// - Claude Code: MCP tool descriptions are truncated at 2,048 characters
    ///   (`docs/providers.md#claude-code`)
    pub struct ToolTooLarge {
        code: "TP401",
        name: "tool-too-large",
        category: Size,
        severity: Warning,
        options: [RuleOption {
            name: "max-bytes",
            default: 4096,
            doc: "the most bytes of compact JSON a tool may take",
        }],
    }
}

/// Counts the bytes written to it, so that a size is known without building the text.
struct ByteCount(usize);

impl std::io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The size of the tool's compact JSON.
fn compact_size(tool: &toolpact::Tool) -> usize {
    let mut count = ByteCount(0);
    match serde_json::to_writer(&mut count, tool) {
        Ok(()) => count.0,
        Err(_) => 0,
    }
}

/// Compact JSON size of `value` as a member `"key":value`, with its separator.
fn member_size(key: &str, value: &Value) -> usize {
    Value::String(key.to_owned()).to_string().len() + value.to_string().len() + 2
}

/// The members of an object (of its `properties`, for a schema), heaviest first, as
/// (pointer, bytes).
fn members(node: &Value, pointer: &str) -> Parts {
    let (container, base) = match node.get("properties") {
        Some(props) => (props, child_pointer(pointer, "properties")),
        None => (node, pointer.to_owned()),
    };
    let mut out: Parts = container
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (child_pointer(&base, k), member_size(k, v)))
        .collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// Parts of a tool with their sizes, as (pointer, bytes).
type Parts = Vec<(String, usize)>;

/// How many parts the message names where the weight is spread out.
const PARTS: usize = 3;

/// Where the bytes are: the heaviest part of the tool, followed down while one part holds
/// at least half of its parent, then the heaviest parts at the level where the weight
/// spreads out.
fn where_the_bytes_are(tool: &Value) -> (Parts, Parts) {
    let mut chain = Vec::new();
    let mut level = members(tool, "");
    for _ in 0..6 {
        let Some((pointer, size)) = level.first().cloned() else {
            break;
        };
        let parent = chain
            .last()
            .map_or_else(|| tool.to_string().len(), |(_, s): &(String, usize)| *s);
        if size.saturating_mul(2) < parent {
            break;
        }
        let next = tool.pointer(&pointer).map(|node| members(node, &pointer));
        chain.push((pointer, size));
        level = next.unwrap_or_default();
    }
    level.truncate(PARTS);
    (chain, level)
}

impl Rule for ToolTooLarge {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for ToolTooLarge {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let max = usize::try_from(cx.option(&Self::META, "max-bytes")).unwrap_or(usize::MAX);
        let bytes = compact_size(tool);
        if bytes <= max {
            return;
        }
        let Ok(value) = serde_json::to_value(tool) else {
            return;
        };
        let (chain, spread) = where_the_bytes_are(&value);
        let show = |parts: &[(String, usize)]| {
            parts
                .iter()
                .map(|(pointer, size)| format!("{pointer} ({} bytes)", thousands(*size)))
                .collect::<Vec<_>>()
        };
        let weight = match (chain.is_empty(), spread.is_empty()) {
            (false, true) => format!("the weight is in {}", show(&chain).join(", of which ")),
            (false, false) => format!(
                "the weight is in {}; its heaviest parts: {}",
                show(&chain).join(", of which "),
                show(&spread).join(", ")
            ),
            (true, _) => format!("the heaviest parts: {}", show(&spread).join(", ")),
        };
        out.push(Violation {
            tool: Some(i),
            pointer: String::new(),
            message: format!(
                "the tool is {} bytes of compact JSON, over the {}-byte budget; {weight}",
                thousands(bytes),
                thousands(max)
            ),
            help: "split the tool into focused tools with only their own properties, and cut descriptions to what the model needs; clients truncate or drop oversized tools".into(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn measures_compact_json() {
        let tool = toolpact::Tool::new("t", "d", json!({"type": "object"}));
        assert_eq!(
            compact_size(&tool),
            serde_json::to_string(&tool)
                .map(|s| s.len())
                .unwrap_or_default()
        );
    }

    #[test]
    fn follows_the_weight_down_the_properties() {
        let big = "x".repeat(2000);
        let tool = json!({
            "name": "t",
            "inputSchema": {"type": "object", "properties": {
                "a": {"type": "string"},
                "filters": {"type": "object", "properties": {
                    "q": {"type": "string", "description": big},
                    "r": {"type": "string", "description": "short"}
                }}
            }}
        });
        let (chain, spread) = where_the_bytes_are(&tool);
        let pointers: Vec<&str> = chain.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/inputSchema",
                "/inputSchema/properties/filters",
                "/inputSchema/properties/filters/properties/q",
                "/inputSchema/properties/filters/properties/q/description",
            ]
        );
        assert!(spread.is_empty());
        let flat = json!({"name": "t", "description": "d".repeat(900), "inputSchema": {"type": "object", "properties": {
            "a": {"type": "string", "description": "a".repeat(300)},
            "b": {"type": "string", "description": "b".repeat(200)},
            "c": {"type": "string", "description": "c".repeat(100)}
        }}});
        let (chain, spread) = where_the_bytes_are(&flat);
        assert_eq!(chain.len(), 1);
        assert_eq!(chain[0].0, "/description");
        assert!(spread.is_empty());
    }
}
