//! `{"findings": [...], "summary": {...}}`: every finding with its code, name, severity,
//! tool, pointer, file, line, column, message and help.

use super::{Sources, position};
use crate::Report;
use serde_json::json;

pub(super) fn render(report: &Report, sources: &Sources) -> String {
    let findings: Vec<_> = report
        .findings
        .iter()
        .map(|f| {
            let (file, line, column) = position(f, sources)
                .map_or((None, None, None), |(f, l, c)| (Some(f), Some(l), Some(c)));
            json!({
                "code": f.code,
                "name": f.name,
                "category": f.category,
                "severity": f.severity,
                "tool": f.tool,
                "pointer": f.pointer,
                "file": file,
                "line": line,
                "column": column,
                "message": f.message,
                "help": f.help,
            })
        })
        .collect();
    let value = json!({ "findings": findings, "summary": report.summary });
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}
