use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tools annotated both `"readOnlyHint": true` and `"destructiveHint": true`.
    ///
    /// ## Why is this bad?
    /// The two hints say opposite things: a read-only tool does not modify its environment,
    /// a destructive one may delete or overwrite. Clients resolve the contradiction their own
    /// way — the MCP specification makes `destructiveHint` meaningful only when `readOnlyHint`
    /// is false, so many clients skip the confirmation a destructive tool should get, while
    /// others ask for it on every read. Either the tool changes something and is not
    /// read-only, or it does not and is not destructive.
    ///
    /// ## Example
    /// ```json
    /// {"name": "delete_note", "annotations": {"readOnlyHint": true, "destructiveHint": true}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "delete_note", "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true}}
    /// ```
    ///
    /// ## References
    /// - MCP 2025-11-25, schema.ts `ToolAnnotations` ("meaningful only when readOnlyHint == false")
    pub struct ContradictoryAnnotations {
        code: "TP009",
        name: "contradictory-annotations",
        category: Structure,
        severity: Warning,
        options: [],
    }
}

impl Rule for ContradictoryAnnotations {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for ContradictoryAnnotations {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let Some(annotations) = &tool.annotations else {
            return;
        };
        if annotations.read_only_hint == Some(true) && annotations.destructive_hint == Some(true) {
            out.push(Violation {
                tool: Some(i),
                pointer: "/annotations/destructiveHint".to_owned(),
                message: "the tool is annotated both read-only and destructive; clients ignore `destructiveHint` on a read-only tool, so it gets no confirmation".to_owned(),
                help: "if the tool deletes or overwrites anything, set `\"readOnlyHint\": false`; if it only reads, set `\"destructiveHint\": false`".into(),
            });
        }
    }
}
