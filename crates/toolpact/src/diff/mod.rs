//! Comparing two versions of a set of tools: every change to every tool's contract, with the
//! tool, the JSON pointer, a class and one line saying what changed.

mod annotations;
mod change;
mod constraint;
mod contract;
mod differ;
mod display;
mod object;
mod rename;
mod schema;
mod text;

pub use change::{Change, ChangeClass, ChangeKind};
pub use text::{TextChange, WordChange, WordOp};

use crate::canonical::{canonical_contract, utf16_cmp};
use crate::tool::Tool;
use change::change;
use differ::Differ;
use rename::probable_renames;
use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, VecDeque};

/// Every change between two versions of a set of tools.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Diff {
    /// The changes, sorted by tool name, then pointer.
    pub changes: Vec<Change>,
}

impl Diff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// The most serious class among the changes.
    pub fn max_class(&self) -> Option<ChangeClass> {
        self.changes.iter().map(|c| c.class).max()
    }

    /// How many changes are of `class`.
    pub fn count(&self, class: ChangeClass) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }

    /// The names of the tools with at least one change, sorted.
    pub fn changed_tools(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.changes.iter().map(|c| c.tool.as_str()).collect();
        names.sort_by(|a, b| utf16_cmp(a, b));
        names.dedup();
        names
    }

    /// The changes to one tool.
    pub fn of_tool<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Change> + 'a {
        self.changes.iter().filter(move |c| c.tool == name)
    }
}

/// Every change from `old` to `new`, each with its class.
///
/// # Classes
///
/// - **Breaking** for callers: a tool removed; a new required property; a property removed
///   or made required; a type, enum, range, length or item count narrowed; a `pattern` or
///   `format` added or changed; `additionalProperties` closed; a keyword whose effect cannot
///   be judged (`$ref`, `not`, `if`, …) changed. For the output schema the direction turns
///   around, since clients read results and MCP clients check them against the output
///   schema: an output property removed or no longer required, an output type changed or
///   widened, an output enum value added, the output schema removed.
/// - **Behaviour**: annotations (`readOnlyHint` going from true to false and `destructiveHint`
///   coming to apply are marked security-relevant), `_meta`, icons, a schema's `default`,
///   unknown fields and keywords.
/// - **Description**: the text the model reads: titles, descriptions (of the tool and of
///   every property) and `examples`, each with a word diff.
/// - **Compatible**: a new tool, a new optional property, an enum or range widened, a
///   required property made optional, and the same meaning written differently (`true`
///   for `{}`, `required` names reordered).
///
/// Tools are matched by name (in NFC). A tool that disappears while another appears with
/// nearly the same contract is reported as removed and added, with a "probably renamed" hint:
/// nearly the same means the same input schema with at least one property, or contracts
/// (without the name) that share at least 80% of the lines of their pretty canonical JSON
/// (the Sørensen–Dice coefficient over the lines that are more than brackets).
///
/// Contracts are compared in canonical form (see [`canonical_json`](crate::canonical::canonical_json)), so key order, `1`
/// against `1.0` and NFC against NFD never show as changes, and two tools with different
/// hashes always show at least one change. Schemas are walked through `properties`, `items`,
/// `prefixItems`, `$defs`, `anyOf`/`oneOf`/`allOf` and the other subschema keywords, at most
/// [`MAX_DEPTH`](crate::schema::MAX_DEPTH) levels deep; a change deeper than that is reported
/// once, as breaking, at the level where the walk stopped.
pub fn diff(old: &[Tool], new: &[Tool]) -> Diff {
    let old: Vec<(String, Value)> = old.iter().map(named_contract).collect();
    let new: Vec<(String, Value)> = new.iter().map(named_contract).collect();
    // Tools are paired by name; when a name appears more than once on a side, the k-th tool
    // of that name on one side pairs with the k-th on the other.
    let mut unpaired_new: HashMap<&str, VecDeque<usize>> = HashMap::new();
    for (j, (name, _)) in new.iter().enumerate() {
        unpaired_new.entry(name.as_str()).or_default().push_back(j);
    }
    let mut changes = Vec::new();
    let mut removed = Vec::new();
    let mut paired_new = vec![false; new.len()];
    for (i, (name, contract)) in old.iter().enumerate() {
        match unpaired_new
            .get_mut(name.as_str())
            .and_then(VecDeque::pop_front)
        {
            Some(j) => {
                paired_new[j] = true;
                if *contract != new[j].1 {
                    let mut differ = Differ {
                        tool: name,
                        out: &mut changes,
                    };
                    differ.tool_contract(contract, &new[j].1);
                }
            }
            None => removed.push(i),
        }
    }
    let added: Vec<usize> = (0..new.len()).filter(|&j| !paired_new[j]).collect();
    let renames = probable_renames(&old, &new, &removed, &added);
    for &i in &removed {
        let rename = renames.iter().find(|r| r.old == i);
        let renamed_to = rename.map(|r| new[r.new].0.clone());
        let message = match &renamed_to {
            Some(to) => format!("tool removed; probably renamed to {to:?}"),
            None => "tool removed".to_owned(),
        };
        changes.push(Change {
            renamed_to,
            ..change(
                &old[i].0,
                "",
                ChangeClass::Breaking,
                ChangeKind::ToolRemoved,
                message,
            )
        });
    }
    for &j in &added {
        let rename = renames.iter().find(|r| r.new == j);
        let renamed_from = rename.map(|r| old[r.old].0.clone());
        let message = match (rename, &renamed_from) {
            (Some(r), Some(from)) => {
                format!("new tool; probably renamed from {from:?} ({})", r.why)
            }
            _ => "new tool".to_owned(),
        };
        changes.push(Change {
            renamed_from,
            ..change(
                &new[j].0,
                "",
                ChangeClass::Compatible,
                ChangeKind::ToolAdded,
                message,
            )
        });
    }
    changes.sort_by(|a, b| utf16_cmp(&a.tool, &b.tool).then_with(|| a.pointer.cmp(&b.pointer)));
    Diff { changes }
}

