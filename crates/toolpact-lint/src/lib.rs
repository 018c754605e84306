//! toolpact-lint: what makes models misuse tools, what providers and clients reject, what
//! costs too much, and what looks like an attack — found before a model ever sees the tools.
//!
//! Each rule lives in its own file under `rules/<category>/`, declares its code, name,
//! category, default severity and documentation, and reports [`Violation`]s. [`check`] runs
//! the enabled rules over a catalog and returns [`Finding`]s with the file, line and JSON
//! pointer of each; [`report`] renders them as text, JSON, SARIF or GitHub annotations.

#![deny(missing_docs)]

mod context;
pub mod report;
pub mod rule;
pub mod rules;
pub mod settings;

pub use context::{Context, TargetExport};
pub use rule::{Category, Rule, RuleMeta, Severity, Violation};
pub use settings::{Settings, SettingsError};

use serde::Serialize;
use toolpact::{Catalog, Origin};

/// One finding, ready to report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The rule's code.
    pub code: &'static str,
    /// The rule's name.
    pub name: &'static str,
    /// The rule's category.
    pub category: Category,
    /// The severity, after configuration.
    pub severity: Severity,
    /// The tool's name, for a finding about one tool.
    pub tool: Option<String>,
    /// The tool's position in the catalog.
    #[serde(skip)]
    pub tool_index: Option<usize>,
    /// JSON pointer into the tool (or the catalog).
    pub pointer: String,
    /// Where the tool was read.
    pub origin: Option<Origin>,
    /// What is wrong.
    pub message: String,
    /// What to do instead.
    pub help: String,
}

/// Counts for a summary line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Tools checked.
    pub tools: usize,
    /// Findings at error severity.
    pub errors: usize,
    /// Findings at warning severity.
    pub warnings: usize,
    /// Findings at info severity.
    pub infos: usize,
}

/// The result of a check.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The findings, in catalog order, then pointer, then code.
    pub findings: Vec<Finding>,
    /// The counts.
    pub summary: Summary,
}

impl Report {
    /// The most severe finding's severity.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }
}

/// Runs every enabled rule over the catalog.
pub fn check(catalog: &Catalog, settings: &Settings) -> Report {
    let cx = Context::new(catalog, settings);
    let mut findings = Vec::new();
    for rule in rules::all() {
        let meta = rule.meta();
        if !settings.is_enabled(meta) {
            continue;
        }
        let mut violations = Vec::new();
        rule.check(&cx, &mut violations);
        let severity = settings.severity(meta);
        findings.extend(violations.into_iter().map(|v| {
            let entry = v.tool.and_then(|i| catalog.entries.get(i));
            Finding {
                code: meta.code,
                name: meta.name,
                category: meta.category,
                severity,
                tool: entry.map(|e| e.tool.name.clone()),
                tool_index: v.tool,
                pointer: v.pointer,
                origin: entry.map(|e| e.origin.clone()),
                message: v.message,
                help: v.help,
            }
        }));
    }
    findings.sort_by(|a, b| {
        (a.tool_index.map_or(usize::MAX, |i| i), &a.pointer, a.code).cmp(&(
            b.tool_index.map_or(usize::MAX, |i| i),
            &b.pointer,
            b.code,
        ))
    });
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let summary = Summary {
        tools: catalog.len(),
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        infos: count(Severity::Info),
    };
    Report { findings, summary }
}
