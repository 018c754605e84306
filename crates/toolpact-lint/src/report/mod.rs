//! Reporters: the same findings as rustc-style text, JSON, SARIF 2.1.0 or GitHub workflow
//! annotations.

mod github;
mod json;
mod sarif;
mod text;

use crate::{Finding, Report};
use std::collections::HashMap;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Rustc-style diagnostics with a snippet of the file.
    Text,
    /// `{"findings": [...], "summary": {...}}`.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…`).
    Github,
}

/// The text of each file that was checked, by the name findings use, for exact positions and
/// snippets. Findings whose file is missing are placed at the tool's own position.
pub type Sources = HashMap<String, String>;

/// Where a finding points: file, line and column of the exact JSON pointer when the file's
/// text is known, else of the tool.
pub(crate) fn position(finding: &Finding, sources: &Sources) -> Option<(String, usize, usize)> {
    let origin = finding.origin.as_ref()?;
    let (line, column) = match sources.get(&origin.file) {
        Some(text) => toolpact::catalog::position_in(text, origin, &finding.pointer),
        None => (origin.line, origin.column),
    };
    Some((origin.file.clone(), line, column))
}

/// Renders a report.
pub fn render(report: &Report, format: OutputFormat, sources: &Sources, color: bool) -> String {
    match format {
        OutputFormat::Text => text::render(report, sources, color),
        OutputFormat::Json => json::render(report, sources),
        OutputFormat::Sarif => sarif::render(report, sources),
        OutputFormat::Github => github::render(report, sources),
    }
}
