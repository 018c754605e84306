//! The seeds' name-checking exercise: `NAME ok` for 1–128 characters of ASCII letters,
//! digits, `_`, `-` and `.`, otherwise `NAME invalid` (MCP SEP-986).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use serde_json::Value;
use toolpact::name::{ANTHROPIC, GEMINI, MCP, OPENAI};

#[test]
fn the_name_check_exercise() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/cases/name_check.json"
    ))
    .unwrap();
    let cases: Value = serde_json::from_str(&text).unwrap();
    let cases = cases["cases"].as_array().unwrap();
    assert!(cases.len() >= 15);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let line = format!(
            "{name} {}",
            if MCP.accepts(name) { "ok" } else { "invalid" }
        );
        assert_eq!(line, case["expected_line"].as_str().unwrap());
    }
}

#[test]
fn every_rewrite_is_accepted_by_its_rule() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/cases/name_check.json"
    ))
    .unwrap();
    let cases: Value = serde_json::from_str(&text).unwrap();
    for case in cases["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        for rule in [MCP, OPENAI, ANTHROPIC, GEMINI] {
            match rule.rewrite(name) {
                Some(rewritten) => {
                    assert!(
                        rule.accepts(&rewritten),
                        "{}: {name:?} → {rewritten:?}",
                        rule.label
                    );
                    if rule.accepts(name) {
                        assert_eq!(rewritten, name, "an accepted name is never changed");
                    }
                }
                None => assert!(name.is_empty()),
            }
        }
    }
}
