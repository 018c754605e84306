//! What a rule sees: the catalog, the settings, and — for the rules that read exports — the
//! catalog as each configured target receives it, lowered block by block by the same passes
//! as `toolpact convert`, so that provider rules and `convert` speak from one source of truth.

use crate::analysis::names::{Set, ToolNames};
use crate::analysis::schema::{Properties, Property};
use crate::analysis::texts::{ReadText, tool_texts};
use crate::rule::RuleMeta;
use crate::settings::Settings;
use serde_json::Value;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use toolpact::{
    Catalog, ExportOptions, Exporter, Loss, Lowered, Named, Target, Tool, Unrepresentable,
};

/// The number of the next context.
static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

/// The input of every rule.
#[derive(Debug)]
pub struct Context<'a> {
    /// The catalog being checked.
    pub catalog: &'a Catalog,
    /// The settings.
    pub settings: &'a Settings,
    /// Each configured target (and its strict variant, when `strict` is set), with every
    /// tool named for it once the engine has named them.
    exports: Vec<ExportSlot>,
    /// The tools' names, as rules look them up, worked out when first asked for.
    names: ToolNames<'a>,
    /// This check's number, unique in the process.
    id: usize,
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

impl<'a> Context<'a> {
    /// Builds the context; tools are named for the targets by [`Context::name_tools`].
    pub fn new(catalog: &'a Catalog, settings: &'a Settings) -> Self {
        let mut exports = Vec::new();
        for &target in &settings.targets {
            let strict = [false, true]
                .into_iter()
                .filter(|&strict| !strict || (settings.strict && target.has_strict_mode()));
            for strict in strict {
                if let Ok(exporter) = Exporter::new(target, ExportOptions { strict }) {
                    exports.push(ExportSlot {
                        target,
                        strict,
                        exporter,
                        names: Vec::new(),
                    });
                }
            }
        }
        Context {
            catalog,
            settings,
            exports,
            names: ToolNames::default(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// A number no other context of this process has: what a rule remembers on a thread
    /// for one check is forgotten when the number changes.
    pub(crate) fn id(&self) -> usize {
        self.id
    }

    /// The configured exports, in configuration order: each target, and its strict variant
    /// after it when `strict` is set.
    pub fn export_targets(&self) -> impl Iterator<Item = (Target, bool)> + '_ {
        self.exports.iter().map(|e| (e.target, e.strict))
    }

    /// Names every tool for every configured export, one export per thread when `threads`
    /// is more than one. Names depend on the tools before (a rewritten name must not take an
    /// earlier tool's), so each export names the whole catalog in order; lowering, which
    /// [`Context::block`] does, is then independent tool by tool.
    pub(crate) fn name_tools(&mut self, threads: usize) {
        let catalog = self.catalog;
        let name_all = |slot: &mut ExportSlot| slot.names = slot.exporter.name_all(catalog.tools());
        if threads <= 1 || self.exports.len() <= 1 {
            self.exports.iter_mut().for_each(name_all);
            return;
        }
        let per_thread = self.exports.len().div_ceil(threads);
        std::thread::scope(|scope| {
            for slots in self.exports.chunks_mut(per_thread) {
                scope.spawn(move || slots.iter_mut().for_each(name_all));
            }
        });
    }

    /// Names the tools again for the exports whose lowering failed for some named tools
    /// (`failed[export]`, as [`BlockExport::failed`] lists them), so that a tool left out
    /// leaves its name to the tools after it, as in `toolpact convert`. Returns the
    /// positions of the tools whose name changed, for every export.
    pub(crate) fn name_again(&mut self, failed: &[Vec<usize>]) -> Vec<usize> {
        let mut changed = Vec::new();
        for (slot, failed) in self.exports.iter_mut().zip(failed) {
            if !failed.is_empty() {
                changed.extend(slot.exporter.name_again(
                    self.catalog.tools(),
                    &mut slot.names,
                    failed,
                ));
            }
        }
        changed.sort_unstable();
        changed.dedup();
        changed
    }

    /// Takes every tool's name for every export out of the context, for the engine to free
    /// once every block was read: blocks can no longer be lowered after this.
    pub(crate) fn take_names(&mut self) -> Vec<(Exporter, Vec<Result<Named, Unrepresentable>>)> {
        self.exports
            .iter_mut()
            .filter_map(|slot| {
                let options = ExportOptions {
                    strict: slot.strict,
                };
                let fresh = Exporter::new(slot.target, options).ok()?;
                let exporter = std::mem::replace(&mut slot.exporter, fresh);
                Some((exporter, std::mem::take(&mut slot.names)))
            })
            .collect()
    }

    /// The tools in `range` as each configured export receives them, lowered now. Call
    /// [`Context::name_tools`] first.
    pub(crate) fn block(&self, range: Range<usize>) -> Block<'_> {
        let exports = self
            .exports
            .iter()
            .map(|slot| {
                let mut lowered = Vec::with_capacity(range.len());
                let mut left_out = Vec::new();
                let mut failed = Vec::new();
                for index in range.clone() {
                    let (Some(entry), Some(named)) =
                        (self.catalog.entries.get(index), slot.names.get(index))
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
                    match slot.exporter.lower_sharing(&entry.tool, named) {
                        Ok(item) => lowered.push((index, &entry.tool, named, item)),
                        Err(unrepresentable) => {
                            failed.push(index);
                            left_out.push(unrepresentable);
                        }
                    }
                }
                BlockExport {
                    target: slot.target,
                    strict: slot.strict,
                    lowered,
                    left_out,
                    failed,
                }
            })
            .collect();
        Block { range, exports }
    }

    /// The tools with their positions in the catalog.
    pub fn tools(&self) -> impl Iterator<Item = (usize, &'a Tool)> + 'a {
        self.catalog.entries.iter().map(|e| &e.tool).enumerate()
    }

    /// A rule option's value.
    pub fn option(&self, meta: &RuleMeta, name: &str) -> u64 {
        self.settings.option(meta, name)
    }

    /// The tools' names as written.
    pub(crate) fn exact_names(&self) -> &Set<&'a str> {
        self.names.exact(self.catalog)
    }

    /// The tools' names lowercased, with how many tools have each.
    pub(crate) fn lowercase_names(&self) -> &HashMap<String, usize, foldhash::fast::RandomState> {
        self.names.lowercase(self.catalog)
    }

    /// The tools' lowercased names that a text can write as one word (`send_email`).
    pub(crate) fn single_word_names(&self) -> &Set<String> {
        self.names.single_words(self.catalog)
    }
}

/// One tool, as the rules that check one tool at a time see it: what several of them read of
/// it is worked out once, by the first rule that asks.
#[derive(Debug)]
pub struct ToolView<'t> {
    /// The tool's position in the catalog.
    pub index: usize,
    /// The tool.
    pub tool: &'t Tool,
    texts: OnceCell<Vec<ReadText<'t>>>,
    properties: OnceCell<Properties<'t>>,
}

