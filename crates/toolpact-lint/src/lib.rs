//! toolpact-lint: what makes models misuse tools, what providers and clients reject, what
//! costs too much, and what looks like an attack — found before a model ever sees the tools.
//!
//! Each rule lives in its own file under `rules/<category>/`, declares its code, name,
//! category, default severity and documentation, and reports [`Violation`]s. [`check`] runs
//! the enabled rules over a catalog and returns [`Finding`]s with the file, line and JSON
//! pointer of each; [`report`] renders them as text, JSON, SARIF or GitHub annotations.

#![deny(missing_docs)]

mod analysis;
mod context;
pub mod report;
pub mod rule;
pub mod rules;
pub mod settings;

pub use context::{Block, BlockExport, Context, Sent, ToolView, export_label};
pub use rule::{Category, ChecksTools, Part, ReadsExports, Rule, RuleMeta, Severity, Violation};
pub use settings::{Settings, SettingsError};

use serde::Serialize;
use std::ops::Range;
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

/// The order of findings: by tool (those about the whole catalog last), then pointer, then
/// code.
fn finding_order(a: &Finding, b: &Finding) -> std::cmp::Ordering {
    (a.tool_index.unwrap_or(usize::MAX), &a.pointer, a.code).cmp(&(
        b.tool_index.unwrap_or(usize::MAX),
        &b.pointer,
        b.code,
    ))
}

