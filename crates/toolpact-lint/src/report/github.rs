//! GitHub Actions workflow commands: one `::error`, `::warning` or `::notice` line per finding.

use super::place::{Place, Placer, Sources};
use crate::finding::Report;
use crate::meta::Severity;
use std::fmt::Write;

/// Escapes a message (`%`, CR, LF), per the workflow-command syntax.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (also `:` and `,`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub(super) fn render(report: &Report, sources: &Sources) -> String {
    let mut out = String::new();
    let mut placer = Placer::new(sources);
    for f in &report.findings {
        let level = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut properties = Vec::new();
        if let Some(Place {
            file, line, column, ..
        }) = placer.place(f)
        {
            properties.push(format!("file={}", escape_property(file)));
            properties.push(format!("line={line}"));
            properties.push(format!("col={column}"));
        }
        properties.push(format!(
            "title={}",
            escape_property(&format!("{} {}", f.code, f.name))
        ));
        let tool = f
            .tool
            .as_deref()
            .map_or_else(String::new, |t| format!("{t}{}: ", f.pointer));
        let message = format!("{tool}{} (help: {})", f.message, f.help);
        let _ = writeln!(
            out,
            "::{level} {}::{}",
            properties.join(","),
            escape_data(&message)
        );
    }
    out
}
