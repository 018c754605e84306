//! Every output format parses as what it claims to be, and all of them report the same
//! findings: the JSON report is the reference the others are compared with.

use crate::common::check::{MISTAKES, check, codes, findings};
use crate::common::{Run, read};
use serde_json::Value;
use std::collections::BTreeSet;

/// The JSON report of mistakes.json.
fn reference() -> Run {
    let run = check(&[MISTAKES, "--format", "json"]);
    run.assert_code(1);
    run
}

/// How many findings of the JSON report have this severity.
fn count(run: &Run, severity: &str) -> usize {
    findings(run)
        .iter()
        .filter(|f| f["severity"] == severity)
        .count()
}

#[test]
fn json_has_every_field_and_a_summary_that_adds_up() {
    let run = reference();
    let report = run.json();
    let found = findings(&run);
    assert!(!found.is_empty());
    for f in &found {
        let keys: BTreeSet<&str> = f.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            BTreeSet::from([
                "code", "name", "category", "severity", "tool", "pointer", "file", "line",
                "column", "message", "help"
            ]),
            "{f:#}"
        );
        assert!(f["code"].as_str().unwrap().starts_with("TP"), "{f:#}");
        assert!(
            ["error", "warning", "info"].contains(&f["severity"].as_str().unwrap()),
            "{f:#}"
        );
        if !f["file"].is_null() {
            assert_eq!(f["file"], MISTAKES, "{f:#}");
            assert!(f["line"].as_u64().unwrap() >= 1, "{f:#}");
            assert!(f["column"].as_u64().unwrap() >= 1, "{f:#}");
        }
    }
    let catalog: Value = serde_json::from_slice(&read(MISTAKES)).unwrap();
    let tools = catalog["tools"].as_array().unwrap().len();
    assert_eq!(
        report["summary"],
        serde_json::json!({
            "tools": tools,
            "errors": count(&run, "error"),
            "warnings": count(&run, "warning"),
            "infos": count(&run, "info"),
        })
    );
}

#[test]
fn sarif_is_version_2_1_0_with_one_result_per_finding() {
    let json = reference();
    let run = check(&[MISTAKES, "--format", "sarif"]);
    run.assert_code(1);
    let sarif = run.json();
    assert_eq!(sarif["version"], "2.1.0");
    let runs = sarif["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let rules = runs[0]["tool"]["driver"]["rules"].as_array().unwrap();
    let results = runs[0]["results"].as_array().unwrap();
    assert_eq!(results.len(), findings(&json).len());
    let mut ids = BTreeSet::new();
    for result in results {
        let id = result["ruleId"].as_str().unwrap();
        let index = usize::try_from(result["ruleIndex"].as_u64().unwrap()).unwrap();
        assert_eq!(rules[index]["id"], id, "ruleIndex points at the rule");
        assert!(
            ["error", "warning", "note"].contains(&result["level"].as_str().unwrap()),
            "{result:#}"
        );
        ids.insert(id.to_owned());
    }
    assert_eq!(ids, codes(&json));
}

#[test]
fn github_prints_one_annotation_per_finding() {
    let json = reference();
    let run = check(&[MISTAKES, "--format", "github"]);
    run.assert_code(1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), findings(&json).len(), "{}", run.stdout);
    let starting = |prefix: &str| lines.iter().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(starting("::error "), count(&json, "error"));
    assert_eq!(starting("::warning "), count(&json, "warning"));
    assert_eq!(starting("::notice "), count(&json, "info"));
    assert!(count(&json, "error") > 0 && count(&json, "warning") > 0);
    // Findings about the whole catalog have no file; the others point into mistakes.json.
    let placed = findings(&json)
        .iter()
        .filter(|f| !f["file"].is_null())
        .count();
    assert!(placed > 0);
    let in_file = format!(" file={MISTAKES},line=");
    assert_eq!(
        lines.iter().filter(|l| l.contains(&in_file)).count(),
        placed
    );
    for line in &lines {
        assert!(line.contains("title=TP"), "{line}");
    }
}

#[test]
fn text_ends_with_a_summary_that_matches_the_findings() {
    let json = reference();
    let run = check(&[MISTAKES]);
    run.assert_code(1);
    let report = json.json();
    let summary = &report["summary"];
    let plural = |n: &Value, word: &str| {
        let n = n.as_u64().unwrap();
        format!("{n} {word}{}", if n == 1 { "" } else { "s" })
    };
    let expected = format!(
        "{}: {}, {}, {}",
        plural(&summary["tools"], "tool"),
        plural(&summary["errors"], "error"),
        plural(&summary["warnings"], "warning"),
        plural(&summary["infos"], "info"),
    );
    // The counts, then the description quality, end the report.
    let mut last = run.stdout.lines().rev();
    assert!(
        last.next()
            .is_some_and(|l| l.starts_with("description quality: "))
    );
    assert_eq!(last.next(), Some(expected.as_str()));
    let headers = run
        .stdout
        .lines()
        .filter(|l| {
            ["error[TP", "warning[TP", "info[TP"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .count();
    assert_eq!(headers, findings(&json).len());
    assert!(
        !run.stdout.contains('\u{1b}'),
        "no colour when stdout is not a terminal"
    );
}
