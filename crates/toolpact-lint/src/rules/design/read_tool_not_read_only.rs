use crate::analysis::hints::Hint;
use crate::analysis::verbs::{Effect, effect_of_name};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tools named for reading that do not set `readOnlyHint`.
    ///
    /// The name starts with a reading verb — `get`, `list`, `search`, `find`, `read`, `fetch`,
    /// `lookup`, `query`, `describe`, `show`, `count`, `view`, `check`, `calculate`, … — after
    /// an optional namespace, and holds no changing verb (`get_or_create_user` changes).
    ///
    /// A tool that sets `"readOnlyHint": false` is left alone: its author says it changes
    /// something despite its name (a `query` that can run `UPDATE`).
    ///
    /// ## Why is this bad?
    /// `readOnlyHint` defaults to `false`: unmarked, a lookup looks to the client exactly like a
    /// deletion. Clients then ask the user to confirm harmless reads, or cannot run them in
    /// parallel or without supervision; users learn to approve everything, which defeats the
    /// confirmation of the tools that matter.
    ///
    /// ## Example
    /// ```json
    /// {"name": "list_gifts", "description": "Lists the gifts in the catalog.", "inputSchema": {"type": "object"},
    ///  "_meta": {"readOnlyHint": true}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "list_gifts", "description": "Lists the gifts in the catalog.", "inputSchema": {"type": "object"},
    ///  "annotations": {"readOnlyHint": true}}
    /// ```
    ///
    /// ## References
    /// - `readOnlyHint` marks the tools that are safe to call
    /// - MCP 2025-11-25, schema.ts `ToolAnnotations`: `readOnlyHint` defaults to `false`
    /// - ChatGPT Apps submission: every tool sets `readOnlyHint`, `destructiveHint` and
    ///   `openWorldHint` explicitly (modelcontextprotocol/ext-apps#190)
    pub struct ReadToolNotReadOnly {
        code: "TP210",
        name: "read-tool-not-read-only",
        category: Design,
        severity: Info,
        options: [],
    }
}

impl Rule for ReadToolNotReadOnly {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for ReadToolNotReadOnly {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let Some((verb, Effect::Reads { .. })) = effect_of_name(&tool.name) else {
            return;
        };
        if Hint::ReadOnly.declared(tool).is_some() {
            return;
        }
        out.push(Violation {
            tool: Some(i),
            pointer: Hint::ReadOnly.finding_pointer(tool),
            message: format!(
                "`{}` reads (\"{verb}\") but does not set `readOnlyHint` in `annotations`{}, so clients treat it as a tool that may change data",
                tool.name,
                Hint::ReadOnly.misplaced_note(tool)
            ),
            help: Hint::ReadOnly.help(tool, "add \"annotations\": {\"readOnlyHint\": true} if it changes nothing; if it can change data, set \"readOnlyHint\": false explicitly").into(),
        });
    }
}
