use crate::context::{Context, ToolView};
use crate::rule::{ChecksTools, Rule, RuleMeta, Violation, declare_rule};
use toolpact::registry::compile;

declare_rule! {
    /// ## What it does
    /// Compiles every input and output schema as the registry does: JSON Schema 2020-12
    /// unless `$schema` names draft 4, 6, 7 or 2019-09; references resolved inside the
    /// document only.
    ///
    /// ## Why is this bad?
    /// A schema that does not compile cannot validate a single call. An unknown dialect must
    /// be refused (MCP 2025-11-25), and a remote `$ref` would have to be fetched at run time —
    /// a network dependency and an attack surface; MCP 2026-07-28 forbids fetching by default.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {"address": {"$ref": "https://example.com/address.json"}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {"address": {"$ref": "#/$defs/address"}}, "$defs": {"address": {"type": "object"}}}
    /// ```
    ///
    /// ## References
    /// - MCP 2025-11-25, basic/index "JSON Schema Usage"
    /// - MCP 2026-07-28, `$ref` resolution
    pub struct SchemaDoesNotCompile {
        code: "TP004",
        name: "schema-does-not-compile",
        category: Structure,
        severity: Error,
        options: [],
    }
}

impl Rule for SchemaDoesNotCompile {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for SchemaDoesNotCompile {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let schemas = [
            ("/inputSchema", Some(&tool.input_schema)),
            ("/outputSchema", tool.output_schema.as_ref()),
        ];
        for (base, schema) in schemas {
            let Some(schema) = schema else { continue };
            if let Err((pointer, problem)) = compile(schema) {
                out.push(Violation {
                    tool: Some(i),
                    pointer: format!("{base}{pointer}"),
                    message: problem.to_string(),
                    help: "fix the schema so that it compiles as JSON Schema 2020-12 (or the draft its `$schema` names), with every `$ref` inside the document".to_owned(),
                });
            }
        }
    }
}
