//! Measures `overlapping-tools` (TP208) on the pairs of `fixtures/overlap/paraphrases.json`:
//! tools that do the same thing in other words (recall) and related tools that do different
//! things (false positives). Each pair is checked as a catalog of its own two tools.
//! `cargo test -p toolpact-lint --test overlap -- --nocapture` prints the figures that
//! `docs/quality.md` reports.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use serde_json::Value;
use std::path::Path;
use toolpact::Catalog;
use toolpact_lint::{Settings, check};

#[test]
fn paraphrased_tools_are_found_and_related_tools_are_told_apart() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/overlap/paraphrases.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut settings = Settings::default();
    settings.select(vec!["TP208".to_owned()]).unwrap();
    let (mut found, mut positives, mut flagged, mut negatives) = (0, 0, 0, 0);
    let mut missed = Vec::new();
    let mut wrong = Vec::new();
    for pair in file["pairs"].as_array().unwrap() {
        let id = pair["id"].as_str().unwrap();
        let tools = serde_json::json!({"tools": [pair["a"], pair["b"]]});
        let catalog = Catalog::from_str_named(&tools.to_string(), id, None).unwrap();
        let reported = !check(&catalog, &settings).findings.is_empty();
        if pair["same"].as_bool().unwrap() {
            positives += 1;
            if reported {
                found += 1;
            } else {
                missed.push(id.to_owned());
            }
        } else {
            negatives += 1;
            if reported {
                flagged += 1;
                wrong.push(id.to_owned());
            }
        }
    }
    let recall = f64::from(found) / f64::from(positives);
    println!(
        "overlapping-tools on paraphrases: recall {found}/{positives} ({:.0} %), related tools flagged {flagged}/{negatives}; missed {missed:?}; flagged {wrong:?}",
        recall * 100.0
    );
    assert!(
        positives >= 40 && negatives >= 25,
        "the set holds its pairs"
    );
    assert!(recall >= 0.65, "recall {recall}: {missed:?}");
    assert!(
        flagged * 10 <= negatives,
        "related tools flagged: {wrong:?}"
    );
}
