//! `{"findings": [...], "summary": {...}, "quality": {...}}`: every finding with its code,
//! name, severity, tool, pointer, file, line, column, message and help; the counts; and the
//! description quality of the catalog and of each tool.
//!
//! The document is what `serde_json::to_string_pretty` writes, byte for byte, but a large
//! report is written in rounds, each in pieces on the machine's cores: each piece places its
//! findings in their files and writes them, indented as they sit in the document, and the
//! pieces are written out in order before the next round.

use super::place::{Placer, Sources};
use super::quality::quality_value;
use crate::finding::{Finding, Report};
use crate::meta::{Category, Severity};
use serde::Serialize;
use serde_json::ser::{PrettyFormatter, Serializer};
use std::io::{self, Write};
use toolpact::parallel::map_pieces;

/// Findings a core writes in one round; rounds with fewer than half as many per core are
/// written on one thread.
const ROUND: usize = 8192;

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

/// Writes into a buffer, adding `indent` after every line break: a value written pretty at
/// the top level comes out as it reads nested that deep in the document. serde_json escapes
/// line breaks inside strings, so every line break it writes is one of the layout's.
struct Indented<'b> {
    out: &'b mut Vec<u8>,
    indent: &'static [u8],
}

impl Write for Indented<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut lines = bytes.split(|&b| b == b'\n');
        if let Some(first) = lines.next() {
            self.out.extend_from_slice(first);
        }
        for line in lines {
            self.out.push(b'\n');
            self.out.extend_from_slice(self.indent);
            self.out.extend_from_slice(line);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes `value` pretty, as it reads at the depth of `indent` (two spaces a level).
fn write_nested(out: &mut Vec<u8>, value: &impl Serialize, indent: &'static [u8]) {
    let writer = Indented { out, indent };
    let mut serializer = Serializer::with_formatter(writer, PrettyFormatter::with_indent(b"  "));
    // Writing into memory cannot fail, and these values have no map with non-string keys.
    let _ = value.serialize(&mut serializer);
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

/// The findings of one piece, each after `,` and its line break, as they sit in the
/// document's `findings` array.
fn write_findings(findings: &[Finding], sources: &Sources) -> Vec<u8> {
    let mut placer = Placer::new(sources);
    let mut out = Vec::with_capacity(findings.len() * 512);
    for f in findings {
        let entry = entry(f, &mut placer);
        out.extend_from_slice(b",\n    ");
        write_nested(&mut out, &entry, b"    ");
    }
    out
}

pub(super) fn render(report: &Report, sources: &Sources) -> String {
    let mut out = Vec::new();
    // Writing into memory cannot fail.
    let _ = write(&mut out, report, sources);
    // serde_json writes UTF-8, and so does everything added here.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes the document to `out` as it is made: the findings a round at a time, each round
/// written on the cores, so that a report of a million findings is never held whole.
pub(super) fn write(out: &mut impl Write, report: &Report, sources: &Sources) -> io::Result<()> {
    out.write_all(b"{\n  \"findings\": [")?;
    if report.findings.is_empty() {
        out.write_all(b"]")?;
    } else {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let mut first = true;
        for round in report.findings.chunks(ROUND * cores) {
            for piece in map_pieces(round, ROUND / 2, |findings| {
                write_findings(findings, sources)
            }) {
                // The first finding of all has no comma before it.
                let skip = usize::from(first);
                first &= piece.is_empty();
                out.write_all(piece.get(skip..).unwrap_or_default())?;
            }
        }
        out.write_all(b"\n  ]")?;
    }
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
    use super::{Entry, ROUND, entry, render};
    use crate::finding::{Finding, Report, Summary};
    use crate::meta::{Category, Severity};
    use crate::quality::{Quality, ToolQuality};
    use crate::report::place::{Placer, Sources};
    use serde::Serialize;
    use toolpact::Origin;

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

    /// A report of `n` findings over tools of a small file, with texts that need escaping.
    fn report(n: usize) -> (Report, Sources) {
        let text = r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#;
        let origin = Origin {
            file: "tools.json".to_owned(),
            pointer: "/tools/0".to_owned(),
            line: 1,
            column: 12,
            offset: 11,
        };
        let findings: Vec<Finding> = (0..n)
            .map(|i| Finding {
                code: "TP101",
                name: "missing-description",
                category: Category::Description,
                severity: [Severity::Error, Severity::Warning, Severity::Info][i % 3],
                tool: (i % 7 != 0).then(|| format!("tool \"{i}\"\n\u{2028}é")),
                tool_index: (i % 7 != 0).then_some(0),
                pointer: if i % 2 == 0 { "/inputSchema/type" } else { "" }.to_owned(),
                origin: (i % 5 != 0).then(|| origin.clone()),
                message: format!("line one\nline two {i}\t\"quoted\" \\"),
                help: String::new(),
            })
            .collect();
        let quality = Quality {
            tools: (0..3)
                .map(|i| ToolQuality {
                    tool: format!("t{i}"),
                    index: i,
                    scores: [5, 4, 3, 2, 1, 0],
                })
                .collect(),
        };
        let summary = Summary::of(1, &findings);
        let mut sources = Sources::new();
        sources.insert("tools.json".to_owned(), text.to_owned());
        (
            Report {
                findings,
                summary,
                quality,
            },
            sources,
        )
    }

    #[test]
    fn writes_what_serde_json_writes_whole_in_one_piece_or_many() {
        for n in [0, 1, 2, 3, ROUND - 1, ROUND + 1, 5 * ROUND + 7] {
            let (report, sources) = report(n);
            let written = render(&report, &sources);
            assert_eq!(written, whole(&report, &sources), "{n} findings");
            let parsed: serde_json::Value = serde_json::from_str(&written).unwrap();
            assert_eq!(parsed["findings"].as_array().unwrap().len(), n);
        }
    }
}
