//! The description quality score: in the JSON and SARIF reports and on the text report's last
//! line, `--fail-under` in CI, and the line on standard error that says which configuration
//! file the text report used.

use crate::common::absolute;
use crate::common::check::{GIFT_SHOP, MISTAKES, check, check_in, write};
use toolpact_lint::COMPONENTS;

#[test]
fn json_reports_the_catalog_score_and_each_tool_s() {
    let run = check(&[GIFT_SHOP, "--format", "json"]);
    let report = run.json();
    let quality = &report["quality"];
    let overall = quality["overall"].as_f64().unwrap();
    assert!((0.0..=5.0).contains(&overall), "{quality}");
    for component in COMPONENTS {
        assert!(
            quality[component].as_f64().is_some(),
            "{component}: {quality}"
        );
    }
    let tools = quality["tools"].as_array().unwrap();
    assert_eq!(
        tools.len(),
        report["summary"]["tools"].as_u64().unwrap() as usize
    );
    assert!(
        tools
            .iter()
            .all(|t| t["tool"].is_string() && t["purpose"].as_u64().unwrap() <= 5)
    );
}

#[test]
fn sarif_carries_the_score_in_the_run_properties() {
    let run = check(&[GIFT_SHOP, "--format", "sarif"]);
    let quality = &run.json()["runs"][0]["properties"]["quality"];
    assert!(quality["overall"].as_f64().is_some(), "{quality}");
    assert!(quality["tools"].as_array().is_some_and(|t| !t.is_empty()));
}

#[test]
fn text_ends_with_a_one_line_summary_of_the_score() {
    let run = check(&[GIFT_SHOP]);
    let last = run.stdout.lines().last().unwrap();
    assert!(last.starts_with("description quality: "), "{}", run.stdout);
    for component in COMPONENTS {
        assert!(last.contains(component), "{last}");
    }
}

#[test]
fn fail_under_fails_a_catalog_scored_below_it() {
    let report = check(&[GIFT_SHOP, "--format", "json"]).json();
    let overall = report["quality"]["overall"].as_f64().unwrap();
    check(&[GIFT_SHOP, "--fail-under", "0"]).assert_code(0);
    check(&[
        GIFT_SHOP,
        "--fail-under",
        &format!("{}", (overall - 0.2).max(0.0)),
    ])
    .assert_code(0);
    check(&[GIFT_SHOP, "--fail-under", &format!("{}", overall + 0.2)]).assert_code(1);
    check(&[MISTAKES, "--fail-on", "never", "--fail-under", "5"]).assert_code(1);
    let out_of_range = check(&[GIFT_SHOP, "--fail-under", "6"]);
    let stderr = out_of_range.assert_error();
    assert!(
        stderr.contains("\"6\" is not a score from 0 to 5"),
        "{stderr}"
    );
}

#[test]
fn the_text_report_says_which_configuration_file_it_used() {
    let dir = tempfile::tempdir().unwrap();
    let gift_shop = absolute(GIFT_SHOP);
    let without = check_in(dir.path(), &[&gift_shop]);
    assert_eq!(without.stderr, "", "no file, nothing to say");
    write(dir.path(), "toolpact.toml", "ignore = [\"TP206\"]\n");
    let with = check_in(dir.path(), &[&gift_shop]);
    assert_eq!(with.stderr, "using the configuration in toolpact.toml\n");
    write(dir.path(), "lint.toml", "ignore = [\"TP206\"]\n");
    let named = check_in(dir.path(), &[&gift_shop, "--config", "lint.toml"]);
    assert_eq!(named.stderr, "using the configuration in lint.toml\n");
    for format in ["json", "sarif", "github"] {
        let machine = check_in(dir.path(), &[&gift_shop, "--format", format]);
        assert_eq!(machine.stderr, "", "{format} reports stay machine-readable");
    }
}

#[test]
fn timings_go_to_standard_error_and_leave_the_report_alone() {
    let plain = check(&[GIFT_SHOP, "--format", "json"]);
    let timed = check(&[GIFT_SHOP, "--format", "json", "--timings"]);
    assert_eq!(plain.stderr, "");
    assert_eq!(timed.stdout, plain.stdout, "the same report, byte for byte");
    let plain_report = plain.json();
    let timed_report = timed.json();
    assert_eq!(timed_report["findings"], plain_report["findings"]);
    assert_eq!(timed_report["quality"], plain_report["quality"]);
    let mut lines = timed.stderr.lines();
    let phases = lines.next().unwrap_or_default();
    for phase in ["timings (wall): reading ", ", checking ", ", writing "] {
        assert!(phases.contains(phase), "{}", timed.stderr);
    }
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with("timings (time in each part of the check, ")),
        "{}",
        timed.stderr
    );
    // Every line after the headings is a time, its share and a rule or a shared analysis.
    let rows: Vec<&str> = lines.collect();
    assert!(!rows.is_empty(), "{}", timed.stderr);
    assert!(
        rows.iter().all(|row| row
            .trim_start()
            .split(' ')
            .next()
            .is_some_and(|t| t.parse::<f64>().is_ok())),
        "{}",
        timed.stderr
    );
    assert!(
        rows.iter().any(|row| row.contains("the poisoning scan")),
        "{}",
        timed.stderr
    );
}
