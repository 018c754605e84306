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
use std::sync::atomic::{AtomicUsize, Ordering};
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

    /// Adds findings made outside the rules (such as [`CONTRACT_CHANGED`]), sorts them in
    /// with the others (catalog order, then pointer, then code) and recounts the summary.
    pub fn extend(&mut self, findings: impl IntoIterator<Item = Finding>) {
        self.findings.extend(findings);
        sort_findings(&mut self.findings);
        self.summary = Summary {
            tools: self.summary.tools,
            ..summarize(&self.findings)
        };
    }
}

/// Findings no rule reports: a tool whose whole contract differs from the lock file
/// (`toolpact check --locked`). It has a code and a name like a rule, so that every reporter
/// shows it the same way; `--select`, `--ignore` and severities do not apply to it.
pub const CONTRACT_CHANGED: RuleMeta = RuleMeta {
    code: "TP590",
    name: "contract-changed",
    category: Category::Security,
    severity: Severity::Error,
    doc: "## What it does
Compares every tool with the contract pinned in a lock file (`toolpact lock`) and reports each
change: tools added or removed, schema changes (breaking or compatible), annotation and `_meta`
changes, and every change of a title or description, with a word diff.

## Why is this bad?
Tool definitions reach the model as they are served. A server that changes a description after
it was reviewed can steer the model (a \"rug pull\"); a new required parameter or a narrowed
type breaks agents built against the old contract; a tool that stops being read-only changes
what a client may auto-approve. Pinning only descriptions, or only names, lets the rest slip.

## Example
The lock pins `create_order` with `\"readOnlyHint\": true`; the server now serves it with
`\"readOnlyHint\": false` and the same schema: the check fails.

## Use instead
Review the change (`toolpact diff toolpact.lock CATALOG` shows it by class). If it is intended,
pin the new contract with `toolpact lock CATALOG -o toolpact.lock` and commit the lock file.

## References
- MCP security best practices: https://modelcontextprotocol.io/specification/2025-06-18/basic/security_best_practices
- RFC 8785, JSON Canonicalization Scheme: https://www.rfc-editor.org/rfc/rfc8785
",
    options: &[],
};

/// The metadata of every finding no rule reports. Their codes and names are never used by a
/// rule.
pub const OTHER_FINDINGS: &[&RuleMeta] = &[&CONTRACT_CHANGED];

/// The metadata of a rule or of one of [`OTHER_FINDINGS`], by code or name.
pub fn find_meta(selector: &str) -> Option<&'static RuleMeta> {
    rules::find(selector).map(|rule| rule.meta()).or_else(|| {
        OTHER_FINDINGS
            .iter()
            .copied()
            .find(|m| m.code.eq_ignore_ascii_case(selector) || m.name == selector)
    })
}

fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        (a.tool_index.map_or(usize::MAX, |i| i), &a.pointer, a.code).cmp(&(
            b.tool_index.map_or(usize::MAX, |i| i),
            &b.pointer,
            b.code,
        ))
    });
}

fn summarize(findings: &[Finding]) -> Summary {
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    Summary {
        tools: 0,
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        infos: count(Severity::Info),
    }
}

/// Catalogs smaller than this are checked on the calling thread: starting threads would cost
/// more than it saves.
const PARALLEL_FROM: usize = 256;

/// Runs every enabled rule over the catalog.
///
/// Large catalogs are checked on as many threads as the machine has cores: first the exports
/// the enabled rules read (one target per task), then the rules (one rule per task). The
/// findings are the same, in the same order, whatever the number of threads.
pub fn check(catalog: &Catalog, settings: &Settings) -> Report {
    let cx = Context::new(catalog, settings);
    let enabled: Vec<&dyn Rule> = rules::all()
        .iter()
        .copied()
        .filter(|rule| settings.is_enabled(rule.meta()))
        .collect();
    let exports = if enabled.iter().any(|rule| rule.uses_exports()) {
        cx.export_count()
    } else {
        0
    };
    let tasks = exports + enabled.len();
    let threads = if catalog.len() < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(tasks)
            .max(1)
    };
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let task = next.fetch_add(1, Ordering::Relaxed);
            if task >= tasks {
                return done;
            }
            if task < exports {
                cx.prepare_export(task);
                continue;
            }
            let rule = task - exports;
            let mut violations = Vec::new();
            enabled[rule].check(&cx, &mut violations);
            done.push((rule, violations));
        }
    };
    let mut results: Vec<(usize, Vec<Violation>)> = if threads == 1 {
        work()
    } else {
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
            let mut all = Vec::new();
            for worker in workers {
                match worker.join() {
                    Ok(done) => all.extend(done),
                    // A rule that panics is a bug in the rule: fail as the single-threaded
                    // check would, rather than report a partial result.
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            all
        })
    };
    results.sort_by_key(|(rule, _)| *rule);
    let findings = if threads == 1 {
        findings_of(catalog, settings, &enabled, results)
    } else {
        // The exports of a large catalog take a while to free: free them beside the work
        // that is left.
        std::thread::scope(|scope| {
            scope.spawn(move || drop(cx));
            findings_of(catalog, settings, &enabled, results)
        })
    };
    let summary = Summary {
        tools: catalog.len(),
        ..summarize(&findings)
    };
    Report { findings, summary }
}

/// The rules' violations as findings, sorted.
fn findings_of(
    catalog: &Catalog,
    settings: &Settings,
    enabled: &[&dyn Rule],
    results: Vec<(usize, Vec<Violation>)>,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (rule, violations) in results {
        let meta = enabled[rule].meta();
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
    sort_findings(&mut findings);
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_outside_the_rules_never_share_a_code_or_name_with_a_rule() {
        for other in OTHER_FINDINGS {
            for rule in rules::all() {
                assert_ne!(rule.meta().code, other.code, "{}", rule.meta().name);
                assert_ne!(rule.meta().name, other.name, "{}", rule.meta().code);
            }
            assert_eq!(find_meta(other.code), Some(*other));
            assert_eq!(find_meta(other.name), Some(*other));
            assert!(other.summary().starts_with("Compares every tool"));
        }
    }
}
