//! Where each finding is in its file: the line and column of its exact JSON pointer, read
//! once per tool for all of the tool's findings.

use crate::Finding;
use std::collections::HashMap;
use toolpact::ItemOffsets;

/// The text of each file that was checked, by the name findings use, for exact positions and
/// snippets. Findings whose file is missing are placed at the tool's own position.
pub type Sources = HashMap<String, String>;

/// Where a finding points: the file, the line and column of the exact JSON pointer when the
/// file's text is known (else of the tool), and the byte offset in the file when the tool was
/// found at its offset in that text.
pub(crate) struct Place {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub offset: Option<usize>,
}

/// Places findings in their files. Findings come tool by tool, so each tool's text is read
/// once for all its findings rather than once per finding.
pub(crate) struct Placer<'s> {
    sources: &'s Sources,
    /// The tool read last: its file and offset, and where its values are.
    last: Option<(String, usize, Option<ItemOffsets>)>,
}

impl<'s> Placer<'s> {
    pub(crate) fn new(sources: &'s Sources) -> Self {
        Placer {
            sources,
            last: None,
        }
    }

    /// Where `finding` points, or `None` for a finding about no file.
    pub(crate) fn place(&mut self, finding: &Finding) -> Option<Place> {
        let origin = finding.origin.as_ref()?;
        let at_tool = Place {
            file: origin.file.clone(),
            line: origin.line,
            column: origin.column,
            offset: None,
        };
        let Some(text) = self.sources.get(&origin.file) else {
            return Some(at_tool);
        };
        let known = self
            .last
            .as_ref()
            .is_some_and(|(file, offset, _)| *file == origin.file && *offset == origin.offset);
        if !known {
            let item = ItemOffsets::new(text, origin);
            self.last = Some((origin.file.clone(), origin.offset, item));
        }
        let Some((_, _, Some(item))) = &self.last else {
            return Some(at_tool);
        };
        let (line, column) = item.position(text, &finding.pointer);
        Some(Place {
            line,
            column,
            offset: Some(item.offset(&finding.pointer)),
            ..at_tool
        })
    }
}
