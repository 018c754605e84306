use crate::analysis::schema::{declares_type, tool_schemas, walk};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;
use toolpact::schema::resolve_local_ref;

declare_rule! {
    /// ## What it does
    /// Finds schemas of `"type": "array"` that say nothing about their elements.
    ///
    /// Elements are described by `items`, `prefixItems`, or an `enum` or `const` listing
    /// whole values, beside the type or in a local `$ref` or `allOf` branch next to it.
    ///
    /// ## Why is this bad?
    /// The model has to guess what goes in the list — strings, numbers, objects with which
    /// fields — and guesses differ from call to call. Gemini rejects an array parameter
    /// without `items` ("items: missing field"), and OpenAI strict mode needs it as well.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {"tags": {"type": "array", "description": "Tags for the note"}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "Short tags for the note, such as \"work\""}}}
    /// ```
    ///
    /// ## References
    /// - JSON Schema 2020-12 Core, §10.3.1 `prefixItems` and `items`
    /// - Gemini API: `parameters.properties[…].items: missing field` (400;
    ///   `docs/providers.md#gemini-parameters`)
    pub struct ArrayWithoutItems {
        code: "TP006",
        name: "array-without-items",
        category: Structure,
        severity: Warning,
        options: [],
    }
}

/// How many schemas one check may visit through `$ref` and `allOf`; past that, the schema
/// gets the benefit of the doubt rather than a lint that never ends.
const MAX_VISITS: usize = 64;

/// Whether the array's elements are described, here or in a `$ref`/`allOf` beside the type.
fn describes_items(root: &Value, node: &Value, budget: &mut usize) -> bool {
    // `enum` and `const` list the whole values, elements included.
    if ["items", "prefixItems", "enum", "const"]
        .iter()
        .any(|k| node.get(k).is_some())
    {
        return true;
    }
    if *budget == 0 {
        return true;
    }
    *budget -= 1;
    if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
        match resolve_local_ref(root, reference) {
            // An outside reference may describe them; that is not this rule's business.
            None => return true,
            Some(target) if describes_items(root, target, budget) => return true,
            Some(_) => {}
        }
    }
    node.get("allOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.iter().any(|b| describes_items(root, b, budget)))
}

/// The property's name when `pointer` ends in `/properties/<name>`.
fn property_name(pointer: &str) -> Option<String> {
    let mut segments = pointer.rsplit('/');
    let name = segments.next()?;
    (segments.next() == Some("properties"))
        .then(|| toolpact::json::unescape_token(name).into_owned())
}

impl Rule for ArrayWithoutItems {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for ArrayWithoutItems {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        for (schema, base) in tool_schemas(tool) {
            walk(schema, base, &mut |node| {
                let pointer = node.pointer;
                if !declares_type(node.schema, "array")
                    || describes_items(schema, node.schema, &mut { MAX_VISITS })
                {
                    return;
                }
                let what = match pointer.strip_suffix("/items").and_then(property_name) {
                    Some(parent) => format!("the lists inside {parent:?} have"),
                    None => match property_name(pointer) {
                        Some(name) => format!("the array {name:?} has"),
                        None => "this array has".to_owned(),
                    },
                };
                out.push(Violation {
                    tool: Some(i),
                    pointer: pointer.to_owned(),
                    message: format!("{what} no `items`: nothing says what the elements are"),
                    help: "describe the elements: `\"items\": {\"type\": \"string\"}` for a list of strings, or an object schema with its properties".into(),
                });
            });
        }
    }
}
