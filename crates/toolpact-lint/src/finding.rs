//! What a check finds: each violation as a rule reports it, each finding ready to report
//! (with its rule's code, severity, tool and place), the counts, and the report that holds
//! them in order.

use crate::engine::sort::sort_by_tool;
use crate::meta::{Category, Severity};
use crate::quality::Quality;
use serde::Serialize;
use std::borrow::Cow;
use toolpact::Origin;

/// One finding, as a rule reports it. The engine adds the severity and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The tool's position in the catalog, or `None` for a finding about the whole catalog.
    pub tool: Option<usize>,
    /// JSON pointer into the tool (or the catalog), such as `/inputSchema/properties/date`.
    pub pointer: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What to write instead: most rules give the same advice every time, which is then
    /// not copied for each violation.
    pub help: Cow<'static, str>,
}

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
    pub help: Cow<'static, str>,
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
    /// The quality score of every tool's description.
    pub quality: Quality,
}

impl Report {
    /// The most severe finding's severity.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// Adds findings made outside the rules (such as
    /// [`CONTRACT_CHANGED`](crate::CONTRACT_CHANGED)), sorts them in with the others
    /// (catalog order, then pointer, then code) and recounts the summary.
    pub fn extend(&mut self, findings: impl IntoIterator<Item = Finding>) {
        self.findings.extend(findings);
        sort_findings(&mut self.findings);
        self.summary = Summary::of(self.summary.tools, &self.findings);
    }
}

impl Summary {
    /// The counts of `findings`, for a catalog of `tools` tools.
    pub(crate) fn of(tools: usize, findings: &[Finding]) -> Summary {
        let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
        Summary {
            tools,
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            infos: count(Severity::Info),
        }
    }
}

/// Sorts findings by tool (those about the whole catalog last), then pointer, then code,
/// keeping equal ones in the order given: the order of one stable sort by those keys,
/// with only each tool's few findings compared.
pub(crate) fn sort_findings(findings: &mut [Finding]) {
    sort_by_tool(
        findings,
        |f| f.tool_index,
        |a, b| (&a.pointer, a.code).cmp(&(&b.pointer, b.code)),
    );
}

#[cfg(test)]
mod tests {
    use super::{Finding, sort_findings};
    use crate::meta::{Category, Severity};

    /// The order of findings: by tool (those about the whole catalog last), then pointer, then
    /// code.
    fn finding_order(a: &Finding, b: &Finding) -> std::cmp::Ordering {
        (a.tool_index.unwrap_or(usize::MAX), &a.pointer, a.code).cmp(&(
            b.tool_index.unwrap_or(usize::MAX),
            &b.pointer,
            b.code,
        ))
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
                    help: "".into(),
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
}
