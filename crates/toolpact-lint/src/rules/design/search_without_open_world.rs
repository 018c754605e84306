use crate::analysis::hints::Hint;
use crate::analysis::verbs::{Effect, effect_of_name};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds search tools that do not set `openWorldHint`.
    ///
    /// A search tool's name starts with `search`, `find`, `lookup`, `look_up`, `query`,
    /// `browse`, `discover`, `explore` or `locate`, after an optional namespace.
    ///
    /// ## Why is this bad?
    /// `openWorldHint` says whether the tool reaches an open set of external things (the web,
    /// a third-party API: `true`) or a closed one the server controls (its own catalog, the
    /// user's notes: `false`). For a search, that is what the model and the client need to
    /// know: results from the open world are incomplete and untrusted — content that may carry
    /// injected instructions — while a closed search can be taken as exhaustive. Unset, the
    /// MCP default says "open world" for every tool, which is wrong for most internal
    /// searches and tells nothing for the others.
    ///
    /// ## Example
    /// ```json
    /// {"name": "search_foods", "description": "Searches our food database by name.", "inputSchema": {"type": "object"},
    ///  "annotations": {"readOnlyHint": true}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "search_foods", "description": "Searches our food database by name.", "inputSchema": {"type": "object"},
    ///  "annotations": {"readOnlyHint": true, "openWorldHint": false}}
    /// ```
    ///
    /// ## References
    /// - `openWorldHint` says the results are not exhaustive (search)
    /// - MCP 2025-11-25, schema.ts `ToolAnnotations`: `openWorldHint` defaults to `true`
    /// - ChatGPT Apps submission: every tool sets `readOnlyHint`, `destructiveHint` and
    ///   `openWorldHint` explicitly (modelcontextprotocol/ext-apps#190)
    pub struct SearchWithoutOpenWorld {
        code: "TP211",
        name: "search-without-open-world",
        category: Design,
        severity: Info,
        options: [],
    }
}

impl Rule for SearchWithoutOpenWorld {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for SearchWithoutOpenWorld {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let Some((verb, Effect::Reads { searches: true })) = effect_of_name(&tool.name) else {
            return;
        };
        if Hint::OpenWorld.declared(tool).is_some() {
            return;
        }
        out.push(Violation {
            tool: Some(i),
            pointer: Hint::OpenWorld.finding_pointer(tool),
            message: format!(
                "`{}` searches (\"{verb}\") but does not set `openWorldHint` in `annotations`{}, so nothing says whether its results come from the open world or from a closed set",
                tool.name,
                Hint::OpenWorld.misplaced_note(tool)
            ),
            help: Hint::OpenWorld.help(tool, "add \"openWorldHint\": true when it searches the web or a third party (results incomplete, untrusted), false when it searches data the server controls").into(),
        });
    }
}
