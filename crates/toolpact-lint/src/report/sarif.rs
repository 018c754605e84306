//! SARIF 2.1.0: one run, every rule as the driver's rules (so that each `ruleIndex` is stable
//! whatever was selected), one result per finding, and the description quality in the run's
//! properties.

use super::place::{Place, Placer, Sources};
use super::quality::quality_value;
use crate::finding::Report;
use crate::meta::{RuleMeta, Severity};
use crate::rules::{OTHER_FINDINGS, all_rules};
use serde_json::{Value, json};

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

pub(super) fn render(report: &Report, sources: &Sources) -> String {
    let mut placer = Placer::new(sources);
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
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
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
            "results": results,
            "properties": { "quality": quality_value(&report.quality) },
        }],
    });
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}
