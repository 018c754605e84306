//! The linter on one tool at a time, with every rule: never a panic; the JSON and SARIF
//! reports are valid JSON; every finding names the tool it was found on.

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolpact::Catalog;
use toolpact_fuzz::assert_json_text;
use toolpact_lint::{OutputFormat, Settings, Sources, check, render};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(catalog) = Catalog::from_str_named(text, "fuzz.json", None) else {
        return;
    };
    let mut sources = Sources::new();
    sources.insert("fuzz.json".to_owned(), text.to_owned());
    let settings = Settings::default();
    // One tool at a time, as the issue of one tool is what a fuzzer finds fastest; the first
    // few only, so that a large catalog does not make one input slow.
    for entry in catalog.entries.iter().take(4) {
        let one = Catalog {
            entries: vec![entry.clone()],
            notes: Vec::new(),
        };
        let report = check(&one, &settings);
        for finding in &report.findings {
            if let Some(tool) = &finding.tool {
                assert_eq!(tool, &entry.tool.name, "a finding on another tool");
            }
        }
        for format in [OutputFormat::Json, OutputFormat::Sarif] {
            assert_json_text(&render(&report, format, &sources, false), "a lint report");
        }
    }
});
