//! `{"findings": [...], "summary": {...}, "quality": {...}}`: every finding with its code,
//! name, severity, tool, pointer, file, line, column, message and help; the counts; and the
//! description quality of the catalog and of each tool.
//!
//! The document is what `serde_json::to_string_pretty` writes, byte for byte, with the
//! findings written a round at a time on the machine's cores ([`super::pretty`]).

use super::place::{Placer, Sources};
use super::pretty::{write_array, write_nested};
use super::quality::quality_value;
use crate::finding::{Finding, Report};
use crate::meta::{Category, Severity};
use serde::Serialize;
use std::io::{self, Write};

/// One finding as the JSON report writes it, fields in this order.
#[derive(Serialize)]
struct Entry<'r> {
    code: &'r str,
    name: &'r str,
    category: Category,
    severity: Severity,
    tool: Option<&'r str>,
    pointer: &'r str,
    file: Option<&'r str>,
    line: Option<usize>,
    column: Option<usize>,
    message: &'r str,
    help: &'r str,
}

/// `f` as the report writes it, placed in its file.
fn entry<'r>(f: &'r Finding, placer: &mut Placer<'_>) -> Entry<'r> {
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
}

/// Writes the document to `out` as it is made: the findings a round at a time, each round
/// written on the cores, so that a report of a million findings is never held whole.
pub(super) fn write(out: &mut impl Write, report: &Report, sources: &Sources) -> io::Result<()> {
    out.write_all(b"{\n  \"findings\": ")?;
    let item = |f: &Finding, placer: &mut Placer<'_>, bytes: &mut Vec<u8>| {
        write_nested(bytes, &entry(f, placer), b"    ");
    };
    write_array(out, &report.findings, sources, b"    ", item)?;
    let mut tail = Vec::with_capacity(128 * report.quality.tools.len() + 256);
    tail.extend_from_slice(b",\n  \"summary\": ");
    write_nested(&mut tail, &report.summary, b"  ");
    tail.extend_from_slice(b",\n  \"quality\": ");
    write_nested(&mut tail, &quality_value(&report.quality), b"  ");
    tail.extend_from_slice(b"\n}\n");
    out.write_all(&tail)
}

#[cfg(test)]
mod tests {
    use super::{Entry, entry};
    use crate::finding::{Report, Summary};
    use crate::report::OutputFormat;
    use crate::report::place::{Placer, Sources};
    use crate::report::pretty::ROUND;
    use crate::report::pretty::tests::sample_report;
    use serde::Serialize;

    /// The document as `serde_json` writes it whole, on one thread.
    fn whole(report: &Report, sources: &Sources) -> String {
        #[derive(Serialize)]
        struct Document<'r> {
            findings: Vec<Entry<'r>>,
            summary: &'r Summary,
            quality: serde_json::Value,
        }
        let mut placer = Placer::new(sources);
        let findings = report
            .findings
            .iter()
            .map(|f| entry(f, &mut placer))
            .collect();
        let document = Document {
            findings,
            summary: &report.summary,
            quality: super::quality_value(&report.quality),
        };
        serde_json::to_string_pretty(&document).unwrap() + "\n"
    }

    #[test]
    fn writes_what_serde_json_writes_whole_in_one_piece_or_many() {
        for n in [0, 1, 2, 3, ROUND - 1, ROUND + 1, 5 * ROUND + 7] {
            let (report, sources) = sample_report(n);
            let written = crate::report::render(&report, OutputFormat::Json, &sources, false);
            assert_eq!(written, whole(&report, &sources), "{n} findings");
            let parsed: serde_json::Value = serde_json::from_str(&written).unwrap();
            assert_eq!(parsed["findings"].as_array().unwrap().len(), n);
        }
    }
}
