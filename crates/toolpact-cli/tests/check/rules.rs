//! `toolpact rules` lists every code a report can show; `toolpact rule CODE|NAME` prints one
//! rule's documentation, the same text the rule's doc comment holds.

use crate::common::toolpact;
use toolpact_lint::{OTHER_FINDINGS, RuleMeta};

/// Every rule, then the findings no rule reports (TP590 contract-changed).
fn every_meta() -> Vec<&'static RuleMeta> {
    toolpact_lint::all_rules()
        .iter()
        .map(|rule| rule.meta())
        .chain(OTHER_FINDINGS.iter().copied())
        .collect()
}

#[test]
fn rules_lists_every_rule_then_contract_changed() {
    let run = toolpact(["rules"]);
    run.assert_code(0);
    assert_eq!(run.stderr, "");
    let listed: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let expected: Vec<&str> = every_meta().iter().map(|m| m.code).collect();
    assert_eq!(listed, expected);
    assert_eq!(listed.last(), Some(&"TP590"));
}

#[test]
fn rules_prints_code_name_category_severity_and_summary_in_columns() {
    let run = toolpact(["rules"]);
    let expected: String = every_meta()
        .iter()
        .map(|m| {
            format!(
                "{:<6} {:<28} {:<12} {:<8} {}\n",
                m.code,
                m.name,
                m.category.as_str(),
                m.severity.as_str(),
                m.summary()
            )
        })
        .collect();
    assert_eq!(run.stdout, expected);
    assert!(
        run.stdout.lines().any(|l| l.starts_with(
            "TP590  contract-changed             security     error    Compares every tool"
        )),
        "{}",
        run.stdout
    );
}

/// What `toolpact rule` prints for a rule without options.
fn documentation(m: &RuleMeta) -> String {
    assert!(m.options.is_empty());
    format!(
        "# {} {}\n\nCategory: {}. Default severity: {}.\n\n{}\n",
        m.code,
        m.name,
        m.category.as_str(),
        m.severity.as_str(),
        m.documentation()
    )
}

#[test]
fn rule_prints_the_documentation_by_code_or_name() {
    let meta = toolpact_lint::find_meta("TP101").unwrap();
    assert_eq!(meta.name, "missing-description");
    for selector in ["TP101", "tp101", "missing-description"] {
        let run = toolpact(["rule", selector]);
        run.assert_code(0);
        assert_eq!(run.stdout, documentation(meta), "{selector}");
        assert!(
            run.stdout.starts_with(
                "# TP101 missing-description\n\nCategory: description. Default severity: error.\n\n## What it does\n"
            ),
            "{}",
            run.stdout
        );
        for section in [
            "## Why is this bad?",
            "## Example",
            "## Use instead",
            "## References",
        ] {
            assert!(run.stdout.contains(section), "{selector}: no {section}");
        }
    }
}

#[test]
fn rule_prints_contract_changed_too() {
    let run = toolpact(["rule", "TP590"]);
    run.assert_code(0);
    assert_eq!(run.stdout, documentation(&toolpact_lint::CONTRACT_CHANGED));
}

#[test]
fn rule_lists_a_rule_s_options() {
    let run = toolpact(["rule", "description-too-long"]);
    run.assert_code(0);
    let meta = toolpact_lint::find_meta("description-too-long").unwrap();
    assert!(!meta.options.is_empty());
    let options = run
        .stdout
        .split_once("\n## Options\n")
        .map(|(_, options)| options)
        .unwrap_or_else(|| panic!("no options section:\n{}", run.stdout));
    let expected: String = meta
        .options
        .iter()
        .map(|o| format!("- `{}` (default {}): {}\n", o.name, o.default, o.doc))
        .collect();
    assert_eq!(options, expected);
}

#[test]
fn an_unknown_rule_exits_2_with_a_clear_error() {
    let run = toolpact(["rule", "TP999"]);
    assert_eq!(
        run.assert_error(),
        "error: no rule is named \"TP999\"; `toolpact rules` lists them\n"
    );
}
