//! SARIF 2.1.0: one run, every rule as the driver's rules (so that each `ruleIndex` is stable
//! whatever was selected), one result per finding, and the description quality in the run's
//! properties.

use super::place::{Place, Placer, Sources};
use super::pretty::{write_array, write_nested};
use super::quality::quality_value;
use crate::finding::{Finding, Report};
use crate::meta::{RuleMeta, Severity};
use crate::rules::{OTHER_FINDINGS, all_rules};
use serde_json::{Value, json};
use std::io::{self, Write};

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// One finding as a SARIF result, placed in its file; `metas` gives its rule's index.
fn result(f: &Finding, metas: &[&RuleMeta], placer: &mut Placer<'_>) -> Value {
    let mut result = json!({
        "ruleId": f.code,
        "ruleIndex": metas.iter().position(|m| m.code == f.code).unwrap_or_default(),
        "level": level(f.severity),
        "message": { "text": format!("{} Help: {}", f.message, f.help) },
    });
    let logical = json!([{
        "fullyQualifiedName": format!("{}{}", f.tool.as_deref().unwrap_or_default(), f.pointer),
        "kind": "member",
    }]);
    match placer.place(f) {
        Some(Place {
            file, line, column, ..
        }) => {
            result["locations"] = json!([{
                "physicalLocation": {
                    "artifactLocation": { "uri": file },
                    "region": { "startLine": line, "startColumn": column },
                },
                "logicalLocations": logical,
            }]);
        }
        None => result["locations"] = json!([{ "logicalLocations": logical }]),
    }
    result
}

/// Where the results go in the document written with none: its only empty array under that
/// key (a key's quotes are never escaped; inside a string they would be).
const NO_RESULTS: &str = "\"results\": []";

/// Writes the document to `out`: the run with its rules, then the results a round at a time
/// on the cores ([`super::pretty`]), then the run's properties.
pub(super) fn write(out: &mut impl Write, report: &Report, sources: &Sources) -> io::Result<()> {
    // The rules, then the findings no rule reports (a changed contract), when there are any.
    let mut metas: Vec<&RuleMeta> = all_rules().iter().map(|r| r.meta()).collect();
    for other in OTHER_FINDINGS {
        if report.findings.iter().any(|f| f.code == other.code) {
            metas.push(other);
        }
    }
    let rules: Vec<Value> = metas
        .iter()
        .map(|m| {
            let mut rule = json!({
                "id": m.code,
                "name": m.name,
                "shortDescription": { "text": m.summary() },
                "fullDescription": { "text": m.summary() },
                "help": { "text": m.documentation(), "markdown": m.documentation() },
                "defaultConfiguration": { "level": level(m.severity) },
                "properties": { "category": m.category.as_str() },
            });
            // SARIF's default is enabled: only a rule off by default says so.
            if !m.enabled_by_default {
                rule["defaultConfiguration"]["enabled"] = json!(false);
            }
            rule
        })
        .collect();
    let value = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "toolpact",
                    "version": env!("CARGO_PKG_VERSION"),
                    "informationUri": "https://github.com/toolpact/toolpact",
                    "rules": rules,
                }
            },
            "results": [],
            "properties": { "quality": quality_value(&report.quality) },
        }],
    });
    let document = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
    let Some((head, tail)) = document.split_once(NO_RESULTS) else {
        return out.write_all(document.as_bytes());
    };
    out.write_all(head.as_bytes())?;
    out.write_all(b"\"results\": ")?;
    let item = |f: &Finding, placer: &mut Placer<'_>, bytes: &mut Vec<u8>| {
        write_nested(bytes, &result(f, &metas, placer), b"        ");
    };
    write_array(out, &report.findings, sources, b"        ", item)?;
    out.write_all(tail.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::{NO_RESULTS, result, write};
    use crate::report::OutputFormat;
    use crate::report::place::Placer;
    use crate::report::pretty::ROUND;
    use crate::report::pretty::tests::sample_report;
    use serde_json::Value;

    #[test]
    fn writes_what_serde_json_writes_whole_in_one_piece_or_many() {
        for n in [0, 1, 2, ROUND + 1, 3 * ROUND + 5] {
            let (report, sources) = sample_report(n);
            let written = crate::report::render(&report, OutputFormat::Sarif, &sources, false);
            // The document with no results, and the results put in as one value.
            let empty = crate::finding::Report {
                findings: Vec::new(),
                ..report.clone()
            };
            let mut none = Vec::new();
            write(&mut none, &empty, &sources).unwrap();
            let mut whole: Value = serde_json::from_slice(&none).unwrap();
            let metas: Vec<_> = crate::rules::all_rules().iter().map(|r| r.meta()).collect();
            let mut placer = Placer::new(&sources);
            let results: Vec<Value> = report
                .findings
                .iter()
                .map(|f| result(f, &metas, &mut placer))
                .collect();
            whole["runs"][0]["results"] = Value::Array(results);
            let expected = serde_json::to_string_pretty(&whole).unwrap() + "\n";
            assert_eq!(written, expected, "{n} findings");
            assert_eq!(written.matches(NO_RESULTS).count(), usize::from(n == 0));
        }
    }
}
