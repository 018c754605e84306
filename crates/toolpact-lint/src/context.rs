//! What a rule sees: the catalog, what it reads of the settings, each configured export
//! (lowered block by block by the engine, with the same passes as `toolpact convert`, so that
//! provider rules and `convert` speak from one source of truth), and each tool with what
//! several rules read of it worked out once.

use crate::analysis::names::{Set, ToolNames};
use crate::analysis::poison::{Detection, scan_tool};
use crate::analysis::quality::{Facts, assess};
use crate::analysis::schema::{Properties, Property};
use crate::analysis::texts::{ReadText, tool_texts};
use crate::engine::blocks::Exports;
use crate::engine::scratch::Scratch;
use crate::engine::timings::{Shared, shared};
use crate::meta::RuleMeta;
use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};
use toolpact::{Catalog, Target, Tool};

/// What rules read of the settings: the targets to check against, whether their strict
/// variants are checked too, and the value of each rule option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSettings {
    /// The targets provider rules check against.
    pub targets: Vec<Target>,
    /// Also check the strict variants (OpenAI and Anthropic strict mode).
    pub strict: bool,
    options: OptionValues,
}

impl RuleSettings {
    /// The settings of `targets`, their strict variants when `strict` is set, and the
    /// options configured.
    pub(crate) fn new(targets: Vec<Target>, strict: bool, options: OptionValues) -> Self {
        RuleSettings {
            targets,
            strict,
            options,
        }
    }

    /// A rule option's value: configured, or the rule's default.
    pub fn option(&self, meta: &RuleMeta, name: &str) -> u64 {
        self.options.get(meta, name)
    }
}

/// The rule options set in the configuration, by rule code and option name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct OptionValues(BTreeMap<(&'static str, &'static str), u64>);

impl OptionValues {
    /// Sets the option `name` of the rule `code`.
    pub(crate) fn set(&mut self, code: &'static str, name: &'static str, value: u64) {
        self.0.insert((code, name), value);
    }

    /// A rule option's value: configured, or the rule's default; 0 for an option the rule
    /// does not have.
    pub(crate) fn get(&self, meta: &RuleMeta, name: &str) -> u64 {
        meta.options
            .iter()
            .find(|o| o.name == name)
            .map(|o| {
                self.0
                    .get(&(meta.code, o.name))
                    .copied()
                    .unwrap_or(o.default)
            })
            .unwrap_or_default()
    }
}

/// The input of every rule.
#[derive(Debug)]
pub struct Context<'a> {
    /// The catalog being checked.
    pub catalog: &'a Catalog,
    /// What rules read of the settings.
    pub settings: &'a RuleSettings,
    /// Each configured target (and its strict variant, when `strict` is set), with every
    /// tool named for it once the engine has named them.
    exports: Exports,
    /// The tools' names, as rules look them up, worked out when first asked for.
    names: ToolNames<'a>,
}

impl<'a> Context<'a> {
    /// Builds the context; the engine names the tools for the targets.
    pub(crate) fn new(catalog: &'a Catalog, settings: &'a RuleSettings) -> Self {
        Context {
            catalog,
            settings,
            exports: Exports::new(&settings.targets, settings.strict),
            names: ToolNames::default(),
        }
    }

    /// The configured exports, in configuration order: each target, and its strict variant
    /// after it when `strict` is set.
    pub fn export_targets(&self) -> impl Iterator<Item = (Target, bool)> + '_ {
        self.exports.targets()
    }

    /// The configured exports, for the engine to lower blocks of tools for.
    pub(crate) fn exports(&self) -> &Exports {
        &self.exports
    }

    /// The configured exports, for the engine to name the tools for.
    pub(crate) fn exports_mut(&mut self) -> &mut Exports {
        &mut self.exports
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
        shared(Shared::Names, || self.names.exact(self.catalog))
    }

    /// The tools' names lowercased, with how many tools have each.
    pub(crate) fn lowercase_names(&self) -> &HashMap<String, usize, foldhash::fast::RandomState> {
        shared(Shared::Names, || self.names.lowercase(self.catalog))
    }

    /// The tools' lowercased names that a text can write as one word (`send_email`).
    pub(crate) fn single_word_names(&self) -> &Set<String> {
        shared(Shared::Names, || self.names.single_words(self.catalog))
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
    poison: OnceCell<Vec<Detection>>,
    quality: OnceCell<Facts>,
    scratch: &'t Scratch,
}

impl<'t> ToolView<'t> {
    /// The tool at `index`, read on the worker that owns `scratch`.
    pub(crate) fn new(index: usize, tool: &'t Tool, scratch: &'t Scratch) -> Self {
        ToolView {
            index,
            tool,
            texts: OnceCell::new(),
            properties: OnceCell::new(),
            poison: OnceCell::new(),
            quality: OnceCell::new(),
            scratch,
        }
    }

    /// What the worker reading this tool keeps for the rules, from tool to tool.
    pub(crate) fn scratch(&self) -> &'t Scratch {
        self.scratch
    }

    /// The texts of the tool the model reads, each with its pointer, in document order.
    pub(crate) fn texts(&self) -> &[ReadText<'t>] {
        self.texts.get_or_init(|| {
            shared(Shared::Texts, || {
                tool_texts(self.tool)
                    .into_iter()
                    .map(ReadText::new)
                    .collect()
            })
        })
    }

    /// What the tool-poisoning analysis finds in every string of the tool; the security
    /// rules each report their technique's share.
    pub(crate) fn poison(&self) -> &[Detection] {
        self.poison
            .get_or_init(|| shared(Shared::Poison, || scan_tool(self.tool)))
    }

    /// What the tool's description says of the quality components; the description rules
    /// and the quality score read it.
    pub(crate) fn quality(&self) -> &Facts {
        self.quality
            .get_or_init(|| shared(Shared::Quality, || assess(self.tool)))
    }

    /// Calls `f` with every named property of the tool's input schema, as
    /// [`Properties::for_each`] does; the schema is walked once for every rule.
    pub(crate) fn for_each_property(&self, f: &mut dyn FnMut(&Property<'_, 't>)) {
        self.properties
            .get_or_init(|| shared(Shared::Properties, || Properties::of(self.tool)))
            .for_each(f);
    }
}
