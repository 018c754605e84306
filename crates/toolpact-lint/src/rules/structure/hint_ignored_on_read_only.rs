use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds `idempotentHint` on tools annotated `"readOnlyHint": true`, where the MCP
    /// specification gives it no meaning.
    ///
    /// `"destructiveHint": false` on a read-only tool is not reported: it is redundant too,
    /// but the ChatGPT Apps submission asks every tool to set `readOnlyHint`,
    /// `destructiveHint` and `openWorldHint` explicitly. `"destructiveHint": true` on a
    /// read-only tool is reported by `contradictory-annotations`.
    ///
    /// ## Why is this bad?
    /// `idempotentHint` is meaningful only when `readOnlyHint` is false: a tool that changes
    /// nothing is trivially idempotent. Clients ignore it, and `"idempotentHint": false` on a
    /// read-only tool reads as if repeated calls had an effect, which a reviewer then has to
    /// puzzle out. It is harmless, hence info.
    ///
    /// ## Example
    /// ```json
    /// {"name": "list_gifts", "annotations": {"readOnlyHint": true, "idempotentHint": false, "openWorldHint": false}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "list_gifts", "annotations": {"readOnlyHint": true, "destructiveHint": false, "openWorldHint": false}}
    /// ```
    ///
    /// ## References
    /// - MCP 2025-11-25, schema.ts `ToolAnnotations.idempotentHint`
    /// - OpenAI Apps SDK, app submission guidelines (tool hints;
    ///   `docs/providers.md#chatgpt-apps-metadata`)
    pub struct HintIgnoredOnReadOnly {
        code: "TP010",
        name: "hint-ignored-on-read-only",
        category: Structure,
        severity: Info,
        options: [],
    }
}

impl Rule for HintIgnoredOnReadOnly {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for HintIgnoredOnReadOnly {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let Some(annotations) = &tool.annotations else {
            return;
        };
        if annotations.read_only_hint != Some(true) {
            return;
        }
        if let Some(value) = annotations.idempotent_hint {
            out.push(Violation {
                tool: Some(i),
                pointer: "/annotations/idempotentHint".to_owned(),
                message: format!(
                    "`\"idempotentHint\": {value}` has no meaning on a read-only tool; clients ignore it"
                ),
                help: "remove `idempotentHint`; a read-only tool is idempotent by nature".into(),
            });
        }
    }
}
