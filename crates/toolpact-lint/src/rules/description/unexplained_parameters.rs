use crate::analysis::message::join;
use crate::analysis::quality::Thresholds;
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tools whose parameters are mostly left unexplained: fewer than
    /// `explained-percent` (70) percent of the input schema's top-level properties are
    /// explained beyond their name.
    ///
    /// A property is explained by a description that says more than its name and type
    /// ("The id", "Query string" do not, nor a description of up to four words that adds only
    /// the tool's own words, "Repository name" of `create_repository`); by the tool's
    /// description naming it, by its
    /// identifier or, for a name of two words or more, by its words ("absolute file paths"
    /// for `filePaths`), where a line of its own as in an `Args:` section must also say more
    /// than the name (`service_id: The ID of the service` does not); or, for an object, by
    /// described properties of its own. Each property without any description is also
    /// reported by `missing-property-description`; this rule judges the tool as a whole, as
    /// reviewers do.
    ///
    /// ## Why is this bad?
    /// The model fills in arguments from the names alone: units, formats, which value
    /// means what and how two parameters depend on each other are guessed, and guessed wrong.
    ///
    /// ## Example
    /// ```json
    /// {"name": "list_commits", "description": "Lists the commits of a branch.", "inputSchema": {"type": "object", "properties": {"owner": {"type": "string"}, "repo": {"type": "string"}, "sha": {"type": "string"}, "perPage": {"type": "number"}}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "list_commits", "description": "Lists the commits of a branch.", "inputSchema": {"type": "object", "properties": {"owner": {"type": "string", "description": "User or organisation that owns the repository"}, "repo": {"type": "string", "description": "Repository name, without the owner"}, "sha": {"type": "string", "description": "Branch name or commit SHA to start from; the default branch when left out"}, "perPage": {"type": "number", "description": "Commits per page, 1 to 100 (default 30)"}}}}
    /// ```
    ///
    /// ## References
    /// - `docs/quality-rubric.md`, Parameter explanation; `docs/quality.md`
    pub struct UnexplainedParameters {
        code: "TP114",
        name: "unexplained-parameters",
        category: Description,
        severity: Info,
        options: [RuleOption {
            name: "explained-percent",
            default: 70,
            doc: "the share of parameters, in percent, that must be explained beyond their name",
        }],
    }
}

impl Rule for UnexplainedParameters {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for UnexplainedParameters {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let facts = view.quality();
        let thresholds = Thresholds {
            explained_percent: usize::try_from(cx.option(&Self::META, "explained-percent"))
                .unwrap_or(usize::MAX),
            ..Thresholds::default()
        };
        if facts.parameters == 0 || facts.parameters_score(&thresholds) > 2 {
            return;
        }
        let names: Vec<String> = facts
            .unexplained
            .iter()
            .map(|name| format!("`{name}`"))
            .collect();
        let message = match (facts.parameters, names.as_slice()) {
            (1, [name]) => format!(
                "the only parameter of {:?}, {name}, is not explained beyond its name",
                view.tool.name
            ),
            (n, [name]) => format!(
                "1 of the {n} parameters of {:?}, {name}, is not explained beyond its name",
                view.tool.name
            ),
            (n, names) => format!(
                "{} of the {n} parameters of {:?} are not explained beyond their name: {}",
                names.len(),
                view.tool.name,
                join(names)
            ),
        };
        out.push(Violation {
            tool: Some(view.index),
            pointer: "/inputSchema/properties".to_owned(),
            message,
            help: "describe each parameter: what it means, its unit or format, its default, and how it depends on the others".into(),
        });
    }
}
