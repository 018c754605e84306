//! What a rule is: its metadata (code, name, category, default severity, documentation,
//! options) and the check it runs over a catalog.

use crate::context::{Block, Context, ToolView};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; rarely a problem on its own.
    Info,
    /// Likely to make models misuse the tool, or a client degrade it.
    Warning,
    /// A client or provider will reject the tool, or it is unsafe.
    Error,
}

impl Severity {
    /// The word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a rule is about. Codes are grouped by category: `TP0xx` structure and spec, `TP1xx`
/// descriptions, `TP2xx` schema design, `TP3xx` provider compatibility, `TP4xx` size and
/// cost, `TP5xx` security.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// The definition breaks the MCP specification or JSON Schema.
    Structure,
    /// The text the model reads does not tell it enough.
    Description,
    /// The schema invites wrong or invented arguments.
    Design,
    /// A provider or client rejects or degrades the tool.
    Provider,
    /// The definition costs too many bytes or tokens.
    Size,
    /// The definition looks like an attack on the model or the user.
    Security,
}

impl Category {
    /// The word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Structure => "structure",
            Category::Description => "description",
            Category::Design => "design",
            Category::Provider => "provider",
            Category::Size => "size",
            Category::Security => "security",
        }
    }
}

/// A numeric option of a rule, set in `toolpact.toml` under `[rules.<name>]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleOption {
    /// The option's name.
    pub name: &'static str,
    /// Its value when not set.
    pub default: u64,
    /// What it changes.
    pub doc: &'static str,
}

/// Everything about a rule except its check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMeta {
    /// `TP` and three digits; never reused.
    pub code: &'static str,
    /// Kebab-case name, usable wherever a code is.
    pub name: &'static str,
    /// What the rule is about.
    pub category: Category,
    /// Severity unless the configuration changes it.
    pub severity: Severity,
    /// The rule's documentation (What it does / Why is this bad? / Example / Use instead /
    /// References), taken from its doc comment.
    pub doc: &'static str,
    /// Its options.
    pub options: &'static [RuleOption],
}

impl RuleMeta {
    /// The first sentence of "What it does", for listings.
    pub fn summary(&self) -> String {
        let mut lines = self
            .doc
            .lines()
            .map(str::trim)
            .skip_while(|l| l.is_empty() || l.starts_with('#'));
        let mut text = String::new();
        for line in lines.by_ref() {
            if line.is_empty() {
                break;
            }
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(line);
        }
        text
    }

    /// The documentation as written, without the one space rustdoc keeps before each line.
    pub fn documentation(&self) -> String {
        self.doc
            .lines()
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_owned()
    }
}

/// One finding, as a rule reports it. The engine adds the severity and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The tool's position in the catalog, or `None` for a finding about the whole catalog.
    pub tool: Option<usize>,
    /// JSON pointer into the tool (or the catalog), such as `/inputSchema/properties/date`.
    pub pointer: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What to write instead.
    pub help: String,
}

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
            for (index, tool) in cx.tools() {
                rule.check_tool(cx, &ToolView::new(index, tool), out);
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
            options: [$($option:expr),* $(,)?] $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, Default)]
        $vis struct $name;

        impl $name {
            /// The rule's metadata.
            pub const META: $crate::rule::RuleMeta = $crate::rule::RuleMeta {
                code: $code,
                name: $kebab,
                category: $crate::rule::Category::$category,
                severity: $crate::rule::Severity::$severity,
                doc: concat!($($doc, "\n"),*),
                options: &[$($option),*],
            };
        }
    };
}

pub(crate) use declare_rule;