impl<'t> ToolView<'t> {
    /// The tool at `index`.
    pub fn new(index: usize, tool: &'t Tool) -> Self {
        ToolView {
            index,
            tool,
            texts: OnceCell::new(),
            properties: OnceCell::new(),
        }
    }

    /// The texts of the tool the model reads, each with its pointer, in document order.
    pub(crate) fn texts(&self) -> &[ReadText<'t>] {
        self.texts.get_or_init(|| {
            tool_texts(self.tool)
                .into_iter()
                .map(ReadText::new)
                .collect()
        })
    }

    /// Calls `f` with every named property of the tool's input schema, as
    /// [`crate::analysis::schema::property::for_each_property`] does; the schema is walked once for every
    /// rule.
    pub(crate) fn for_each_property(&self, f: &mut dyn FnMut(&Property<'_, 't>)) {
        self.properties
            .get_or_init(|| Properties::of(self.tool))
            .for_each(f);
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
    /// [`Context::export_targets`]).
    pub exports: Vec<BlockExport<'c>>,
}

/// The tools of a block as one export receives them.
#[derive(Debug)]
pub struct BlockExport<'c> {
    /// The target.
    pub target: Target,
    /// Whether this is the strict variant.
    pub strict: bool,
    lowered: Vec<(usize, &'c Tool, &'c Named, Lowered)>,
    left_out: Vec<Unrepresentable>,
    /// The named tools whose lowering failed: they hold a name they should leave to the
    /// tools after them (see [`Context::name_again`]).
    pub(crate) failed: Vec<usize>,
}

impl BlockExport<'_> {
    /// `gemini`, or `anthropic (strict)`.
    pub fn label(&self) -> String {
        export_label(self.target, self.strict)
    }

    /// The tools the target takes, in catalog order.
    pub fn sent(&self) -> impl Iterator<Item = Sent<'_>> {
        self.lowered
            .iter()
            .map(|(index, tool, named, lowered)| Sent {
                index: *index,
                tool,
                name: &named.name,
                item: &lowered.item,
                target: self.target,
                schema_as_written: lowered.schema_as_written,
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
    /// The tool's definition in the target's payload. When [`Sent::schema_as_written`]
    /// holds, the item has `null` in the schema's place (`parameters`,
    /// `function.parameters`, `input_schema` or `parametersJsonSchema`), so that no copy of
    /// each schema is made for each target: read the schema with [`Sent::input_schema`].
    pub item: &'a Value,
    target: Target,
    /// Whether `item` holds `null` in place of the input schema, sent as written.
    schema_as_written: bool,
}

impl<'a> Sent<'a> {
    /// A field of the function definition (`function.<key>` for OpenAI Chat).
    fn field(&self, key: &str) -> Option<&'a Value> {
        match self.target {
            Target::OpenAiChat => self.item.get("function")?.get(key),
            _ => self.item.get(key),
        }
    }

    /// The description the target receives.
    pub fn description(&self) -> Option<&'a str> {
        self.field("description").and_then(Value::as_str)
    }

    /// The input schema the target receives (`parameters`, `input_schema`, …), as lowered.
    pub fn input_schema(&self) -> Option<&'a Value> {
        if self.schema_as_written {
            Some(&self.tool.input_schema)
        } else {
            self.schema_in_item()
        }
    }

    /// Whether the target sends the tool's input schema exactly as written.
    pub fn schema_as_written(&self) -> bool {
        self.schema_as_written
    }

    /// The value at the place of the input schema in [`Sent::item`]: `null` when the schema
    /// is sent as written.
    pub(crate) fn schema_in_item(&self) -> Option<&'a Value> {
        self.field(match self.target {
            Target::Mcp => "inputSchema",
            Target::OpenAiResponses | Target::OpenAiChat | Target::Gemini => "parameters",
            Target::Anthropic => "input_schema",
            Target::GeminiJson => "parametersJsonSchema",
        })
    }
}
