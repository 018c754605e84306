//! Rustc-style text: severity and code, the message, the file position with a snippet, the
//! rule's name and the help; then the counts and the catalog's description quality.

use super::place::{Place, Placer, Sources};
use crate::analysis::hidden::hidden_kind;
use crate::finding::Report;
use crate::meta::Severity;
use crate::quality::{COMPONENTS, rounded};
use std::collections::HashMap;
use std::fmt::Write;

fn paint(text: &str, code: &str, color: bool) -> String {
    if color {
        format!("\u{1b}[{code}m{text}\u{1b}[0m")
    } else {
        text.to_owned()
    }
}

/// How many characters of a source line a snippet shows at most; a longer line (minified
/// JSON) is shown around the column, with `…` where it is cut.
const SNIPPET_CHARS: usize = 160;

/// The start of every line of a file, so that a finding's line is found at once rather than
/// by reading the file from its start.
struct LineIndex<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    fn new(text: &'t str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { text, starts }
    }

    /// The byte range of line `line` (from 1), without its line break.
    fn line(&self, line: usize) -> Option<(usize, usize)> {
        let start = *self.starts.get(line.checked_sub(1)?)?;
        let end = self
            .starts
            .get(line)
            .map_or(self.text.len(), |next| next - 1);
        let end = if self.text[start..end].ends_with('\r') {
            end - 1
        } else {
            end
        };
        Some((start, end))
    }
}

/// A source line as the snippet shows it, and the caret's offset under it. `at` is the byte
/// offset of the caret in `line`, `None` for the end of the shown part. Tabs become four
/// spaces, and characters a terminal would hide or act on (zero-width, bidirectional
/// controls, Unicode tags, ANSI escapes, other controls) are written as `\u{…}`, so that the
/// snippet shows what a reader could not see in the file and cannot reorder or recolour the
/// terminal.
fn snippet(line: &str, at: Option<usize>) -> (String, usize) {
    let at = at.filter(|&at| line.is_char_boundary(at));
    let fits = |text: &str| text.chars().nth(SNIPPET_CHARS).is_none();
    // A line that fits is shown whole; a longer one from half a snippet before the caret,
    // or as its last snippet when the caret is near its end.
    let from = match at {
        Some(at) if !fits(line) => {
            let from = line[..at]
                .char_indices()
                .rev()
                .nth(SNIPPET_CHARS / 2 - 1)
                .map_or(0, |(i, _)| i);
            if fits(&line[from..]) {
                line.char_indices()
                    .rev()
                    .nth(SNIPPET_CHARS - 1)
                    .map_or(0, |(i, _)| i)
            } else {
                from
            }
        }
        _ => 0,
    };
    let mut shown = String::new();
    if from > 0 {
        shown.push('…');
    }
    let mut caret = None;
    for (chars, (i, c)) in line[from..].char_indices().enumerate() {
        if chars == SNIPPET_CHARS {
            shown.push('…');
            break;
        }
        if Some(from + i) == at {
            caret = Some(shown.chars().count());
        }
        if c == '\t' {
            shown.push_str("    ");
        } else if hidden_kind(c).is_some() || c.is_control() {
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
    let mut placer = Placer::new(sources);
    let mut placed: Vec<_> = report
        .findings
        .iter()
        .map(|f| (f, placer.place(f)))
        .collect();
    placed.sort_by_key(|(f, at)| {
        (
            f.tool_index.map_or(usize::MAX, |i| i),
            at.as_ref().map(|at| (at.line, at.column)),
        )
    });
    let mut lines: HashMap<&str, LineIndex<'_>> = HashMap::new();
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
        let width = at.as_ref().map_or(1, |at| at.line.to_string().len());
        let gutter = " ".repeat(width + 1);
        if let Some(Place {
            file,
            line,
            column,
            offset,
        }) = &at
        {
            let _ = writeln!(out, "{}--> {file}:{line}:{column}", " ".repeat(width));
            if let Some((text, index)) = sources.get_key_value(*file).map(|(name, text)| {
                let index = lines
                    .entry(name.as_str())
                    .or_insert_with(|| LineIndex::new(text));
                (text, &*index)
            }) && let Some((start, end)) = index.line(*line)
            {
                let line_text = &text[start..end];
                let caret = offset
                    .filter(|o| (start..=end).contains(o))
                    .map(|o| o - start)
                    .or_else(|| {
                        // Placed by its column alone (the item was not where it was read).
                        let column = column.checked_sub(1)?;
                        line_text.char_indices().nth(column).map(|(i, _)| i)
                    });
                let (shown, caret_at) = snippet(line_text, caret);
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
    let quality = &report.quality;
    if !quality.tools.is_empty() {
        let components: Vec<String> = COMPONENTS
            .iter()
            .zip(quality.components())
            .map(|(name, score)| format!("{name} {:.1}", rounded(score)))
            .collect();
        let _ = writeln!(
            out,
            "description quality: {:.1} of 5 ({})",
            rounded(quality.overall()),
            components.join(", ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{LineIndex, SNIPPET_CHARS, snippet};

    #[test]
    fn snippets_show_hidden_characters_and_keep_the_caret_under_its_column() {
        // A tag character and a right-to-left override before column 10 (the `x`).
        let line = "\"a\u{E0041}\u{202E}b\t\": x";
        let (shown, caret) = snippet(line, line.find('x'));
        assert_eq!(shown, "\"a\\u{E0041}\\u{202E}b    \": x");
        assert_eq!(shown.chars().nth(caret), Some('x'));
        let (plain, caret) = snippet("  \"name\": 1", Some(2));
        assert_eq!(plain, "  \"name\": 1");
        assert_eq!(caret, 2);
        // No caret puts it at the end of the shown part.
        assert_eq!(snippet("ab", None).1, 2);
    }

    #[test]
    fn a_long_line_is_shown_around_the_caret() {
        let line = format!(
            "{}\"city\": \"Lisbon\"{}",
            "é".repeat(5000),
            "x".repeat(5000)
        );
        let at = line.find("\"city\"").unwrap();
        let (shown, caret) = snippet(&line, Some(at));
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert_eq!(shown.chars().count(), SNIPPET_CHARS + 2);
        let tail: String = shown.chars().skip(caret).take(6).collect();
        assert_eq!(tail, "\"city\"");
        // Near the end, the snippet is the end of the line.
        let end = format!("{}\"x\": 1", "é".repeat(5000));
        let (shown, caret) = snippet(&end, Some(end.len() - 1));
        assert!(
            shown.starts_with('…') && shown.ends_with("\"x\": 1"),
            "{shown}"
        );
        assert_eq!(shown.chars().nth(caret), Some('1'));
        // A line that fits is shown whole, wherever the caret.
        let short = format!("{}x", " ".repeat(150));
        assert_eq!(snippet(&short, Some(150)), (short.clone(), 150));
    }

    #[test]
    fn lines_are_found_by_number() {
        let index = LineIndex::new("a\r\nbc\n\nd");
        let text = index.text;
        let line = |n| index.line(n).map(|(s, e)| &text[s..e]);
        assert_eq!(line(1), Some("a"));
        assert_eq!(line(2), Some("bc"));
        assert_eq!(line(3), Some(""));
        assert_eq!(line(4), Some("d"));
        assert_eq!(line(5), None);
        assert_eq!(line(0), None);
    }
}
