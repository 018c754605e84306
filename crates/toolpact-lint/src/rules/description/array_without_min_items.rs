use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;

declare_rule! {
    /// ## What it does
    /// Finds input array properties without `minItems`.
    ///
    /// Arrays are found at any depth. Tuples (`prefixItems`, or `items` as a list) and closed
    /// sets are left alone. Whether the array's description says what the list holds is
    /// checked by `missing-property-description` and `vague-property-description`.
    ///
    /// ## Why is this bad?
    /// Without a lower bound the model may send `[]` for a list the tool cannot work without
    /// ("interests": `[]` gets generic gift ideas), or send an empty list where it meant to
    /// leave the filter out. `minItems` says which, and the schema enforces it. `"minItems": 0`
    /// is a fine answer too: it says on purpose that an empty list is allowed.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {
    ///   "interests": {"type": "array", "items": {"type": "string"}, "description": "Short interest tags, e.g. [\"books\"]"}
    /// }}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {
    ///   "interests": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1, "description": "Short interest tags, e.g. [\"books\"]"}
    /// }}
    /// ```
    ///
    /// ## References
    /// - An array carries `minItems` and its description says what the list is
    /// - Anthropic strict tool use accepts `minItems` of 0 or 1 only: <https://docs.claude.com/en/docs/build-with-claude/structured-outputs>
    ///   (`docs/providers.md#anthropic-strict-tools`)
    pub struct ArrayWithoutMinItems {
        code: "TP110",
        name: "array-without-min-items",
        category: Description,
        severity: Info,
        options: [],
    }
}

impl Rule for ArrayWithoutMinItems {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for ArrayWithoutMinItems {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let i = view.index;
        view.for_each_property(&mut |property| {
            let is_tuple = property.keyword("prefixItems").is_some()
                || property.keyword("items").is_some_and(Value::is_array);
            if !property.is_array()
                || is_tuple
                || property.is_closed()
                || property.keyword("minItems").is_some()
            {
                return;
            }
            out.push(Violation {
                tool: Some(i),
                message: format!(
                    "the array property {:?} does not say how many items it needs (no \"minItems\")",
                    property.name
                ),
                help: "add \"minItems\": 1 when an empty list makes no sense, or \"minItems\": 0 to say that it may be empty (Anthropic strict mode accepts only 0 or 1)".into(),
                pointer: property.pointer.to_owned(),
            });
        });
    }
}
