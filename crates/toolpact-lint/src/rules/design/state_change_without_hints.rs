use crate::analysis::hints::Hint;
use crate::analysis::verbs::{Effect, effect_of_name};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tools named for a change to the world that set neither `destructiveHint` nor
    /// `readOnlyHint`.
    ///
    /// The name starts with a verb that changes the world — `create`, `update`, `delete`,
    /// `remove`, `send`, `pay`, `order`, `cancel`, `write`, `set`, `add`, `post`, `publish`,
    /// `transfer`, `book`, … — after an optional namespace, as in `github_create_issue`.
    /// Hints written in `_meta` or at the tool's top level, where clients do not read them,
    /// are pointed out.
    ///
    /// ## Why is this bad?
    /// Clients decide from the hints whether to ask the user before a call. Unset, the MCP
    /// defaults say the tool is not read-only and may be destructive, so a client either asks
    /// every time — and users learn to click through — or, trusting nothing, treats all tools
    /// alike. Orders, payments, messages and deletions are what confirmation exists for; say
    /// so explicitly. ChatGPT Apps submission requires every tool to set its hints explicitly.
    ///
    /// ## Example
    /// ```json
    /// {"name": "create_order", "description": "Orders the gift the user picked.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "create_order", "description": "Orders the gift the user picked.", "inputSchema": {"type": "object"},
    ///  "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false}}
    /// ```
    /// A tool that only adds (a note, a reminder) sets `"destructiveHint": false`.
    ///
    /// ## References
    /// - `destructiveHint` marks irreversible or sensitive tools (orders,
    ///   payments, user data) so clients confirm
    /// - MCP 2025-11-25, schema.ts `ToolAnnotations`: `destructiveHint` defaults to `true`,
    ///   `readOnlyHint` to `false`
    /// - ChatGPT Apps submission: every tool sets `readOnlyHint`, `destructiveHint` and
    ///   `openWorldHint` explicitly (modelcontextprotocol/ext-apps#190)
    pub struct StateChangeWithoutHints {
        code: "TP209",
        name: "state-change-without-hints",
        category: Design,
        severity: Warning,
        options: [],
    }
}

impl Rule for StateChangeWithoutHints {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for StateChangeWithoutHints {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let Some((verb, Effect::Changes)) = effect_of_name(&tool.name) else {
            return;
        };
        if Hint::Destructive.declared(tool).is_some() || Hint::ReadOnly.declared(tool).is_some() {
            return;
        }
        let misplaced = [Hint::Destructive, Hint::ReadOnly]
            .into_iter()
            .map(|h| h.misplaced_note(tool))
            .find(|note| !note.is_empty())
            .unwrap_or_default();
        out.push(Violation {
            tool: Some(i),
            pointer: [Hint::Destructive, Hint::ReadOnly]
                .into_iter()
                .find_map(|h| h.misplaced_pointer(tool))
                .unwrap_or_else(|| Hint::Destructive.finding_pointer(tool)),
            message: format!(
                "`{}` changes something (\"{verb}\") but sets neither `destructiveHint` nor `readOnlyHint` in `annotations`{misplaced}, so clients cannot tell whether to ask the user first",
                tool.name
            ),
            help: [Hint::Destructive, Hint::ReadOnly]
                .into_iter()
                .find(|h| h.misplaced(tool).is_some())
                .unwrap_or(Hint::Destructive)
                .help(tool, "add \"annotations\": {\"readOnlyHint\": false, \"destructiveHint\": true} when it deletes, overwrites, spends or sends; \"destructiveHint\": false when it only adds").into(),
        });
    }
}
