//! What a rule is to the engine: the check it runs, by the way it reads the catalog (the
//! whole catalog, one tool at a time, or the exports block by block), and the macro that
//! declares a rule with its metadata.

use crate::context::{Context, ToolView};
use crate::engine::blocks::Block;
use crate::engine::scratch::Scratch;
use crate::finding::Violation;
use crate::meta::{RuleMeta, Severity};
use std::any::Any;

/// A lint rule.
pub trait Rule: Send + Sync {
    /// The rule's metadata.
    fn meta(&self) -> &'static RuleMeta;
    /// Reports every violation in the catalog. A rule that looks at one tool at a time
    /// reports through [`Rule::checks_tools`], which the engine runs block by block; this
    /// then runs it over every tool, for a caller that runs the rule alone. A rule that reads
    /// exports reports through [`Rule::reads_exports`] only.
    fn check(&self, cx: &Context<'_>, out: &mut Vec<Violation>) {
        if let Some(rule) = self.checks_tools() {
            let scratch = Scratch::default();
            for (index, tool) in cx.tools() {
                rule.check_tool(cx, &ToolView::new(index, tool, &scratch), out);
            }
        }
    }
    /// For a rule whose findings are each about one tool: how it checks one tool.
    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        None
    }
    /// For a rule about what the targets receive: how it reads the exports.
    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        None
    }
}

/// A rule whose findings are each about one tool, found by reading that tool alone (and, at
/// most, the names of the others, from [`Context`]).
///
/// The engine hands each tool to every such rule in turn, block by block, so that a tool is
/// read from memory once for all of them, and what several rules read of it (its texts and
/// their words) is worked out once, by the first rule that asks for it.
pub trait ChecksTools: Sync {
    /// Reports the violations of one tool, in the order the rule finds them.
    fn check_tool(&self, cx: &Context<'_>, tool: &ToolView<'_>, out: &mut Vec<Violation>);

    /// The severity the evidence of one of this tool's violations supports, for a rule whose
    /// findings are not all equally sure (a weak single signal, a strong one); `None`, the
    /// default, gives it the rule's severity. It only ever lowers a finding: the engine
    /// reports the lower of this and the rule's configured severity, so a rule set to
    /// `warning` reports no `error`.
    fn severity_of(&self, _tool: &ToolView<'_>, _violation: &Violation) -> Option<Severity> {
        None
    }
}

/// What a rule keeps of one block of tools, for [`ReadsExports::report`].
pub type Part = Box<dyn Any + Send>;

/// A rule that reads the catalog as each configured target receives it.
///
/// The engine lowers the catalog block by block (with the passes `toolpact convert` runs),
/// hands each [`Block`] to [`ReadsExports::gather`] — on several threads for a large
/// catalog — and drops it; [`ReadsExports::report`] then gets what was gathered, in catalog
/// order.
pub trait ReadsExports: Sync {
    /// Looks at one block of tools.
    fn gather(&self, cx: &Context<'_>, block: &Block<'_>) -> Part;
    /// Reports from the parts of every block, in catalog order.
    fn report(&self, cx: &Context<'_>, parts: Vec<Part>, out: &mut Vec<Violation>);
}

/// A rule about what the targets receive whose findings are each about one tool: it
/// reports block by block, and its report is the blocks' findings in order.
pub(crate) trait ChecksBlocks: Sync {
    /// Reports the violations of the tools in `block`.
    fn check_block(&self, cx: &Context<'_>, block: &Block<'_>, out: &mut Vec<Violation>);
}

impl<T: ChecksBlocks> ReadsExports for T {
    fn gather(&self, cx: &Context<'_>, block: &Block<'_>) -> Part {
        let mut violations = Vec::new();
        self.check_block(cx, block, &mut violations);
        Box::new(violations)
    }

    fn report(&self, _cx: &Context<'_>, parts: Vec<Part>, out: &mut Vec<Violation>) {
        concat_violations(parts, out);
    }
}

/// The parts of rules whose parts are violations, in order. A part of another type (a bug)
/// is skipped.
pub(crate) fn concat_violations(parts: Vec<Part>, out: &mut Vec<Violation>) {
    out.extend(parts_of::<Vec<Violation>>(parts).flatten());
}

/// The parts as the type the rule gathered. A part of another type (a bug) is skipped.
pub(crate) fn parts_of<T: 'static>(parts: Vec<Part>) -> impl Iterator<Item = T> {
    parts
        .into_iter()
        .filter_map(|part| part.downcast::<T>().ok().map(|part| *part))
}

/// Declares a rule type with its metadata; the doc comment becomes the documentation that
/// `toolpact rule` prints.
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        $vis:vis struct $name:ident {
            code: $code:literal,
            name: $kebab:literal,
            category: $category:ident,
            severity: $severity:ident,
            $(enabled_by_default: $enabled:literal,)?
            options: [$($option:expr),* $(,)?] $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, Default)]
        $vis struct $name;

        impl $name {
            /// The rule's metadata.
            pub const META: $crate::meta::RuleMeta = $crate::meta::RuleMeta {
                code: $code,
                name: $kebab,
                category: $crate::meta::Category::$category,
                severity: $crate::meta::Severity::$severity,
                enabled_by_default: true $(&& $enabled)?,
                doc: concat!($($doc, "\n"),*),
                options: &[$($option),*],
            };
        }
    };
}

pub(crate) use declare_rule;
