//! The report formats: SARIF validated against the SARIF 2.1.0 schema, JSON with every field
//! CI tools read, GitHub annotations escaped as the workflow-command syntax wants.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use serde_json::Value;
use toolpact::Catalog;
use toolpact_lint::{
    CONTRACT_CHANGED, OutputFormat, Settings, Sources, check, render, write_report,
};

/// A catalog with findings of several rules and severities, read from the lint fixtures.
fn report() -> (toolpact_lint::Report, Sources) {
    let mut catalog = Catalog::new();
    let mut sources = Sources::new();
    for file in [
        "invalid-name/invalid_spaces_and_slashes.json",
        "hidden-characters/invalid_tags_zero_width_bidi_ansi.json",
        "provider-loss/invalid_exclusive_minimum_for_gemini.json",
    ] {
        let path = format!("{}/tests/fixtures/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        catalog.extend(Catalog::from_str_named(&text, file, None).unwrap());
        sources.insert(file.to_owned(), text);
    }
    (check(&catalog, &Settings::default()), sources)
}

fn fix_language_patterns(value: &mut Value) -> usize {
    match value {
        Value::String(s) if s == "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" => {
            *s = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".to_owned();
            1
        }
        Value::Array(items) => items.iter_mut().map(fix_language_patterns).sum(),
        Value::Object(map) => map.values_mut().map(fix_language_patterns).sum(),
        _ => 0,
    }
}

/// The SARIF 2.1.0 schema, compiled.
fn sarif_validator() -> jsonschema::Validator {
    let path = std::env::var("TOOLPACT_SARIF_SCHEMA").unwrap_or_else(|_| {
        format!(
            "{}/../../target/sarif-schema/sarif-2.1.0-rtm.5.json",
            env!("CARGO_MANIFEST_DIR")
        )
    });
    let schema_text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("cannot read the SARIF schema at {path} ({e}); run scripts/fetch-sarif-schema.sh (.ci/run does)")
    });
    let mut schema: Value = serde_json::from_str(&schema_text).unwrap();
    // The published schema has a stray `]` in the pattern of the `language` properties (not a
    // valid ECMA-262 regular expression, so the validator refuses the schema itself); use the
    // pattern it means. Nothing toolpact writes sets `language`.
    assert_eq!(fix_language_patterns(&mut schema), 2);
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .offline()
        .build(&schema)
        .unwrap()
}

#[test]
fn sarif_is_valid_against_the_sarif_2_1_0_schema() {
    let validator = sarif_validator();
    let (report, sources) = report();
    assert!(report.findings.len() > 5);
    let sarif: Value =
        serde_json::from_str(&render(&report, OutputFormat::Sarif, &sources, false)).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF output breaks the schema:\n{}",
        errors.join("\n")
    );
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), report.findings.len());
    let invalid_name = results.iter().find(|r| r["ruleId"] == "TP001").unwrap();
    let location = &invalid_name["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "invalid-name/invalid_spaces_and_slashes.json"
    );
    assert_eq!(location["region"]["startLine"], 3);
    assert_eq!(location["region"]["startColumn"], 13);
}

#[test]
fn json_findings_carry_every_field() {
    let (report, sources) = report();
    let json: Value =
        serde_json::from_str(&render(&report, OutputFormat::Json, &sources, false)).unwrap();
    let findings = json["findings"].as_array().unwrap();
    assert_eq!(findings.len(), report.findings.len());
    for f in findings {
        // A finding about the whole catalog (token counts) has no tool and no position.
        let keys: &[&str] = if f["tool"].is_null() {
            &["code", "name", "severity", "pointer", "message", "help"]
        } else {
            &[
                "code", "name", "severity", "tool", "pointer", "file", "line", "column", "message",
                "help",
            ]
        };
        for key in keys {
            assert!(
                f.get(*key).is_some_and(|v| !v.is_null()),
                "{key} missing in {f}"
            );
        }
    }
    assert!(findings.iter().any(|f| !f["tool"].is_null()));
    assert_eq!(json["summary"]["tools"], 5);
    assert!(json["summary"]["errors"].as_u64().unwrap() >= 4);
}

