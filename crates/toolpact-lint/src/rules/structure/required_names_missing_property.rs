use crate::analysis::schema::{for_each_child, tool_schemas};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeSet;
use toolpact::json::child_pointer;
use toolpact::schema::{MAX_DEPTH, resolve_local_ref};

declare_rule! {
    /// ## What it does
    /// Finds names in `required` that the same object's `properties` does not declare, at
    /// any depth of the input and output schemas.
    ///
    /// Properties declared by the object's `allOf`/`anyOf`/`oneOf` branches, by a local
    /// `$ref` beside them, or by the parent of a branch count as declared. Objects with
    /// `patternProperties` or a schema for `additionalProperties` are maps, and are left
    /// alone.
    ///
    /// ## Why is this bad?
    /// The model is told it must send a field it knows nothing about: no type, no
    /// description, so it invents one. Usually the name is a typo or a leftover of a renamed
    /// property, and with `"additionalProperties": false` no call can satisfy the schema at
    /// all. Gemini refuses such a declaration outright ("property is not defined"), and
    /// OpenAI strict mode needs `required` to match `properties` exactly.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object",
    ///  "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    ///  "required": ["ciyt"],
    ///  "additionalProperties": false}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object",
    ///  "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    ///  "required": ["city"],
    ///  "additionalProperties": false}
    /// ```
    ///
    /// ## References
    /// - JSON Schema 2020-12 Validation, §6.5.3 `required`
    /// - Gemini API: `parameters.required[]: property is not defined` (400;
    ///   `docs/providers.md#gemini-parameters`)
    /// - OpenAI Structured Outputs: all fields must be required
    ///   (`docs/providers.md#openai-strict-mode`)
    pub struct RequiredNamesMissingProperty {
        code: "TP005",
        name: "required-names-missing-property",
        category: Structure,
        severity: Error,
        options: [],
    }
}

/// The keywords that apply their subschemas to the same instance as the parent, so that
/// what the parent declares also holds inside them.
const SAME_INSTANCE: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
];

/// How deep to follow branches and `$ref`s when collecting declared names.
const MAX_HOPS: usize = 8;

/// How many schemas one collection may visit: nested compositions multiply, and a hostile
/// schema must not turn a lint into a denial of service.
const MAX_VISITS: usize = 256;

/// Adds the names `node` declares, directly, through its composition branches and through
/// a local `$ref`, to `names`. Returns `false` when a `$ref` cannot be followed or the
/// budget runs out, so that the declared set is unknown.
fn declared<'v>(
    root: &'v Value,
    node: &'v Value,
    hops: usize,
    budget: &mut usize,
    names: &mut BTreeSet<&'v str>,
) -> bool {
    if hops > MAX_HOPS || *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut known = true;
    if let Some(props) = node.get("properties").and_then(Value::as_object) {
        names.extend(props.keys().map(String::as_str));
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        for branch in node
            .get(keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            known &= declared(root, branch, hops + 1, budget, names);
        }
    }
    for keyword in ["then", "else"] {
        if let Some(branch) = node.get(keyword) {
            known &= declared(root, branch, hops + 1, budget, names);
        }
    }
    if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
        match resolve_local_ref(root, reference) {
            Some(target) => known &= declared(root, target, hops + 1, budget, names),
            None => known = false,
        }
    }
    known
}

/// Whether the object accepts names its `properties` does not list, with a schema for
/// them: then a required name outside `properties` is a typed map key, not a mistake.
fn accepts_other_names(node: &Value) -> bool {
    node.get("patternProperties").is_some()
        || node
            .get("additionalProperties")
            .and_then(Value::as_object)
            .is_some_and(|schema| !schema.is_empty())
}

/// The declared name closest to `missing`, when it is close enough to be a typo: the
/// measure every suggestion of toolpact uses.
fn closest<'v>(missing: &str, names: &BTreeSet<&'v str>) -> Option<&'v str> {
    toolpact::closest_name(missing, names.iter().copied())
}

/// How many declared names a help text lists.
const LISTED: usize = 8;

/// `"a", "b", "c"`, or the first few and how many more.
fn listing(names: &BTreeSet<&str>) -> String {
    let mut shown: Vec<String> = names
        .iter()
        .take(LISTED)
        .map(|n| format!("{n:?}"))
        .collect();
    if names.len() > LISTED {
        shown.push(format!("and {} more", names.len() - LISTED));
    }
    shown.join(", ")
}

