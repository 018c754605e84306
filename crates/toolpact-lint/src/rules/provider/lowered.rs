//! What the provider rules make of an export beyond the tools it sent
//! ([`crate::rules::exported`]): how many tools each export sends, and findings that several
//! targets share.

use crate::analysis::message::join;
use crate::context::Context;
use crate::engine::blocks::{Block, BlockExport};
use crate::rule::{Part, parts_of};
use std::collections::HashMap;
use std::hash::Hash;
use toolpact::Target;

/// How many tools each export of `block` sends, in configuration order: the part of a rule
/// about how many tools a request carries.
pub(crate) fn gather_sent_counts(block: &Block<'_>) -> Part {
    Box::new(
        block
            .exports
            .iter()
            .map(BlockExport::sent_count)
            .collect::<Vec<usize>>(),
    )
}

/// How many tools each export sends over the whole catalog, with its target and whether it
/// is the strict variant, from the parts [`gather_sent_counts`] made.
pub(crate) fn sent_counts(cx: &Context<'_>, parts: Vec<Part>) -> Vec<(Target, bool, usize)> {
    let mut counts: Vec<(Target, bool, usize)> = cx
        .export_targets()
        .map(|(target, strict)| (target, strict, 0))
        .collect();
    for part in parts_of::<Vec<usize>>(parts) {
        for ((.., total), n) in counts.iter_mut().zip(part) {
            *total += n;
        }
    }
    counts
}

/// Findings that several targets share, kept once with every target's name, in the order
/// they were first seen.
#[derive(Debug)]
pub(crate) struct ByTarget<K> {
    seen: HashMap<K, usize>,
    entries: Vec<(K, Vec<String>)>,
}

impl<K: Hash + Eq + Clone> ByTarget<K> {
    pub(crate) fn new() -> Self {
        ByTarget {
            seen: HashMap::new(),
            entries: Vec::new(),
        }
    }

    /// Records that `target` shows the finding `key`.
    pub(crate) fn add(&mut self, key: K, target: Target) {
        let label = target.as_str();
        let at = *self.seen.entry(key.clone()).or_insert_with(|| {
            self.entries.push((key, Vec::new()));
            self.entries.len() - 1
        });
        if let Some((_, labels)) = self.entries.get_mut(at)
            && !labels.iter().any(|l| l == label)
        {
            labels.push(label.to_owned());
        }
    }

    /// Each finding with the targets that show it, joined for a message (`gemini and
    /// gemini-json`).
    pub(crate) fn into_entries(self) -> impl Iterator<Item = (K, String)> {
        self.entries
            .into_iter()
            .map(|(key, labels)| (key, join(&labels)))
    }
}
