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

/// How many characters of a source line a snippet shows.
const SNIPPET_CHARS: usize = 160;

/// A source line as the snippet shows it, and the caret's offset under it: tabs become four
/// spaces, and characters a terminal would hide or act on (zero-width, bidirectional
/// controls, Unicode tags, ANSI escapes, other controls) are written as `\u{…}`, so that the
/// snippet shows what a reader could not see in the file and cannot reorder or recolour the
/// terminal.
fn snippet(line: &str, column: usize) -> (String, usize) {
    let mut shown = String::new();
    let mut caret = None;
    for (i, c) in line.chars().take(SNIPPET_CHARS).enumerate() {
        if i + 1 == column {
            caret = Some(shown.chars().count());
        }
        if c == '\t' {
            shown.push_str("    ");
        } else if crate::rules::hidden_kind(c).is_some() || c.is_control() {
            let _ = write!(shown, "\\u{{{:X}}}", u32::from(c));
        } else {
            shown.push(c);
        }
    }
    let caret = caret.unwrap_or_else(|| shown.chars().count());
    (shown, caret)
}

pub(super) fn render(report: &Report, sources: &Sources, color: bool) -> String {
    let mut out = String::new();
    // Within a tool, findings come in the order of the file, as a reader goes through it;
    // catalog-level findings come last. The sort is stable: findings at one place keep their
    // order by code.
    let mut placed: Vec<_> = report
        .findings
        .iter()
        .map(|f| (f, position(f, sources)))
        .collect();
    placed.sort_by_key(|(f, at)| {
        (
            f.tool_index.map_or(usize::MAX, |i| i),
            at.as_ref().map(|(_, line, column)| (*line, *column)),
        )
    });
    for (f, at) in placed {
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
        // The gutter is as wide as the line number, as in rustc: `-->` starts in it, and `|`
        // and `=` stand one column after it.
        let width = at.as_ref().map_or(1, |(_, line, _)| line.to_string().len());
        let gutter = " ".repeat(width + 1);
        if let Some((file, line, column)) = &at {
            let _ = writeln!(out, "{}--> {file}:{line}:{column}", " ".repeat(width));
            if let Some(text) = sources.get(file)
                && let Some(source_line) = text.lines().nth(line - 1)
            {
                let (shown, caret_at) = snippet(source_line, *column);
                let _ = writeln!(out, "{gutter}|");
                let _ = writeln!(out, "{line} | {shown}");
                let _ = writeln!(
                    out,
                    "{gutter}| {}{}",
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
            "{gutter}= at: {tool}{}",
            if f.pointer.is_empty() {
                "/"
            } else {
                &f.pointer
            }
        );
        let _ = writeln!(out, "{gutter}= rule: {} ({})", f.name, f.category.as_str());
        let _ = writeln!(out, "{gutter}= help: {}", f.help);
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

#[cfg(test)]
mod tests {
    use super::snippet;

    #[test]
    fn snippets_show_hidden_characters_and_keep_the_caret_under_its_column() {
        // A tag character and a right-to-left override before column 10 (the `x`).
        let line = "\"a\u{E0041}\u{202E}b\t\": x";
        let (shown, caret) = snippet(line, 10);
        assert_eq!(shown, "\"a\\u{E0041}\\u{202E}b    \": x");
        assert_eq!(shown.chars().nth(caret), Some('x'));
        let (plain, caret) = snippet("  \"name\": 1", 3);
        assert_eq!(plain, "  \"name\": 1");
        assert_eq!(caret, 2);
        // A column past the shown part puts the caret at its end.
        assert_eq!(snippet("ab", 40).1, 2);
    }
}
