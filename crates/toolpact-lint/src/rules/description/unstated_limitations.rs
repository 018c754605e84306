use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tools whose description and property descriptions state no limitation at all:
    /// no bound ("at most 100 results", "(1-50)", "larger than 50 MB are skipped", "from one
    /// to ten ids"), no pagination (a cursor, a page token, an
    /// offset), no side effect or cost ("cannot be undone", "overwrites", "read-only",
    /// "billed", "can take minutes", "will be saved to …", "other fields are left
    /// untouched"), no failure case ("fails if …", "returns
    /// an error when …", "returns an empty list if …") and no requirement ("requires admin
    /// rights", "only works within allowed directories", "you must provide …", "single
    /// statements only", "only scans the given file", "make sure the user confirms …"). A
    /// word alone is not a limitation: "errors" among what a tool lists is no failure case,
    /// "Deletes" or "Restarts" as the verb a description opens with no side effect, "more
    /// than 100 stars" a filter rather than a bound, "experimental" or "may be large" no
    /// more than a hint.
    ///
    /// Most published tools state none, so the rule is off by default: the quality score's
    /// limitations component counts it on every check, and `--select unstated-limitations`
    /// reports each tool.
    ///
    /// ## Why is this bad?
    /// The model cannot know that a search returns only the first page, that a call deletes
    /// for good, or that it fails without a prior step. It then reports a partial answer as
    /// the whole, repeats a destructive call, or retries what can never succeed.
    ///
    /// ## Example
    /// ```json
    /// {"name": "search_issues", "description": "Searches the issues of a project by text.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "search_issues", "description": "Searches the issues of a project by text. Returns at most 50 issues; pass next_cursor from the result to get the next page.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## References
    /// - `docs/quality-rubric.md`, Limitations; `docs/quality.md`
    pub struct UnstatedLimitations {
        code: "TP116",
        name: "unstated-limitations",
        category: Description,
        severity: Info,
        enabled_by_default: false,
        options: [],
    }
}

impl Rule for UnstatedLimitations {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for UnstatedLimitations {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let facts = view.quality();
        if facts.empty || facts.limitation_kinds > 0 {
            return;
        }
        out.push(Violation {
            tool: Some(view.index),
            pointer: "/description".to_owned(),
            message: format!(
                "the description of {:?} states no limit, pagination, side effect or failure case",
                view.tool.name
            ),
            help: "say how many results come back and how to get more, what the call changes or costs, and when it fails".into(),
        });
    }
}
