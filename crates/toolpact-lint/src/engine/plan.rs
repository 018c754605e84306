//! Which rules a check runs, grouped by the way each reads the catalog, and the tasks that
//! run them.

use crate::engine::blocks::BLOCK;
use crate::rule::{ChecksTools, ReadsExports, Rule};
use crate::rules::all_rules;
use crate::settings::Settings;

/// The rules a check runs, by the way they read the catalog; each with its position among
/// the enabled rules.
pub(crate) struct Plan<'r> {
    /// The enabled rules, in code order.
    pub(crate) enabled: Vec<&'r dyn Rule>,
    /// Rules that read the whole catalog at once.
    pub(crate) whole: Vec<usize>,
    /// Rules that check one tool at a time.
    pub(crate) tools: Vec<(usize, &'r dyn ChecksTools)>,
    /// Rules that read the exports, block by block.
    pub(crate) readers: Vec<(usize, &'r dyn ReadsExports)>,
    /// Whether each tool's description quality is graded ([`Settings::score_quality`]).
    pub(crate) score_quality: bool,
}

/// One piece of work of a check.
pub(crate) enum Task {
    /// Run the `n`th enabled rule, which reads the whole catalog.
    Rule(usize),
    /// Check the `n`th block of tools with every rule that checks one tool at a time, then
    /// lower it and let every rule that reads exports look at it.
    Block(usize),
}

impl Plan<'static> {
    /// The rules `settings` enable, grouped.
    pub(crate) fn new(settings: &Settings) -> Self {
        let enabled: Vec<&dyn Rule> = all_rules()
            .iter()
            .copied()
            .filter(|rule| settings.is_enabled(rule.meta()))
            .collect();
        let mut plan = Plan {
            whole: Vec::new(),
            tools: Vec::new(),
            readers: Vec::new(),
            enabled,
            score_quality: settings.score_quality,
        };
        for (i, rule) in plan.enabled.iter().enumerate() {
            if let Some(reader) = rule.reads_exports() {
                plan.readers.push((i, reader));
            } else if let Some(checker) = rule.checks_tools() {
                plan.tools.push((i, checker));
            } else {
                plan.whole.push(i);
            }
        }
        plan
    }
}

impl Plan<'_> {
    /// The tasks of a check of `tools` tools: the rules that read the whole catalog first,
    /// since they are the longest tasks and the blocks fill in around them; then the blocks,
    /// which also score every tool's description.
    pub(crate) fn tasks(&self, tools: usize) -> Vec<Task> {
        let mut tasks: Vec<Task> = self.whole.iter().map(|&i| Task::Rule(i)).collect();
        // Blocks run even without a rule that reads them: they score every tool.
        tasks.extend((0..tools.div_ceil(BLOCK)).map(Task::Block));
        tasks
    }
}
