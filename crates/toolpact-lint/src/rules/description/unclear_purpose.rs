use crate::analysis::quality::{Thresholds, restates_name_or_title};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tool descriptions that never say what the tool acts on and what it does to it.
    ///
    /// The purpose is the description up to its first `Args:`, `Returns:` or similar
    /// section, without a leading product tag or heading ("Notion | …", "Purpose: …"). It
    /// is unclear when, once stop words, filler ("data", "specific", "detailed"), proper
    /// names ("Datadog", "GCP"; one named as the source, "from Datadog", "using Google
    /// Places API", counts as one word), HTTP boilerplate and the places every such tool acts in
    /// ("on the page", "in the database") are set aside, it names nothing the tool's name
    /// does not (a verb and its noun, "generate" and "generation", count as one), or only
    /// vague verbs and nouns ("Handles requests for the workspace.", "Utility for data
    /// operations."), or when it is at most `short-purpose-words` (6) words long, adds one
    /// word to the name and never says what comes back, or is only an HTTP route ("Make a
    /// POST request to /2010-04-01/…"). Text a server puts in every tool ("This is the public
    /// Twilio REST API.", "(Uses default AccountSid: … if not provided)") is set aside. A
    /// leading "Lists" or "Shows" echoes the name and says nothing of what comes back; a
    /// `Returns:` section does when it says more than the name. A description
    /// that only restates the name is left to `description-restates-name`, unless a tag or
    /// a section around the restated purpose hides it from that rule; an empty one is left
    /// to `missing-description`.
    ///
    /// ## Why is this bad?
    /// The model picks a tool by what it acts on and what it gives back. A description can
    /// be long and still never say either: the model then guesses from the name, and two
    /// tools with such descriptions cannot be told apart.
    ///
    /// ## Example
    /// ```json
    /// {"name": "workspace_tool", "description": "Handles requests for the workspace.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "workspace_tool", "description": "Lists the members of a workspace with their role and last sign-in, newest first.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## References
    /// - `docs/quality-rubric.md`, Purpose; `docs/quality.md` for what this rule finds on
    ///   real tools
    /// - Anthropic, "Writing effective tools for agents": <https://www.anthropic.com/engineering/writing-tools-for-agents>
    pub struct UnclearPurpose {
        code: "TP113",
        name: "unclear-purpose",
        category: Description,
        severity: Warning,
        options: [RuleOption {
            name: "short-purpose-words",
            default: 6,
            doc: "a purpose of at most this many words that adds one word to the name and says nothing of what comes back is unclear",
        }],
    }
}

impl Rule for UnclearPurpose {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for UnclearPurpose {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let facts = view.quality();
        // A description that only restates the name is `description-restates-name`'s.
        if facts.empty || (facts.restates_name && restates_name_or_title(view.tool)) {
            return;
        }
        let thresholds = Thresholds {
            short_purpose_words: usize::try_from(cx.option(&Self::META, "short-purpose-words"))
                .unwrap_or(usize::MAX),
            ..Thresholds::default()
        };
        if facts.purpose_score(&thresholds) > 2 {
            return;
        }
        let why = if facts.route_only {
            "is only an HTTP route: it names neither what the tool acts on nor what comes back"
        } else if facts.only_vague {
            "names no definite action or object"
        } else {
            "says no more than the name of what the tool acts on, and nothing of what comes back"
        };
        out.push(Violation {
            tool: Some(view.index),
            pointer: "/description".to_owned(),
            message: format!("the description of {:?} {why}", view.tool.name),
            help: "say what the tool does to which thing, and what it returns or changes (\"Lists the open pull requests of a repository, with their number and title\")".into(),
        });
    }
}
