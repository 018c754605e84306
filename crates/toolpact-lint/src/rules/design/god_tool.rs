use crate::analysis::schema::{field, properties, property_counts, resolved};
use crate::analysis::words::identifier_words;
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;
use toolpact::json::child_pointer;

declare_rule! {
    /// ## What it does
    /// Finds "god tools": one tool that does the work of several.
    ///
    /// A tool is reported when its name promises everything (`do_everything`, `handle_all`,
    /// `manage_orders`), when a property such as `action` or `operation` switches between
    /// four or more operations, when its input has more than `max-properties` top-level
    /// properties (default 15), or when more than `max-optional` of them (default 12) are
    /// optional or nullable.
    ///
    /// ## Why is this bad?
    /// The model picks a tool by its name and description, then fills its schema. A tool that
    /// searches, shows details, orders and refunds has a description too long to read and a
    /// schema where most fields apply only to some actions: the model fills fields that do
    /// not apply, leaves out those that do, and cannot tell which calls are safe. Clients
    /// cannot ask for confirmation on "order" but not on "search" when both are one tool.
    ///
    /// ## Example
    /// ```json
    /// {"name": "do_everything", "inputSchema": {"type": "object", "properties": {
    ///   "action": {"type": "string", "enum": ["search", "details", "order", "cancel", "refund"]},
    ///   "query": {"type": ["string", "null"]}, "giftId": {"type": ["string", "null"]},
    ///   "quantity": {"type": ["integer", "null"]}, "refundAmount": {"type": ["number", "null"]}
    /// }, "required": ["action"]}}
    /// ```
    ///
    /// ## Use instead
    /// Focused tools, each with only the arguments it needs and its own annotations:
    /// `search_gifts(query)` (read-only), `get_gift(giftId)` (read-only),
    /// `create_order(giftId, quantity)` (destructive), `refund_order(orderId, amount)`
    /// (destructive).
    ///
    /// ## References
    /// - A tool that does everything is better split into focused tools
    /// - A long description usually means the tool does too much
    pub struct GodTool {
        code: "TP203",
        name: "god-tool",
        category: Design,
        severity: Warning,
        options: [
            RuleOption { name: "max-properties", default: 15, doc: "the most top-level properties a tool may have" },
            RuleOption { name: "max-optional", default: 12, doc: "the most top-level properties that may be optional or nullable" },
        ],
    }
}

/// Property names that pick an operation. (`op` is left out: it is usually a comparison
/// operator, `eq` or `lt`.)
const SWITCH_NAMES: &[&str] = &["action", "operation", "command", "cmd", "task"];

/// How many values make a switch a god tool's.
const MIN_OPERATIONS: usize = 4;

/// Words that make a name promise everything.
const EVERYTHING: &[&str] = &["everything", "anything", "whatever", "omni", "universal"];

/// Verbs that say nothing of what is done; with `all` or `any`, or `manage` with anything,
/// they name a tool that does every operation.
const GENERIC_VERBS: &[&str] = &[
    "do", "handle", "manage", "process", "run", "execute", "perform",
];

/// Why the name promises too much, if it does.
fn name_reason(name: &str) -> Option<String> {
    let words = identifier_words(name);
    if let Some(word) = words.iter().find(|w| EVERYTHING.contains(&w.as_str())) {
        return Some(format!("its name promises {word}"));
    }
    let first = words.first()?.as_str();
    if first == "manage" {
        return Some("its name (`manage…`) promises every operation on a thing".to_owned());
    }
    if GENERIC_VERBS.contains(&first) && words.iter().any(|w| w == "all" || w == "any") {
        return Some("its name promises to handle all requests".to_owned());
    }
    None
}

/// The property that switches between operations, with its values, if any.
fn switch(root: &Value) -> Option<(&str, Vec<String>)> {
    properties(root)?.iter().find_map(|(name, raw)| {
        let (schema, _) = resolved(root, raw);
        if !SWITCH_NAMES.iter().any(|s| s.eq_ignore_ascii_case(name)) {
            return None;
        }
        let values: Vec<String> = field(schema, "enum")
            .and_then(Value::as_array)?
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        (values.len() >= MIN_OPERATIONS).then_some((name.as_str(), values))
    })
}

impl Rule for GodTool {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for GodTool {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let max_properties = cx.option(&Self::META, "max-properties");
        let max_optional = cx.option(&Self::META, "max-optional");
        let root = &tool.input_schema;
        let mut reasons = Vec::new();
        let mut pointer = None;
        if let Some(reason) = name_reason(&tool.name) {
            reasons.push(reason);
            pointer = Some("/name".to_owned());
        }
        let switch = switch(root);
        if let Some((name, values)) = &switch {
            reasons.push(format!(
                "`{name}` switches between {} operations",
                values.len()
            ));
            pointer.get_or_insert_with(|| {
                child_pointer(&child_pointer("/inputSchema/properties", name), "enum")
            });
        }
        let counts = property_counts(root, root);
        let total = counts.total as u64;
        let loose = (counts.optional + counts.nullable) as u64;
        if total > max_properties {
            reasons.push(format!(
                "it has {total} properties (more than {max_properties})"
            ));
        }
        if loose > max_optional {
            reasons.push(format!(
                "{loose} of its properties are optional or nullable (more than {max_optional})"
            ));
        }
        if reasons.is_empty() {
            return;
        }
        let pointer = pointer.unwrap_or_else(|| "/inputSchema/properties".to_owned());
        let help = match &switch {
            Some((name, values)) => format!(
                "split it into one focused tool per `{name}` ({}), each with only the properties it needs and its own annotations",
                values
                    .iter()
                    .take(6)
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
                    + if values.len() > 6 { ", …" } else { "" }
            ),
            None => {
                let words = identifier_words(&tool.name);
                let object = words
                    .get(1..)
                    .filter(|w| !w.is_empty() && words[0] == "manage");
                match object {
                    Some(object) => {
                        let object = object.join("_");
                        format!(
                            "split it into focused tools, one per operation (`get_{object}`, `update_{object}`, `cancel_{object}`, …), each with only the properties it needs and its own annotations"
                        )
                    }
                    None => "split it into focused tools, one per operation (search, details, order, …), each with only the properties it needs and its own annotations".to_owned(),
                }
            }
        };
        out.push(Violation {
            tool: Some(i),
            pointer,
            message: format!(
                "`{}` does the work of several tools: {}",
                tool.name,
                reasons.join("; ")
            ),
            help: help.into(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::name_reason;

    #[test]
    fn names_that_promise_everything() {
        assert!(name_reason("do_everything").is_some());
        assert!(name_reason("handleAll").is_some());
        assert!(name_reason("manage_orders").is_some());
        assert!(name_reason("process_any_request").is_some());
        assert!(name_reason("list_all_orders").is_none());
        assert!(name_reason("process_payment").is_none());
        assert!(name_reason("").is_none());
    }
}
