//! Writing a report's findings as one array of a pretty-printed JSON document, a round of
//! findings at a time, each round on the machine's cores, so that a report of a million
//! findings is never held whole. The bytes are those `serde_json::to_string_pretty` writes
//! for the whole document.

use super::place::{Placer, Sources};
use crate::finding::Finding;
use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter, Serializer};
use std::io::{self, Write};
use toolpact::parallel::map_pieces;

/// Findings a core writes in one round; rounds with fewer than half as many per core are
/// written on one thread.
pub(super) const ROUND: usize = 8192;

/// Writes through to `out`, adding `indent` after every line break.
struct Indented<'w, W: ?Sized> {
    out: &'w mut W,
    indent: &'static [u8],
}

impl<W: ?Sized + Write> Write for Indented<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut lines = bytes.split(|&b| b == b'\n');
        if let Some(first) = lines.next() {
            self.out.write_all(first)?;
        }
        for line in lines {
            self.out.write_all(b"\n")?;
            self.out.write_all(self.indent)?;
            self.out.write_all(line)?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// serde_json's pretty layout, two spaces a level, with `indent` after every line break: a
/// value written at the top level comes out as it reads nested that deep in the document.
/// Only the layout (brackets, commas, line breaks and colons) passes through [`Indented`]:
/// strings and numbers never hold a line break of the layout (serde_json escapes line breaks
/// inside strings), so they are written straight, as the pretty formatter writes them.
struct Nested {
    pretty: PrettyFormatter<'static>,
    indent: &'static [u8],
}

impl Nested {
    /// Runs one of the pretty formatter's layout steps, its line breaks indented.
    fn layout<W: ?Sized + Write>(
        &mut self,
        out: &mut W,
        step: impl FnOnce(&mut PrettyFormatter<'static>, &mut Indented<'_, W>) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut out = Indented {
            out,
            indent: self.indent,
        };
        step(&mut self.pretty, &mut out)
    }
}

/// The layout steps of [`Formatter`], each passed to the pretty formatter through
/// [`Nested::layout`].
macro_rules! layout_steps {
    ($($step:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $step<W: ?Sized + Write>(&mut self, out: &mut W $(, $arg: $ty)*) -> io::Result<()> {
                self.layout(out, |f, out| f.$step(out $(, $arg)*))
            }
        )*
    };
}

impl Formatter for Nested {
    layout_steps! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        end_object_key();
        begin_object_value();
        end_object_value();
    }
}

/// Writes `value` pretty, as it reads at the depth of `indent` (two spaces a level).
pub(super) fn write_nested(out: &mut Vec<u8>, value: &impl Serialize, indent: &'static [u8]) {
    let formatter = Nested {
        pretty: PrettyFormatter::with_indent(b"  "),
        indent,
    };
    let mut serializer = Serializer::with_formatter(out, formatter);
    // Writing into memory cannot fail, and these values have no map with non-string keys.
    let _ = value.serialize(&mut serializer);
}

/// Writes the array of `findings` from its `[` to its `]`, the items at the depth of `indent`
/// (at least one level deep): `item` writes each finding where its line starts, with
/// [`write_nested`] at that depth, placing it in its file with the placer of its piece.
pub(super) fn write_array(
    out: &mut impl Write,
    findings: &[Finding],
    sources: &Sources,
    indent: &'static [u8],
    item: impl Fn(&Finding, &mut Placer<'_>, &mut Vec<u8>) + Sync,
) -> io::Result<()> {
    if findings.is_empty() {
        return out.write_all(b"[]");
    }
    out.write_all(b"[")?;
    let write_piece = |piece: &[Finding]| {
        let mut placer = Placer::new(sources);
        let mut bytes = Vec::with_capacity(piece.len() * 512);
        for f in piece {
            bytes.extend_from_slice(b",\n");
            bytes.extend_from_slice(indent);
            item(f, &mut placer, &mut bytes);
        }
        bytes
    };
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let mut first = true;
    for round in findings.chunks(ROUND * cores) {
        for piece in map_pieces(round, ROUND / 2, write_piece) {
            // The first item of all has no comma before it.
            out.write_all(piece.get(usize::from(first)..).unwrap_or_default())?;
            first &= piece.is_empty();
        }
    }
    out.write_all(b"\n")?;
    out.write_all(indent.get(2..).unwrap_or_default())?;
    out.write_all(b"]")
}

#[cfg(test)]
pub(super) mod tests {
    use crate::finding::{Finding, Report, Summary};
    use crate::meta::{Category, Severity};
    use crate::quality::{Quality, ToolQuality};
    use crate::report::place::Sources;
    use toolpact::Origin;

    /// A report of `n` findings over tools of a small file, with texts that need escaping.
    pub(crate) fn sample_report(n: usize) -> (Report, Sources) {
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
                help: "".into(),
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
}
