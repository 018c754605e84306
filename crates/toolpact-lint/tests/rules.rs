//! Every rule: documented, registered, and proven by fixtures — at least one file that
//! triggers it (`invalid_*.json`, snapshot of the rendered diagnostics) and one that does not
//! (`valid_*.json`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use toolpact::Catalog;
use toolpact_lint::{
    Category, OutputFormat, Quality, RuleMeta, Settings, Sources, all_rules, check, render,
};

fn fixtures(meta: &RuleMeta) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(meta.name);
    let mut invalid = Vec::new();
    let mut valid = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for entry in entries {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with("invalid_") && name.ends_with(".json") {
                invalid.push(path);
            } else if name.starts_with("valid_") && name.ends_with(".json") {
                valid.push(path);
            }
        }
    }
    invalid.sort();
    valid.sort();
    (invalid, valid)
}

/// Runs one rule alone over a fixture, with the fixture's optional `toolpact.toml` beside it.
fn run(meta: &RuleMeta, path: &Path) -> (toolpact_lint::Report, Sources) {
    let text = std::fs::read_to_string(path).unwrap();
    let name = format!(
        "{}/{}",
        meta.name,
        path.file_name().unwrap().to_string_lossy()
    );
    let catalog = Catalog::from_str_named(&text, &name, None).unwrap_or_else(|e| panic!("{e}"));
    let config = path.with_extension("toml");
    let mut settings = match std::fs::read_to_string(&config) {
        Ok(toml) => Settings::from_toml(&toml, &config.display().to_string()).unwrap(),
        Err(_) => Settings::default(),
    };
    settings.select(vec![meta.code.to_owned()]).unwrap();
    let mut sources = Sources::new();
    sources.insert(name, text);
    let mut report = check(&catalog, &settings);
    // The rule's findings alone: the quality score is the whole check's, and the report
    // tests cover it.
    report.quality = Quality::default();
    (report, sources)
}

#[test]
fn every_rule_has_fixtures_that_trigger_it_and_that_do_not() {
    let mut missing = Vec::new();
    for rule in all_rules() {
        let meta = rule.meta();
        let (invalid, valid) = fixtures(meta);
        if invalid.is_empty() || valid.is_empty() {
            missing.push(format!(
                "{} {}: needs tests/fixtures/{}/invalid_*.json and valid_*.json",
                meta.code, meta.name, meta.name
            ));
            continue;
        }
        for path in &valid {
            let (report, _) = run(meta, path);
            assert!(
                report.findings.is_empty(),
                "{} reports on {}:\n{:#?}",
                meta.name,
                path.display(),
                report.findings
            );
        }
        for path in &invalid {
            let (report, sources) = run(meta, path);
            assert!(
                !report.findings.is_empty(),
                "{} reports nothing on {}",
                meta.name,
                path.display()
            );
            assert!(report.findings.iter().all(|f| f.code == meta.code));
            let snapshot = format!(
                "{}@{}",
                meta.name,
                path.file_stem().unwrap().to_string_lossy()
            );
            insta::assert_snapshot!(
                snapshot,
                render(&report, OutputFormat::Text, &sources, false)
            );
        }
    }
    assert!(
        missing.is_empty(),
        "rules without fixtures:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_rule_is_documented_in_the_fixed_sections() {
    for rule in all_rules() {
        let meta = rule.meta();
        let doc = meta.documentation();
        for section in [
            "## What it does",
            "## Why is this bad?",
            "## Example",
            "## Use instead",
            "## References",
        ] {
            assert!(
                doc.contains(section),
                "{} {} lacks the section {section:?}",
                meta.code,
                meta.name
            );
        }
        assert!(!meta.summary().is_empty(), "{}", meta.name);
    }
}

#[test]
fn codes_and_names_are_unique_and_follow_the_scheme() {
    let mut codes = HashSet::new();
    let mut names = HashSet::new();
    for rule in all_rules() {
        let m = rule.meta();
        assert!(codes.insert(m.code), "code {} used twice", m.code);
        assert!(names.insert(m.name), "name {} used twice", m.name);
        assert!(
            m.code.len() == 5
                && m.code.starts_with("TP")
                && m.code[2..].bytes().all(|b| b.is_ascii_digit()),
            "{}",
            m.code
        );
        assert!(
            m.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{}",
            m.name
        );
        let digit = match m.category {
            Category::Structure => '0',
            Category::Description => '1',
            Category::Design => '2',
            Category::Provider => '3',
            Category::Size => '4',
            Category::Security => '5',
            other => panic!("{}: category {other:?} has no range of codes", m.code),
        };
        assert_eq!(
            m.code.chars().nth(2),
            Some(digit),
            "{} is in category {:?}",
            m.code,
            m.category
        );
    }
    let ordered: Vec<&str> = all_rules().iter().map(|r| r.meta().code).collect();
    let mut sorted = ordered.clone();
    sorted.sort();
    assert_eq!(ordered, sorted, "the registry lists rules in code order");
}

#[test]
fn every_fixture_folder_belongs_to_a_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            all_rules().iter().any(|r| r.meta().name == name),
            "tests/fixtures/{name} names no rule"
        );
    }
}
