//! The catalog as each configured target receives it, block by block: every tool named for
//! every export once (names depend on the tools before), then each block of tools lowered by
//! the same passes as `toolpact convert` when the rules that read exports look at it, and
//! dropped, so that the exports of a large catalog are never held whole.

use crate::engine::scratch::Scratch;
use serde_json::Value;
use std::ops::Range;
use toolpact::{
    Catalog, ExportOptions, Exporter, Loss, LoweredTool, Named, Target, Tool, Unrepresentable,
};

/// How many tools a block holds: enough that a block is worth a task, few enough that a
/// block's tools and their lowered forms stay in the core's own cache while every rule reads
/// them. Blocks of 512 tools missed the last-level cache over twice as often (cachegrind, a
/// 4 MB last level, 3,000 tools).
pub(crate) const BLOCK: usize = 16;

/// The positions of the tools of the `n`th block of a catalog of `tools` tools.
pub(crate) fn block_range(tools: usize, n: usize) -> Range<usize> {
    n * BLOCK..((n + 1) * BLOCK).min(tools)
}

/// Every tool's name for each configured export, what each export's tools are named by, and
/// where they go.
#[derive(Debug)]
pub(crate) struct Exports {
    slots: Vec<ExportSlot>,
}

/// One configured export: the target, and each tool's name for it (or why it cannot take
/// the tool).
#[derive(Debug)]
struct ExportSlot {
    target: Target,
    strict: bool,
    exporter: Exporter,
    names: Vec<Result<Named, Unrepresentable>>,
}

impl Exports {
    /// Each of `targets`, and its strict variant after it when `strict` is set and the target
    /// has one; no tool is named yet.
    pub(crate) fn new(targets: &[Target], strict: bool) -> Self {
        let mut slots = Vec::new();
        for &target in targets {
            let variants = [false, true]
                .into_iter()
                .filter(|&variant| !variant || (strict && target.has_strict_mode()));
            for strict in variants {
                if let Ok(exporter) = Exporter::new(target, ExportOptions { strict }) {
                    slots.push(ExportSlot {
                        target,
                        strict,
                        exporter,
                        names: Vec::new(),
                    });
                }
            }
        }
        Exports { slots }
    }

    /// The exports, in configuration order: each target, and its strict variant after it.
    pub(crate) fn targets(&self) -> impl Iterator<Item = (Target, bool)> + '_ {
        self.slots.iter().map(|e| (e.target, e.strict))
    }

    /// Names every tool of `catalog` for every export, one export per thread when `threads`
    /// is more than one. Names depend on the tools before (a rewritten name must not take an
    /// earlier tool's), so each export names the whole catalog in order, as
    /// `toolpact convert` does; lowering, which [`Exports::block`] does, is then independent
    /// tool by tool.
    pub(crate) fn name_tools(&mut self, catalog: &Catalog, threads: usize) {
        let name_all = |slot: &mut ExportSlot| slot.names = slot.exporter.name_all(catalog.tools());
        if threads <= 1 || self.slots.len() <= 1 {
            self.slots.iter_mut().for_each(name_all);
            return;
        }
        let per_thread = self.slots.len().div_ceil(threads);
        std::thread::scope(|scope| {
            for slots in self.slots.chunks_mut(per_thread) {
                scope.spawn(move || slots.iter_mut().for_each(name_all));
            }
        });
    }

    /// Takes every tool's name for every export out, for the engine to free once every block
    /// was read: blocks can no longer be lowered after this.
    pub(crate) fn take_names(&mut self) -> Vec<Vec<Result<Named, Unrepresentable>>> {
        self.slots
            .iter_mut()
            .map(|slot| std::mem::take(&mut slot.names))
            .collect()
    }

    /// The tools of `catalog` in `range` as each export receives them, lowered now, for the
    /// rules to read on the worker that owns `scratch`. Call [`Exports::name_tools`] first.
    pub(crate) fn block<'c>(
        &'c self,
        catalog: &'c Catalog,
        range: Range<usize>,
        scratch: &'c Scratch,
    ) -> Block<'c> {
        let exports = self
            .slots
            .iter()
            .map(|slot| {
                let mut lowered = Vec::with_capacity(range.len());
                let mut left_out = Vec::new();
                for index in range.clone() {
                    let (Some(entry), Some(named)) =
                        (catalog.entries.get(index), slot.names.get(index))
                    else {
                        continue;
                    };
                    let named = match named {
                        Ok(named) => named,
                        Err(unrepresentable) => {
                            left_out.push(unrepresentable.clone());
                            continue;
                        }
                    };
                    match slot.exporter.lower(&entry.tool, named) {
                        Ok(item) => lowered.push((index, item)),
                        Err(unrepresentable) => left_out.push(unrepresentable),
                    }
                }
                BlockExport {
                    target: slot.target,
                    strict: slot.strict,
                    lowered,
                    left_out,
                }
            })
            .collect();
        Block {
            range,
            exports,
            scratch,
        }
    }
}

