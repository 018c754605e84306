use crate::analysis::schema::{Edge, Node, declares_type, properties, walk};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds objects in an input schema that do not set `additionalProperties: false`.
    ///
    /// The root is checked, and every nested object that declares `properties` (in
    /// `properties`, `items`, `anyOf`/`oneOf` branches and `$defs`).
    ///
    /// Objects that set `additionalProperties` to anything (a schema for a map, or `true` on
    /// purpose) or `unevaluatedProperties` are left alone, as are free-form objects without
    /// `properties` below the root, branches of `allOf` (there `false` would reject the
    /// properties of the other branches) and objects composed with `allOf`.
    ///
    /// Half the published tools leave an object open, so the rule is off by default; select
    /// it (`--select additional-properties-open`) for a catalog meant for strict mode.
    ///
    /// ## Why is this bad?
    /// An open object lets the model add arguments the tool never declared — `"color": "red"`
    /// on a forecast — and the call still validates, so the mistake passes silently and the
    /// handler ignores or misreads it. With `additionalProperties: false`, validation rejects
    /// the extra field with an error the model can read and correct. Strict modes (OpenAI,
    /// Anthropic) require it on every object.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false}
    /// ```
    ///
    /// ## References
    /// - Validation rejects extra fields when `additionalProperties` is `false`
    /// - `docs/providers.md#anthropic-strict-tools` (Anthropic strict mode needs
    ///   `additionalProperties: false`)
    /// - JSON Schema 2020-12 Core, §10.3.2.3 `additionalProperties`
    pub struct AdditionalPropertiesOpen {
        code: "TP206",
        name: "additional-properties-open",
        category: Design,
        severity: Info,
        enabled_by_default: false,
        options: [],
    }
}

/// Whether the walk should look at this node as an argument object.
fn is_checked_object(node: &Node<'_, '_>) -> bool {
    let schema = node.schema;
    let Some(obj) = schema.as_object() else {
        return false;
    };
    let declares_object = declares_type(schema, "object");
    let has_properties = properties(schema).is_some();
    let checked_edge = matches!(
        node.edge,
        Edge::Property | Edge::Items | Edge::Branch | Edge::Definition
    );
    let shape = match node.edge {
        Edge::Root => declares_object || has_properties,
        _ => checked_edge && has_properties,
    };
    shape
        && !obj.contains_key("additionalProperties")
        && !obj.contains_key("unevaluatedProperties")
        && !obj.contains_key("allOf")
        && !obj.contains_key("$ref")
}

impl Rule for AdditionalPropertiesOpen {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for AdditionalPropertiesOpen {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        walk(&tool.input_schema, "/inputSchema", &mut |node| {
            if !is_checked_object(node) {
                return;
            }
            let name = node.object_name();
            let what = if properties(node.schema).is_some_and(|p| !p.is_empty()) {
                "properties it does not declare"
            } else {
                "any arguments"
            };
            out.push(Violation {
                tool: Some(i),
                pointer: node.pointer.to_owned(),
                message: format!(
                    "{name} accepts {what}: `additionalProperties: false` is not set"
                ),
                help: "add `\"additionalProperties\": false` so that an invented or misspelled field is rejected with an error the model can correct".into(),
            });
        });
    }
}
