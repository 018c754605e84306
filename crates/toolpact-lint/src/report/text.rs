//! Rustc-style text: severity and code, the message, the file position with a snippet, the
//! rule's name and the help.

use super::{Sources, position};
use crate::{Report, Severity};
use std::fmt::Write;

fn paint(text: &str, code: &str, color: bool) -> String {
    if color {
        format!("\u{1b}[{code}m{text}\u{1b}[0m")
    } else {
        text.to_owned()
    }
}

pub(super) fn render(report: &Report, sources: &Sources, color: bool) -> String {
    let mut out = String::new();
    for f in &report.findings {
        let label = match f.severity {
            Severity::Error => paint("error", "1;31", color),
            Severity::Warning => paint("warning", "1;33", color),
            Severity::Info => paint("info", "1;36", color),
        };
        let _ = writeln!(
            out,
            "{label}[{}]: {}",
            f.code,
            paint(&f.message, "1", color)
        );
        let at = position(f, sources);
        if let Some((file, line, column)) = &at {
            let _ = writeln!(out, "  --> {file}:{line}:{column}");
            if let Some(text) = sources.get(file)
                && let Some(source_line) = text.lines().nth(line - 1)
            {
                let number = line.to_string();
                let pad = " ".repeat(number.len());
                let shown: String = source_line.chars().take(160).collect();
                let caret_at = column.saturating_sub(1).min(shown.chars().count());
                let _ = writeln!(out, "{pad} |");
                let _ = writeln!(out, "{number} | {shown}");
                let _ = writeln!(
                    out,
                    "{pad} | {}{}",
                    " ".repeat(caret_at),
                    paint("^", "1;34", color)
                );
            }
        }
        let tool = f
            .tool
            .as_deref()
            .map_or_else(String::new, |t| format!("{t} "));
        let _ = writeln!(
            out,
            "   = at: {tool}{}",
            if f.pointer.is_empty() {
                "/"
            } else {
                &f.pointer
            }
        );
        let _ = writeln!(out, "   = rule: {} ({})", f.name, f.category.as_str());
        let _ = writeln!(out, "   = help: {}", f.help);
        out.push('\n');
    }
    let s = &report.summary;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let _ = writeln!(
        out,
        "{}: {}, {}, {}",
        plural(s.tools, "tool"),
        plural(s.errors, "error"),
        plural(s.warnings, "warning"),
        plural(s.infos, "info")
    );
    out
}