/// Sorts findings by tool (those about the whole catalog last), then pointer, then code,
/// keeping equal ones in the order given: the order of one stable sort by those keys, but
/// placed tool by tool first (linear in the number of findings) so that only each tool's few
/// findings are compared.
fn sort_findings(findings: &mut Vec<Finding>) {
    let tools = findings
        .iter()
        .filter_map(|f| f.tool_index)
        .max()
        .map_or(Some(0), |last| last.checked_add(1));
    // Findings made elsewhere may name any position: placing them by tool is worth it only
    // when the positions are about as many as the findings.
    let Some(tools) = tools.filter(|&tools| tools <= 4 * findings.len() + 1024) else {
        findings.sort_by(finding_order);
        return;
    };
    let slot = |f: &Finding| f.tool_index.unwrap_or(tools);
    // Where each tool's findings start, then where the next one goes.
    let mut next = vec![0usize; tools + 2];
    for finding in findings.iter() {
        next[slot(finding) + 1] += 1;
    }
    for i in 1..next.len() {
        next[i] += next[i - 1];
    }
    let starts = next.clone();
    let mut order = vec![0usize; findings.len()];
    for (i, finding) in findings.iter().enumerate() {
        let at = &mut next[slot(finding)];
        order[*at] = i;
        *at += 1;
    }
    let mut taken: Vec<Option<Finding>> = findings.drain(..).map(Some).collect();
    findings.extend(order.into_iter().filter_map(|i| taken[i].take()));
    for range in starts.windows(2) {
        if let Some(of_tool) = findings.get_mut(range[0]..range[1])
            && of_tool.len() > 1
        {
            of_tool.sort_by(|a, b| (&a.pointer, a.code).cmp(&(&b.pointer, b.code)));
        }
    }
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

/// How many tools a block holds: enough that a block is worth a task, few enough that a
/// block's tools and their lowered forms stay in the core's own cache while every rule reads
/// them. Blocks of 512 tools missed the last-level cache over twice as often (cachegrind, a
/// 4 MB last level, 3,000 tools).
const BLOCK: usize = 16;

/// One piece of work of a check.
enum Task {
    /// Run the `n`th enabled rule, which reads the whole catalog.
    Rule(usize),
    /// Check the `n`th block of tools with every rule that checks one tool at a time, then
    /// lower it and let every rule that reads exports look at it.
    Block(usize),
}

/// The rules a check runs, by the way they read the catalog; each with its position among
/// the enabled rules.
struct Plan<'r> {
    enabled: Vec<&'r dyn Rule>,
    /// Rules that read the whole catalog at once.
    whole: Vec<usize>,
    tools: Vec<(usize, &'r dyn ChecksTools)>,
    readers: Vec<(usize, &'r dyn ReadsExports)>,
}

/// What a worker made of one block.
struct BlockDone {
    n: usize,
    /// Each rule's findings in the block, in [`Plan::tools`] order.
    violations: Vec<Vec<Violation>>,
    /// One part per rule that reads exports.
    parts: Vec<Part>,
    /// For each export, the named tools whose lowering failed.
    failed: Vec<Vec<usize>>,
}

/// What a worker made.
enum Done {
    Violations(usize, Vec<Violation>),
    Block(BlockDone),
}

/// The tools of the `n`th block.
fn block_range(cx: &Context<'_>, n: usize) -> Range<usize> {
    n * BLOCK..((n + 1) * BLOCK).min(cx.catalog.len())
}

/// Lowers the `n`th block and lets every rule that reads exports gather from it.
fn gather_block(
    cx: &Context<'_>,
    readers: &[(usize, &dyn ReadsExports)],
    n: usize,
) -> (Vec<Part>, Vec<Vec<usize>>) {
    if readers.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let block = cx.block(block_range(cx, n));
    let parts = readers
        .iter()
        .map(|(_, reader)| reader.gather(cx, &block))
        .collect();
    let failed = block.exports.into_iter().map(|e| e.failed).collect();
    (parts, failed)
}

/// Checks the `n`th block: each tool with every rule that checks one tool at a time, then
/// the block as the targets receive it.
fn check_block(cx: &Context<'_>, plan: &Plan<'_>, n: usize) -> BlockDone {
    let mut violations: Vec<Vec<Violation>> = plan.tools.iter().map(|_| Vec::new()).collect();
    for index in block_range(cx, n) {
        let Some(entry) = cx.catalog.entries.get(index) else {
            continue;
        };
        let view = ToolView::new(index, &entry.tool);
        for ((_, rule), out) in plan.tools.iter().zip(&mut violations) {
            rule.check_tool(cx, &view, out);
        }
    }
    let (parts, failed) = gather_block(cx, &plan.readers, n);
    BlockDone {
        n,
        violations,
        parts,
        failed,
    }
}

/// Runs every enabled rule over the catalog.
///
/// Large catalogs are checked on as many threads as the machine has cores, in blocks of
/// tools. In each block, every tool is read by every rule that checks one tool at a time;
/// then the block is lowered for every configured target, read by the rules that read
/// exports, and dropped, so that the exports of a large catalog are never held whole. The
/// rules that read the whole catalog at once run one per task beside the blocks. The
/// findings are the same, in the same order, whatever the number of threads.
pub fn check(catalog: &Catalog, settings: &Settings) -> Report {
    let mut cx = Context::new(catalog, settings);
    let enabled: Vec<&dyn Rule> = rules::all()
        .iter()
        .copied()
        .filter(|rule| settings.is_enabled(rule.meta()))
        .collect();
    let mut plan = Plan {
        whole: Vec::new(),
        tools: Vec::new(),
        readers: Vec::new(),
        enabled,
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
    // The rules that read the whole catalog first: they are the longest tasks, and the
    // blocks fill in around them.
    let mut tasks: Vec<Task> = plan.whole.iter().map(|&i| Task::Rule(i)).collect();
    if !plan.readers.is_empty() || !plan.tools.is_empty() {
        tasks.extend((0..catalog.len().div_ceil(BLOCK)).map(Task::Block));
    }
    let threads = if catalog.len() < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(tasks.len())
            .max(1)
    };
    if !plan.readers.is_empty() {
        cx.name_tools(threads);
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        while let Some(task) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) {
            match *task {
                Task::Rule(rule) => {
                    let mut violations = Vec::new();
                    plan.enabled[rule].check(&cx, &mut violations);
                    done.push(Done::Violations(rule, violations));
                }
                Task::Block(n) => done.push(Done::Block(check_block(&cx, &plan, n))),
            }
        }
        done
    };
    let done: Vec<Done> = if threads == 1 {
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
    let mut results: Vec<(usize, Vec<Violation>)> = Vec::new();
    let mut blocks: Vec<BlockDone> = Vec::new();
    for done in done {
        match done {
            Done::Violations(rule, violations) => results.push((rule, violations)),
            Done::Block(block) => blocks.push(block),
        }
    }
    blocks.sort_by_key(|block| block.n);
    let mut failed: Vec<Vec<usize>> = cx.export_targets().map(|_| Vec::new()).collect();
    for block in &mut blocks {
        for (all, some) in failed.iter_mut().zip(std::mem::take(&mut block.failed)) {
            all.extend(some);
        }
    }
    if failed.iter().any(|f| !f.is_empty()) {
        // Rare: a tool named before it was found to fail lowering kept a name from a tool
        // after it. Name again, and read again the blocks whose names changed.
        failed.iter_mut().for_each(|f| f.sort_unstable());
        let mut changed: Vec<usize> = cx
            .name_again(&failed)
            .into_iter()
            .map(|tool| tool / BLOCK)
            .collect();
        changed.dedup();
        for n in changed {
            if let Some(block) = blocks.get_mut(n) {
                block.parts = gather_block(&cx, &plan.readers, n).0;
            }
        }
    }
    // What rules remembered on this thread (when it checked blocks) goes with the check.
    rules::forget_on_this_thread();
    // Every block was read: the names of a large catalog take a while to free, so they are
    // freed beside the work that is left.
    let names = cx.take_names();
    let finish = || {
        // Each rule's findings and parts, in catalog order.
        let mut by_tool: Vec<Vec<Violation>> = plan.tools.iter().map(|_| Vec::new()).collect();
        let mut parts: Vec<Vec<Part>> = plan.readers.iter().map(|_| Vec::new()).collect();
        for block in blocks {
            for (all, some) in by_tool.iter_mut().zip(block.violations) {
                all.extend(some);
            }
            for (of_reader, part) in parts.iter_mut().zip(block.parts) {
                of_reader.push(part);
            }
        }
        results.extend(plan.tools.iter().map(|(rule, _)| *rule).zip(by_tool));
        for ((rule, reader), parts) in plan.readers.iter().zip(parts) {
            let mut violations = Vec::new();
            reader.report(&cx, parts, &mut violations);
            results.push((*rule, violations));
        }
        results.sort_by_key(|(rule, _)| *rule);
        findings_of(catalog, settings, &plan.enabled, results)
    };
    let findings = if threads == 1 {
        drop(names);
        finish()
    } else {
        std::thread::scope(|scope| {
            scope.spawn(move || drop(names));
            finish()
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
    use crate::analysis::message::thousands;
    use serde_json::json;
    use toolpact::Tool;

    /// Tools that the export-reading rules each have something to say about.
    fn varied_tool(i: usize) -> Tool {
        let object = json!({"type": "object", "properties": {"city": {"type": "string"}}});
        match i % 5 {
            // Renamed by OpenAI, Anthropic and Gemini.
            0 => Tool::new(format!("weather.get_{i}"), "Gets the weather.", object),
            // Left out by every target.
            1 => Tool::new(
                format!("broken_{i}"),
                "Takes a list.",
                json!({"type": "array"}),
            ),
            // A free-form object and `additionalProperties` Gemini cannot take.
            2 => Tool::new(
                format!("filter_{i}"),
                "Filters the orders.",
                json!({"type": "object", "properties": {"filter": {"type": "object"}},
                       "additionalProperties": false}),
            ),
            // Over OpenAI's description cap.
            3 => Tool::new(format!("long_{i}"), "Lists the orders. ".repeat(80), object),
            _ => Tool::new(
                format!("plain_{i}"),
                "Gets the forecast for a city.",
                object,
            ),
        }
    }

    fn export_settings() -> Settings {
        let mut settings = Settings::from_toml(
            "strict = true\n[rules.catalog-tokens]\nmax-tool-tokens = 0\n",
            "toolpact.toml",
        )
        .unwrap();
        let readers: Vec<String> = rules::all()
            .iter()
            .filter(|rule| rule.reads_exports().is_some())
            .map(|rule| rule.meta().code.to_owned())
            .collect();
        settings.select(readers).unwrap();
        settings
    }

    /// The findings about one tool, without where it sits in the catalog.
    fn about(report: &Report, index: usize) -> Vec<(&'static str, String, String)> {
        report
            .findings
            .iter()
            .filter(|f| f.tool_index == Some(index))
            .map(|f| (f.code, f.pointer.clone(), f.message.clone()))
            .collect()
    }

    #[test]
    fn a_tool_that_fails_lowering_leaves_its_name_as_convert_does() {
        let mut settings = export_settings();
        settings.select(vec!["TP301".to_owned()]).unwrap();
        let mut tools: Vec<Tool> = (0..2 * BLOCK).map(varied_tool).collect();
        // Named first, and only found unfit for strict mode when lowered, in the first
        // block; the tool that gets its name once it is left out, in the second.
        let broken = json!({"type": "object", "properties": {"a": false}});
        tools[7] = Tool::new("dup.name", "Broken in strict mode.", broken);
        tools[BLOCK + 3] = Tool::new("dup_name", "Fine.", json!({"type": "object"}));
        let catalog: Catalog = tools.into_iter().collect();
        let report = check(&catalog, &settings);
        let mut expected = Vec::new();
        let cx = Context::new(&catalog, &settings);
        for (target, strict) in cx.export_targets() {
            let options = toolpact::ExportOptions { strict };
            let export = toolpact::export(catalog.tools(), target, options).unwrap();
            let label = export_label(target, strict);
            for left in export.report.left_out {
                let message = format!("{label} cannot take this tool: {}", left.reason);
                expected.push((left.index, left.pointer, message));
            }
        }
        let mut found: Vec<_> = report
            .findings
            .iter()
            .map(|f| (f.tool_index.unwrap(), f.pointer.clone(), f.message.clone()))
            .collect();
        expected.sort();
        found.sort();
        assert_eq!(found, expected);
        assert!(
            found
                .iter()
                .any(|(i, _, m)| *i == 7 && m.contains("strict mode form"))
        );
        // Strict OpenAI takes it under its own name; the other targets, which take the
        // first tool, refuse the second for the name.
        let second: Vec<&str> = found
            .iter()
            .filter(|(i, ..)| *i == BLOCK + 3)
            .map(|(.., m)| m.as_str())
            .collect();
        assert!(
            !second.iter().any(|m| m.contains("(strict)")),
            "{second:#?}"
        );
        assert!(
            !second.is_empty() && second.iter().all(|m| m.contains("collides")),
            "{second:#?}"
        );
    }

    #[test]
    fn a_large_catalog_read_block_by_block_gets_each_tools_findings_as_if_checked_alone() {
        let settings = export_settings();
        // Over every target's cap on tools, and over many blocks checked on several threads.
        let tools = 1_543;
        let catalog: Catalog = (0..tools).map(varied_tool).collect();
        let report = check(&catalog, &settings);
        assert_eq!(report, check(&catalog, &settings), "the same on every run");
        let edges = [
            0,
            1,
            BLOCK - 1,
            BLOCK,
            BLOCK + 1,
            2 * BLOCK,
            3 * BLOCK,
            tools - 1,
        ];
        for index in edges.into_iter().chain(0..10) {
            let alone: Catalog = std::iter::once(varied_tool(index)).collect();
            let expected = about(&check(&alone, &settings), 0);
            assert!(!expected.is_empty(), "tool {index} has findings");
            assert_eq!(about(&report, index), expected, "tool {index}");
        }
        let about_catalog: Vec<&str> = report
            .findings
            .iter()
            .filter(|f| f.tool_index.is_none())
            .map(|f| f.message.as_str())
            .collect();
        let count = |needle: &str| about_catalog.iter().filter(|m| m.contains(needle)).count();
        // Every target but MCP renames one tool in five, and every target leaves one in five
        // out: the counts add up over the blocks.
        let sent = thousands(tools - tools.div_ceil(5));
        assert_eq!(
            count(&format!("sends {sent} tools")),
            2,
            "{about_catalog:#?}"
        );
        assert_eq!(count(&format!("sends {sent} function declarations")), 1);
        assert_eq!(count(&format!("marks all {sent} tools strict")), 1);
        assert_eq!(
            count(&format!("the catalog of {} tools", thousands(tools))),
            1
        );
    }

    #[test]
    fn rules_that_check_one_tool_at_a_time_find_in_a_large_catalog_what_they_find_alone() {
        let mut settings = Settings::default();
        let per_tool: Vec<String> = rules::all()
            .iter()
            .filter(|rule| rule.checks_tools().is_some())
            .map(|rule| rule.meta().code.to_owned())
            .collect();
        assert!(per_tool.len() > 30, "{per_tool:?}");
        settings.select(per_tool).unwrap();
        // Over every target's cap on tools, and over many blocks checked on several threads.
        let tools = 1_543;
        let catalog: Catalog = (0..tools).map(varied_tool).collect();
        let report = check(&catalog, &settings);
        assert_eq!(report, check(&catalog, &settings), "the same on every run");
        for index in [0, 1, 2, 3, 4, BLOCK - 1, BLOCK, 2 * BLOCK + 1, tools - 1] {
            let alone: Catalog = std::iter::once(varied_tool(index)).collect();
            let expected = about(&check(&alone, &settings), 0);
            assert!(!expected.is_empty(), "tool {index} has findings");
            assert_eq!(about(&report, index), expected, "tool {index}");
        }
    }

    #[test]
    fn findings_sort_as_one_stable_sort_by_tool_pointer_and_code() {
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % n
        };
        let codes = ["TP101", "TP208", "TP302"];
        let findings: Vec<Finding> = (0..2_000)
            .map(|k| {
                let tool = next(40);
                Finding {
                    code: codes[usize::try_from(next(3)).unwrap_or(0)],
                    name: "rule",
                    category: Category::Design,
                    severity: Severity::Warning,
                    tool: None,
                    // One finding in eight is about the whole catalog.
                    tool_index: (tool % 8 != 0).then(|| usize::try_from(tool).unwrap_or(0)),
                    pointer: format!("/inputSchema/properties/p{}", next(4)),
                    origin: None,
                    // Tells equal keys apart, to see that their order is kept.
                    message: k.to_string(),
                    help: String::new(),
                }
            })
            .collect();
        let mut expected = findings.clone();
        expected.sort_by(finding_order);
        let mut sorted = findings;
        sort_findings(&mut sorted);
        assert_eq!(sorted, expected);
        let mut none = Vec::new();
        sort_findings(&mut none);
        assert!(none.is_empty());
        // Positions far beyond the findings (a finding made elsewhere) sort the same way.
        let mut far = sorted.clone();
        far[0].tool_index = Some(usize::MAX);
        far[1].tool_index = Some(1 << 40);
        let mut expected_far = far.clone();
        expected_far.sort_by(finding_order);
        sort_findings(&mut far);
        assert_eq!(far, expected_far);
    }

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
