//! What a rule sees: the catalog, the settings, and each target's export, computed once and
//! shared so that provider rules and `convert` speak from one source of truth.

use crate::rule::RuleMeta;
use crate::settings::Settings;
use toolpact::{Catalog, Export, ExportOptions, Target, Tool};

/// One target's export, strict or not.
#[derive(Debug)]
pub struct TargetExport {
    /// The target.
    pub target: Target,
    /// Whether this is the strict variant.
    pub strict: bool,
    /// The export, with its loss report.
    pub export: Export,
}

impl TargetExport {
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
    /// The export to each configured target (and its strict variant, when `strict` is set).
    pub exports: Vec<TargetExport>,
}

impl<'a> Context<'a> {
    /// Builds the context, exporting the catalog to each configured target.
    pub fn new(catalog: &'a Catalog, settings: &'a Settings) -> Self {
        let mut exports = Vec::new();
        for &target in &settings.targets {
            let mut variants = vec![false];
            if settings.strict && target.has_strict_mode() {
                variants.push(true);
            }
            for strict in variants {
                if let Ok(export) =
                    toolpact::export(catalog.tools(), target, ExportOptions { strict })
                {
                    exports.push(TargetExport {
                        target,
                        strict,
                        export,
                    });
                }
            }
        }
        Context {
            catalog,
            settings,
            exports,
        }
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