/// `gemini`, or `anthropic (strict)`.
pub fn export_label(target: Target, strict: bool) -> String {
    if strict {
        format!("{target} (strict)")
    } else {
        target.to_string()
    }
}

/// A range of the catalog's tools as each configured export receives them. The engine
/// lowers the catalog block by block and drops each block once the rules have read it, so
/// that the exports of a large catalog are never all held at once.
#[derive(Debug)]
pub struct Block<'c> {
    /// The tools' positions in the catalog.
    pub range: Range<usize>,
    /// One entry per configured export, in configuration order (as
    /// [`Context::export_targets`](crate::context::Context::export_targets)).
    pub exports: Vec<BlockExport<'c>>,
    /// What the worker reading the block keeps for the rules.
    scratch: &'c Scratch,
}

impl<'c> Block<'c> {
    /// What the worker reading this block keeps for the rules, from block to block.
    pub(crate) fn scratch(&self) -> &'c Scratch {
        self.scratch
    }
}

/// The tools of a block as one export receives them.
#[derive(Debug)]
pub struct BlockExport<'c> {
    /// The target.
    pub target: Target,
    /// Whether this is the strict variant.
    pub strict: bool,
    lowered: Vec<(usize, LoweredTool<'c>)>,
    left_out: Vec<Unrepresentable>,
}

impl BlockExport<'_> {
    /// `gemini`, or `anthropic (strict)`.
    pub fn label(&self) -> String {
        export_label(self.target, self.strict)
    }

    /// The tools the target takes, in catalog order.
    pub fn sent(&self) -> impl Iterator<Item = Sent<'_>> {
        self.lowered.iter().map(|(index, lowered)| Sent {
            index: *index,
            tool: lowered.tool,
            name: &lowered.name,
            lowered,
        })
    }

    /// How many tools the target takes.
    pub fn sent_count(&self) -> usize {
        self.lowered.len()
    }

    /// What the target could not express of the tools it takes, in catalog order.
    pub fn losses(&self) -> impl Iterator<Item = &Loss> {
        self.lowered
            .iter()
            .flat_map(|(.., lowered)| &lowered.losses)
    }

    /// The tools the target cannot take, and why, in catalog order.
    pub fn left_out(&self) -> &[Unrepresentable] {
        &self.left_out
    }
}

/// One tool as a target receives it.
#[derive(Debug, Clone, Copy)]
pub struct Sent<'a> {
    /// The tool's position in the catalog.
    pub index: usize,
    /// The tool as written.
    pub tool: &'a Tool,
    /// The name the target sees (rewritten when the target's naming rule required it).
    pub name: &'a str,
    /// The tool as the target receives it: its schemas (borrowed where they are sent as
    /// written) and its losses.
    pub lowered: &'a LoweredTool<'a>,
}

impl<'a> Sent<'a> {
    /// The description the target receives.
    pub fn description(&self) -> Option<&'a str> {
        self.lowered.description
    }

    /// The input schema the target receives (`parameters`, `input_schema`, …), as lowered.
    pub fn input_schema(&self) -> Option<&'a Value> {
        self.lowered.input_schema.as_deref()
    }
}
