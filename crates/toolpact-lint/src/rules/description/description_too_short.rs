use crate::analysis::quality::{LengthIssue, Thresholds};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tool descriptions too brief for what the tool takes and does.
    ///
    /// A description needs more words the more the tool takes and does: `base-words` (7)
    /// for a tool with parameters, two more (`words-per-parameter`) for each parameter that no
    /// description explains, one for each that one does, and none for an explained one whose
    /// schema or description gives its values, unit, format, default or bounds, up to eight
    /// parameters, and
    /// `side-effect-words` (8) more when the tool's name says it changes something
    /// (`create_…`, `delete_…`, `send_…`); a tool without parameters needs
    /// `words-without-parameters` (4). Every word of the description counts, an `Args:`
    /// section that explains the parameters too, since the model reads it. Empty
    /// descriptions are left to `missing-description`.
    ///
    /// ## Why is this bad?
    /// A few words cannot say what the tool does, what it returns, what its inputs mean
    /// together and what it changes. Reviewers call a description too brief for what it
    /// describes, not for a character count: "Reads the clock." is enough for a tool without
    /// inputs, "Delete branch." is not for one with three parameters that deletes data. The
    /// model fills the gap with guesses from the name.
    ///
    /// ## Example
    /// ```json
    /// {"name": "delete_branch", "description": "Delete branch.", "inputSchema": {"type": "object", "properties": {"repo": {"type": "string"}, "branch": {"type": "string"}, "force": {"type": "boolean"}}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "delete_branch", "description": "Deletes a branch of a repository on the remote. Fails on the default branch and on protected branches; with force, deletes a branch that is not merged.", "inputSchema": {"type": "object", "properties": {"repo": {"type": "string"}, "branch": {"type": "string"}, "force": {"type": "boolean"}}}}
    /// ```
    ///
    /// ## References
    /// - `docs/quality-rubric.md`, Length; `docs/quality.md` for what this rule finds on
    ///   real tools
    /// - The published studies of MCP tool-description smells rate length on this scale, as
    ///   `docs/quality-rubric.md` does
    pub struct DescriptionTooShort {
        code: "TP103",
        name: "description-too-short",
        category: Description,
        severity: Warning,
        options: [
            RuleOption {
                name: "base-words",
                default: 7,
                doc: "the words a description of a tool with parameters needs at least",
            },
            RuleOption {
                name: "words-per-parameter",
                default: 2,
                doc: "the words it needs more for each parameter no description explains (one for each explained parameter, none for an explained one whose schema or description gives its values, unit, format, default or bounds), up to eight",
            },
            RuleOption {
                name: "side-effect-words",
                default: 8,
                doc: "the words it needs more when the tool's name says it changes something",
            },
            RuleOption {
                name: "words-without-parameters",
                default: 4,
                doc: "the words a description of a tool without parameters needs at least",
            },
        ],
    }
}

impl Rule for DescriptionTooShort {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

/// An option as a count.
fn count(cx: &Context<'_>, name: &str) -> usize {
    usize::try_from(cx.option(&DescriptionTooShort::META, name)).unwrap_or(usize::MAX)
}

impl ChecksTools for DescriptionTooShort {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let facts = view.quality();
        if facts.empty {
            return;
        }
        let thresholds = Thresholds {
            base_words: count(cx, "base-words"),
            words_per_parameter: count(cx, "words-per-parameter"),
            side_effect_words: count(cx, "side-effect-words"),
            words_without_parameters: count(cx, "words-without-parameters"),
            // Too long is `description-too-long`'s.
            long_words: usize::MAX,
            ..Thresholds::default()
        };
        let Some(LengthIssue::TooBrief { words, needed }) = facts.length_issue(&thresholds) else {
            return;
        };
        let takes = match facts.parameters {
            0 => "takes no parameters".to_owned(),
            1 => "takes 1 parameter".to_owned(),
            n => format!("takes {n} parameters"),
        };
        out.push(Violation {
            tool: Some(view.index),
            pointer: "/description".to_owned(),
            message: format!(
                "the description of {:?} says in {words} word{} what a tool that {takes}{} needs at least {needed} words to say",
                view.tool.name,
                if words == 1 { "" } else { "s" },
                if facts.changes_something { " and changes something" } else { "" },
            ),
            help: "say what the tool does and to what, what it returns, what its parameters mean together, and what it changes or where it stops".into(),
        });
    }
}
