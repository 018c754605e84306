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
pub(crate) struct Place<'f> {
    pub file: &'f str,
    pub line: usize,
    pub column: usize,
    pub offset: Option<usize>,
}

/// The tool a [`Placer`] read last: its file's name and text, its offset, and where its
/// values are.
struct Last<'s> {
    file: &'s str,
    text: &'s str,
    offset: usize,
    item: Option<ItemOffsets>,
}

/// Places findings in their files. Findings come tool by tool, so each tool's text is read
/// once for all its findings rather than once per finding, and its file looked up once.
pub(crate) struct Placer<'s> {
    sources: &'s Sources,
    last: Option<Last<'s>>,
}

impl<'s> Placer<'s> {
    pub(crate) fn new(sources: &'s Sources) -> Self {
        Placer {
            sources,
            last: None,
        }
    }

    /// Where `finding` points, or `None` for a finding about no file.
    pub(crate) fn place<'f>(&mut self, finding: &'f Finding) -> Option<Place<'f>> {
        let origin = finding.origin.as_ref()?;
        let at_tool = Place {
            file: &origin.file,
            line: origin.line,
            column: origin.column,
            offset: None,
        };
        let known = self
            .last
            .as_ref()
            .is_some_and(|last| last.file == origin.file && last.offset == origin.offset);
        if !known {
            let Some((file, text)) = self.sources.get_key_value(&origin.file) else {
                return Some(at_tool);
            };
            self.last = Some(Last {
                file,
                text,
                offset: origin.offset,
                item: ItemOffsets::new(text, origin),
            });
        }
        let Some(Last {
            text,
            item: Some(item),
            ..
        }) = &self.last
        else {
            return Some(at_tool);
        };
        let offset = item.offset(&finding.pointer);
        let (line, column) = item.position_of(text, offset);
        Some(Place {
            line,
            column,
            offset: Some(offset),
            ..at_tool
        })
    }
}
