//! `{"findings": [...], "summary": {...}, "quality": {...}}`: every finding with its code,
//! name, severity, tool, pointer, file, line, column, message and help; the counts; and the
//! description quality of the catalog and of each tool.

use super::place::{Placer, Sources};
use super::quality::quality_value;
use crate::finding::{Report, Summary};
use crate::meta::{Category, Severity};
use serde::Serialize;

/// One finding as the JSON report writes it, fields in this order.
#[derive(Serialize)]
struct Entry<'r> {
    code: &'r str,
    name: &'r str,
    category: Category,
    severity: Severity,
    tool: Option<&'r str>,
    pointer: &'r str,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    message: &'r str,
    help: &'r str,
}

#[derive(Serialize)]
struct Document<'r> {
    findings: Vec<Entry<'r>>,
    summary: &'r Summary,
    quality: serde_json::Value,
}

pub(super) fn render(report: &Report, sources: &Sources) -> String {
    let mut placer = Placer::new(sources);
    let findings = report
        .findings
        .iter()
        .map(|f| {
            let (file, line, column) = placer.place(f).map_or((None, None, None), |at| {
                (Some(at.file), Some(at.line), Some(at.column))
            });
            Entry {
                code: f.code,
                name: f.name,
                category: f.category,
                severity: f.severity,
                tool: f.tool.as_deref(),
                pointer: &f.pointer,
                file,
                line,
                column,
                message: &f.message,
                help: &f.help,
            }
        })
        .collect();
    let document = Document {
        findings,
        summary: &report.summary,
        quality: quality_value(&report.quality),
    };
    serde_json::to_string_pretty(&document).unwrap_or_default() + "\n"
}
