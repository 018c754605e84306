//! The shipped example catalogs do what the README says: `mistakes.json` has findings of
//! every category, `gift-shop.json` none at warning or above.

use crate::common::check::{GIFT_SHOP, MISTAKES, check, field, findings};
use std::collections::BTreeSet;

#[test]
fn mistakes_has_findings_of_every_category() {
    let every: BTreeSet<String> = toolpact_lint::all_rules()
        .iter()
        .map(|rule| rule.meta().category.as_str().to_owned())
        .collect();
    assert_eq!(every.len(), 6, "{every:?}");
    let run = check(&[MISTAKES, "--format", "json"]);
    run.assert_code(1);
    assert_eq!(field(&run, "category"), every);
}

#[test]
fn mistakes_has_errors_and_warnings() {
    let run = check(&[MISTAKES, "--format", "json"]);
    assert_eq!(
        field(&run, "severity"),
        BTreeSet::from(["error".to_owned(), "warning".to_owned(), "info".to_owned()])
    );
}

#[test]
fn gift_shop_has_nothing_at_warning_or_above() {
    let run = check(&[GIFT_SHOP, "--format", "json"]);
    run.assert_code(0);
    let found = findings(&run);
    let loud: Vec<_> = found.iter().filter(|f| f["severity"] != "info").collect();
    assert!(loud.is_empty(), "{loud:#?}");
    assert_eq!(run.json()["summary"]["errors"], 0);
    assert_eq!(run.json()["summary"]["warnings"], 0);
}

#[test]
fn gift_shop_text_report_says_so() {
    let run = check(&[GIFT_SHOP, "--fail-on", "warning"]);
    run.assert_code(0);
    // The counts, then the description quality, end the report.
    let counts = run.stdout.lines().rev().nth(1).unwrap();
    assert!(
        counts.contains(": 0 errors, 0 warnings, "),
        "the summary line counts no errors and no warnings: {counts}"
    );
    assert!(!run.stdout.contains("error[TP"), "{}", run.stdout);
    assert!(!run.stdout.contains("warning[TP"), "{}", run.stdout);
}

#[test]
fn the_mistakes_report_as_a_user_reads_it() {
    let run = check(&[MISTAKES]);
    run.assert_code(1);
    insta::assert_snapshot!("mistakes-text", run.stdout);
}