/// The tool's name (in NFC) and its canonical contract.
fn named_contract(tool: &Tool) -> (String, Value) {
    let contract = canonical_contract(tool);
    let name = contract
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    (name, contract)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::MAX_DEPTH;
    use serde_json::json;

    fn tool(value: Value) -> Tool {
        serde_json::from_value(value).unwrap()
    }

    fn base() -> Value {
        json!({
            "name": "t",
            "description": "Does things.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "a": {"type": "string", "enum": ["x", "y"]},
                    "n": {"type": "integer", "minimum": 1, "maximum": 10}
                },
                "required": ["a"]
            }
        })
    }

    fn classes(old: Value, new: Value) -> Vec<(String, ChangeClass, ChangeKind)> {
        diff(&[tool(old)], &[tool(new)])
            .changes
            .into_iter()
            .map(|c| (c.pointer, c.class, c.kind))
            .collect()
    }

    #[test]
    fn the_same_contract_written_differently_has_no_changes() {
        let a = base();
        let mut b = base();
        b["inputSchema"]["properties"]["n"]["maximum"] = json!(10.0);
        b["description"] = json!("Does things.");
        assert!(diff(&[tool(a)], &[tool(b)]).is_empty());
    }

    #[test]
    fn output_changes_turn_the_direction_around() {
        let mut a = base();
        a["outputSchema"] = json!({"type": "object", "properties": {"r": {"type": "string", "enum": ["ok"]}}, "required": ["r"]});
        let mut b = a.clone();
        b["outputSchema"]["properties"]["r"]["enum"] = json!(["ok", "maybe"]);
        b["outputSchema"]["required"] = json!([]);
        assert_eq!(
            classes(a, b),
            vec![
                (
                    "/outputSchema/properties/r/enum".to_owned(),
                    ChangeClass::Breaking,
                    ChangeKind::EnumValueAdded
                ),
                (
                    "/outputSchema/required".to_owned(),
                    ChangeClass::Breaking,
                    ChangeKind::RequiredRemoved
                ),
            ]
        );
    }

    #[test]
    fn reordering_is_compatible_and_reported() {
        let a = base();
        let mut b = base();
        b["inputSchema"]["properties"]["a"]["enum"] = json!(["y", "x"]);
        assert_eq!(
            classes(a, b),
            vec![(
                "/inputSchema/properties/a/enum".to_owned(),
                ChangeClass::Compatible,
                ChangeKind::Rewritten
            )]
        );
    }

    #[test]
    fn read_only_to_writing_is_security_relevant() {
        let mut a = base();
        a["annotations"] = json!({"readOnlyHint": true});
        let mut b = base();
        b["annotations"] = json!({"readOnlyHint": false});
        let d = diff(&[tool(a)], &[tool(b)]);
        let flagged: Vec<(&str, bool)> = d
            .changes
            .iter()
            .map(|c| (c.pointer.as_str(), c.security))
            .collect();
        assert_eq!(
            flagged,
            [
                ("/annotations/destructiveHint", true),
                ("/annotations/idempotentHint", false),
                ("/annotations/readOnlyHint", true)
            ]
        );
        assert!(d.changes.iter().all(|c| c.class == ChangeClass::Behaviour));
    }

    #[test]
    fn a_rename_is_hinted() {
        let a = base();
        let mut b = base();
        b["name"] = json!("t2");
        let d = diff(&[tool(a)], &[tool(b)]);
        assert_eq!(d.changes.len(), 2);
        assert_eq!(d.changes[0].renamed_to.as_deref(), Some("t2"));
        assert_eq!(d.changes[1].renamed_from.as_deref(), Some("t"));
        assert_eq!(
            d.changes[1].message,
            "new tool; probably renamed from \"t\" (the same input schema)"
        );
    }

    #[test]
    fn unrelated_tools_are_not_called_renames() {
        let a = base();
        let b = json!({"name": "other", "description": "Something else entirely.",
            "inputSchema": {"type": "object", "properties": {"q": {"type": "boolean"}}}});
        let d = diff(&[tool(a)], &[tool(b)]);
        assert!(
            d.changes
                .iter()
                .all(|c| c.renamed_from.is_none() && c.renamed_to.is_none())
        );
    }

    #[test]
    fn the_depth_bound_stops_the_walk() {
        let mut deep_a = json!({"type": "string"});
        let mut deep_b = json!({"type": "integer"});
        for _ in 0..(MAX_DEPTH + 20) {
            deep_a = json!({"type": "array", "items": deep_a});
            deep_b = json!({"type": "array", "items": deep_b});
        }
        let d = diff(
            &[Tool::new("t", "d", deep_a)],
            &[Tool::new("t", "d", deep_b)],
        );
        assert_eq!(d.changes.len(), 1);
        assert!(
            d.changes[0].message.contains("levels deep"),
            "{:?}",
            d.changes[0]
        );
        assert_eq!(d.changes[0].class, ChangeClass::Breaking);
    }

    #[test]
    fn maps_of_schemas_are_compared_entry_by_entry() {
        let with = |key: &str, value: Value| {
            let mut schema = json!({"type": "object"});
            schema[key] = value;
            Tool::new("t", "d", schema)
        };
        let changes = |key: &str, a: Value, b: Value| -> Vec<(String, ChangeClass, String)> {
            diff(&[with(key, a)], &[with(key, b)])
                .changes
                .into_iter()
                .map(|c| (c.pointer, c.class, c.message))
                .collect()
        };
        assert_eq!(
            changes(
                "patternProperties",
                json!({"^x": {"type": "string"}}),
                json!({"^x": {"type": "string"}, "^y": {}})
            ),
            [(
                "/inputSchema/patternProperties/^y".to_owned(),
                ChangeClass::Breaking,
                "patternProperties entry \"^y\" added".to_owned()
            )]
        );
        assert_eq!(
            changes(
                "definitions",
                json!({"a": {}, "b": {}}),
                json!({"a": {"type": "string"}})
            ),
            [
                (
                    "/inputSchema/definitions/a/type".to_owned(),
                    ChangeClass::Breaking,
                    "type narrowed from any to \"string\"".to_owned()
                ),
                (
                    "/inputSchema/definitions/b".to_owned(),
                    ChangeClass::Breaking,
                    "definition \"b\" removed".to_owned()
                )
            ]
        );
        assert_eq!(
            changes("definitions", json!(1), json!({})),
            [(
                "/inputSchema/definitions".to_owned(),
                ChangeClass::Breaking,
                "`$defs` changed from 1 to {}".to_owned()
            )]
        );
    }

    #[test]
    fn boolean_schemas_are_understood() {
        let with_items = |items: Value| {
            Tool::new(
                "t",
                "d",
                json!({"type": "object", "properties": {"a": {"type": "array", "items": items}}}),
            )
        };
        let kinds = |a: Value, b: Value| -> Vec<(String, ChangeClass, ChangeKind)> {
            diff(&[with_items(a)], &[with_items(b)])
                .changes
                .into_iter()
                .map(|c| (c.pointer, c.class, c.kind))
                .collect()
        };
        let at = |p: &str| format!("/inputSchema/properties/a/items{p}");
        assert_eq!(
            kinds(json!(true), json!({})),
            [(at(""), ChangeClass::Compatible, ChangeKind::Rewritten)]
        );
        assert_eq!(
            kinds(json!(true), json!({"type": "string"})),
            [(at("/type"), ChangeClass::Breaking, ChangeKind::TypeNarrowed)]
        );
        assert_eq!(
            kinds(json!({"type": "string"}), json!(false)),
            [(
                at(""),
                ChangeClass::Breaking,
                ChangeKind::ConstraintNarrowed
            )]
        );
        assert_eq!(
            kinds(json!(false), json!({"type": "string"})),
            [(
                at(""),
                ChangeClass::Compatible,
                ChangeKind::ConstraintWidened
            )]
        );
    }
}