struct Walk<'v, 'o> {
    root: &'v Value,
    tool: usize,
    out: &'o mut Vec<Violation>,
}

impl<'v> Walk<'v, '_> {
    fn node(
        &mut self,
        node: &'v Value,
        pointer: &mut String,
        inherited: &BTreeSet<&'v str>,
        negated: bool,
        depth: usize,
    ) {
        if depth > MAX_DEPTH || !node.is_object() {
            return;
        }
        // Names matter only where `required` is, and where branches inherit them. A schema
        // has few keys: reading them once costs less than looking each keyword up.
        let wanted = node.as_object().is_some_and(|o| {
            o.keys()
                .any(|k| k == "required" || SAME_INSTANCE.contains(&k.as_str()))
        });
        let mut known = false;
        // A schema that is neither has no branch to hand the names to.
        let names = if wanted {
            let mut names = inherited.clone();
            known = declared(self.root, node, 0, &mut { MAX_VISITS }, &mut names);
            Cow::Owned(names)
        } else {
            Cow::Borrowed(inherited)
        };
        if known && !negated && !accepts_other_names(node) {
            self.required(node, pointer, &names);
        }
        let empty = BTreeSet::new();
        for_each_child(node, pointer, |child, pointer| {
            let same_instance = SAME_INSTANCE.contains(&child.keyword);
            let inherited = if same_instance { &*names } else { &empty };
            let negated = (negated && same_instance) || child.keyword == "not";
            self.node(child.schema, pointer, inherited, negated, depth + 1);
        });
    }

    fn required(&mut self, node: &Value, pointer: &str, names: &BTreeSet<&'v str>) {
        let Some(required) = node.get("required").and_then(Value::as_array) else {
            return;
        };
        let closed = node.get("additionalProperties") == Some(&Value::Bool(false));
        for (i, name) in required.iter().enumerate() {
            let Some(name) = name.as_str() else { continue };
            if names.contains(name) {
                continue;
            }
            let base = child_pointer(pointer, "required");
            let consequence = if closed {
                "; with `\"additionalProperties\": false` no value can satisfy this schema"
            } else if pointer.starts_with("/outputSchema") {
                "; every result must carry it, yet nothing says what it is"
            } else {
                "; the model must send it without knowing its type or meaning"
            };
            let help = match closest(name, names) {
                Some(near) => format!(
                    "did you mean {near:?}? Write {near:?} in `required`, or declare {name:?} under `properties` with a type and a description"
                ),
                None if names.is_empty() => format!(
                    "declare {name:?} under `properties` with a type and a description, or remove it from `required`"
                ),
                None => format!(
                    "declare {name:?} under `properties` with a type and a description, or remove it from `required` (declared: {})",
                    listing(names)
                ),
            };
            self.out.push(Violation {
                tool: Some(self.tool),
                pointer: child_pointer(&base, &i.to_string()),
                message: format!(
                    "`required` lists {name:?}, but no `properties` of this object declares it{consequence}"
                ),
                help: help.into(),
            });
        }
    }
}

impl Rule for RequiredNamesMissingProperty {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for RequiredNamesMissingProperty {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        for (schema, base) in tool_schemas(tool) {
            let mut walk = Walk {
                root: schema,
                tool: i,
                out,
            };
            walk.node(schema, &mut base.to_owned(), &BTreeSet::new(), false, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_the_work_on_nested_compositions() {
        let mut schema = serde_json::json!({"properties": {"a": {"type": "string"}}});
        for _ in 0..7 {
            schema = serde_json::json!({"allOf": [schema.clone(), schema.clone(), schema]});
        }
        let mut names = BTreeSet::new();
        let mut budget = MAX_VISITS;
        assert!(!declared(&schema, &schema, 0, &mut budget, &mut names));
        assert_eq!(budget, 0);
    }

    #[test]
    fn suggests_the_nearest_declared_name() {
        let names: BTreeSet<&str> = ["city", "days", "units"].into_iter().collect();
        assert_eq!(closest("ciyt", &names), Some("city"));
        assert_eq!(closest("Days", &names), Some("days"));
        assert_eq!(closest("country", &names), None);
    }
}
