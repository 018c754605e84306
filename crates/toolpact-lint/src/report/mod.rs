//! Reporters: the same findings as rustc-style text, JSON, SARIF 2.1.0 or GitHub workflow
//! annotations.

mod github;
mod json;
mod place;
mod pretty;
mod quality;
mod sarif;
mod text;

use crate::finding::Report;
use std::io::{self, Write};

pub use place::Sources;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutputFormat {
    /// Rustc-style diagnostics with a snippet of the file.
    Text,
    /// `{"findings": [...], "summary": {...}, "quality": {...}}`.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…`).
    Github,
}

/// Renders a report.
pub fn render(report: &Report, format: OutputFormat, sources: &Sources, color: bool) -> String {
    match format {
        OutputFormat::Text => text::render(report, sources, color),
        OutputFormat::Json => in_memory(|out| json::write(out, report, sources)),
        OutputFormat::Sarif => in_memory(|out| sarif::write(out, report, sources)),
        OutputFormat::Github => github::render(report, sources),
    }
}

/// What `write` writes, as a string.
fn in_memory(write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> String {
    let mut out = Vec::new();
    // Writing into memory cannot fail.
    let _ = write(&mut out);
    // serde_json writes UTF-8, and so does everything the reports add.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes a report to `out`, the same bytes as [`render`] makes. JSON and SARIF are written
/// as they are made, a round of findings at a time, so that a large report is never held
/// whole.
///
/// # Errors
/// What writing to `out` fails with.
pub fn write_report(
    out: &mut impl Write,
    report: &Report,
    format: OutputFormat,
    sources: &Sources,
    color: bool,
) -> io::Result<()> {
    match format {
        OutputFormat::Json => json::write(out, report, sources),
        OutputFormat::Sarif => sarif::write(out, report, sources),
        _ => out.write_all(render(report, format, sources, color).as_bytes()),
    }
}