#[test]
fn github_annotations_escape_properties_and_data() {
    let (report, sources) = report();
    let text = render(&report, OutputFormat::Github, &sources, false);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), report.findings.len());
    assert!(
        lines.iter().any(|l| l.starts_with(
            "::error file=invalid-name/invalid_spaces_and_slashes.json,line=3,col=13,title=TP001 invalid-name::"
        )),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("::notice ")),
        "info findings are notices"
    );
    for line in &lines {
        let (_, message) = line.split_once("::").unwrap().1.split_once("::").unwrap();
        assert!(!message.contains('\n') && !message.contains('\r'));
    }
}

#[test]
fn text_shows_the_exact_line_with_a_caret() {
    let (report, sources) = report();
    let text = render(&report, OutputFormat::Text, &sources, false);
    assert!(
        text.contains(
            "error[TP001]: the tool name \"get weather/today\" breaks the MCP naming rule"
        ),
        "{text}"
    );
    assert!(
        text.contains("\n --> invalid-name/invalid_spaces_and_slashes.json:3:13\n"),
        "{text}"
    );
    assert!(
        text.contains("3 |     \"name\": \"get weather/today\",\n  |             ^\n  = at: "),
        "{text}"
    );
    // The counts, then the catalog's description quality, end the report.
    let mut last = text.lines().rev();
    assert!(
        last.next()
            .is_some_and(|l| l.starts_with("description quality: ")),
        "{text}"
    );
    assert!(last.next().is_some_and(|l| l.ends_with("infos")), "{text}");
    assert!(!text.contains('\u{1b}'), "no colour unless asked");
    assert!(render(&report, OutputFormat::Text, &sources, true).contains("\u{1b}[1;31merror"));
}

#[test]
fn findings_outside_the_rules_are_reported_with_their_own_metadata() {
    let (mut report, sources) = report();
    let before = report.findings.len();
    let errors_before = report.summary.errors;
    let first = report
        .findings
        .iter()
        .find(|f| f.tool_index == Some(0))
        .unwrap()
        .clone();
    report.extend([toolpact_lint::Finding {
        code: CONTRACT_CHANGED.code,
        name: CONTRACT_CHANGED.name,
        category: CONTRACT_CHANGED.category,
        severity: CONTRACT_CHANGED.severity,
        tool: first.tool.clone(),
        tool_index: Some(0),
        pointer: "/description".to_owned(),
        origin: first.origin.clone(),
        message: "the contract differs from the lock (description): tool description changed"
            .to_owned(),
        help: "pin it again with `toolpact lock`".into(),
    }]);
    assert_eq!(report.findings.len(), before + 1);
    assert_eq!(report.summary.errors, errors_before + 1);
    let position = report
        .findings
        .iter()
        .position(|f| f.code == CONTRACT_CHANGED.code)
        .unwrap();
    assert!(
        report.findings[..position]
            .iter()
            .all(|f| f.tool_index == Some(0)),
        "sorted in with the findings of its tool"
    );

    let sarif: Value =
        serde_json::from_str(&render(&report, OutputFormat::Sarif, &sources, false)).unwrap();
    let errors: Vec<String> = sarif_validator()
        .iter_errors(&sarif)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let run = &sarif["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), toolpact_lint::all_rules().len() + 1);
    let result = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "TP590")
        .unwrap();
    let index = result["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["name"], "contract-changed");

    // Without such a finding, the rules are listed as before.
    let (plain, sources) = self::report();
    let sarif: Value =
        serde_json::from_str(&render(&plain, OutputFormat::Sarif, &sources, false)).unwrap();
    assert_eq!(
        sarif["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .len(),
        toolpact_lint::all_rules().len()
    );
}

/// Writing a report out as it is made gives the bytes `render` gives, in every format.
#[test]
fn a_report_written_out_is_the_rendered_report() {
    let (report, sources) = report();
    assert!(report.findings.len() > 3);
    for format in [
        OutputFormat::Text,
        OutputFormat::Json,
        OutputFormat::Sarif,
        OutputFormat::Github,
    ] {
        let mut written = Vec::new();
        write_report(&mut written, &report, format, &sources, false).unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            render(&report, format, &sources, false),
            "{format:?}"
        );
    }
}
