//! What a rule sees: the catalog, the settings, and each target's export, computed once (when
//! first needed) and shared so that provider rules and `convert` speak from one source of
//! truth.

use crate::rule::RuleMeta;
use crate::settings::Settings;
use std::sync::OnceLock;
use toolpact::{Catalog, Export, ExportOptions, Target, Tool};

/// One target's export, strict or not.
#[derive(Debug, Clone, Copy)]
pub struct TargetExport<'c> {
    /// The target.
    pub target: Target,
    /// Whether this is the strict variant.
    pub strict: bool,
    /// The export, with its loss report.
    pub export: &'c Export,
}

impl TargetExport<'_> {
    /// `gemini`, or `anthropic (strict)`.
    pub fn label(&self) -> String {
        if self.strict {
            format!("{} (strict)", self.target)
        } else {
            self.target.to_string()
        }
    }
}

/// The input of every rule.
#[derive(Debug)]
pub struct Context<'a> {
    /// The catalog being checked.
    pub catalog: &'a Catalog,
    /// The settings.
    pub settings: &'a Settings,
    /// Each configured target (and its strict variant, when `strict` is set), with its export
    /// once someone asked for it. Exporting a large catalog to six targets costs more than
    /// most rules, so it happens only when a rule that reads exports is enabled.
    slots: Vec<Slot>,
}

#[derive(Debug)]
struct Slot {
    target: Target,
    strict: bool,
    export: OnceLock<Option<Export>>,
}

impl<'a> Context<'a> {
    /// Builds the context; exports are made when first asked for.
    pub fn new(catalog: &'a Catalog, settings: &'a Settings) -> Self {
        let mut slots = Vec::new();
        for &target in &settings.targets {
            slots.push(Slot {
                target,
                strict: false,
                export: OnceLock::new(),
            });
            if settings.strict && target.has_strict_mode() {
                slots.push(Slot {
                    target,
                    strict: true,
                    export: OnceLock::new(),
                });
            }
        }
        Context {
            catalog,
            settings,
            slots,
        }
    }

    /// How many exports [`Context::exports`] makes (targets the catalog cannot be exported
    /// to included).
    pub(crate) fn export_count(&self) -> usize {
        self.slots.len()
    }

    /// Makes the `index`th export now, so that threads can share the work; a no-op when it
    /// is made already.
    pub(crate) fn prepare_export(&self, index: usize) {
        if let Some(slot) = self.slots.get(index) {
            self.export_of(slot);
        }
    }

    fn export_of<'s>(&'s self, slot: &'s Slot) -> Option<&'s Export> {
        slot.export
            .get_or_init(|| {
                toolpact::export(
                    self.catalog.tools(),
                    slot.target,
                    ExportOptions {
                        strict: slot.strict,
                    },
                )
                .ok()
            })
            .as_ref()
    }

    /// The export to each configured target (and its strict variant, when `strict` is set),
    /// in configuration order; a target the catalog cannot be exported to is left out.
    pub fn exports(&self) -> Vec<TargetExport<'_>> {
        self.slots
            .iter()
            .filter_map(|slot| {
                self.export_of(slot).map(|export| TargetExport {
                    target: slot.target,
                    strict: slot.strict,
                    export,
                })
            })
            .collect()
    }

    /// The tools with their positions in the catalog.
    pub fn tools(&self) -> impl Iterator<Item = (usize, &'a Tool)> + 'a {
        self.catalog.entries.iter().map(|e| &e.tool).enumerate()
    }

    /// A rule option's value.
    pub fn option(&self, meta: &RuleMeta, name: &str) -> u64 {
        self.settings.option(meta, name)
    }
}
