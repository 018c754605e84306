use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksBlocks, ReadsExports, Rule, declare_rule};
use toolpact::{Loss, LossKind};

declare_rule! {
    /// ## What it does
    /// Exports the catalog to each configured target, with the same lowering `toolpact
    /// convert` runs, and reports what the target could not express of the input schema as
    /// written: a keyword dropped, rewritten or moved into the description. Fields the provider
    /// has no place for (title, annotations, `_meta`) are left to `toolpact convert`'s report:
    /// the model does not read them.
    ///
    /// ## Why is this bad?
    /// What a target drops, the model on that provider never sees: a `minimum` that Gemini
    /// drops is a range the model may break; a constraint moved into the description is a
    /// hint, not a rule. toolpact still enforces the full schema when the call comes back, and
    /// reads back what a rewrite changed in the values the model sends (a strict-mode null, a
    /// Gemini enum string), but the model gets it right less often. A rewrite that narrows what
    /// the model can send is TP310, a warning.
    ///
    /// ## Example
    /// `"exclusiveMinimum": 0` on a price, exported to Gemini `parameters`.
    ///
    /// ## Use instead
    /// Prefer what every target keeps (`minimum`), say the rule in the property's description,
    /// or use the `gemini-json` target, which keeps JSON Schema.
    ///
    /// ## References
    /// - `toolpact convert --report json` lists the same losses
    pub struct ProviderLoss {
        code: "TP302",
        name: "provider-loss",
        category: Provider,
        severity: Info,
        options: [],
    }
}

/// Whether a loss changes what the model reads about the arguments. Fields the provider has no
/// place for (title, annotations, `_meta`, output schema) are client-side; `$schema`-style
/// metadata and inlined references change nothing the model sees; a rewritten name, a kept
/// but risky construct and a narrowed schema have rules of their own.
fn affects_the_model(loss: &Loss) -> bool {
    if !loss.pointer.starts_with("/inputSchema") {
        return false;
    }
    match loss.kind {
        LossKind::Inlined | LossKind::Kept | LossKind::Renamed | LossKind::Narrowed => false,
        LossKind::Dropped => {
            let keyword = loss.pointer.rsplit('/').next().unwrap_or_default();
            // An empty `properties` left out says the same: the tool takes no arguments.
            !matches!(
                keyword,
                "$schema" | "$id" | "$comment" | "$anchor" | "$defs" | "definitions" | "properties"
            )
        }
        // An empty `properties` added says the same: the object takes no properties. (A
        // property that is itself named `properties` sits under another `/properties`.)
        LossKind::Rewritten => loss
            .pointer
            .strip_suffix("/properties")
            .is_none_or(|parent| parent.ends_with("/properties")),
        // Anything else the lowering may come to report changes the schema the model reads.
        _ => true,
    }
}

impl Rule for ProviderLoss {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

impl ChecksBlocks for ProviderLoss {
    fn check_block(&self, _cx: &Context<'_>, block: &Block<'_>, out: &mut Vec<Violation>) {
        for export in &block.exports {
            let target = export.label();
            for loss in export.losses().filter(|l| affects_the_model(l)) {
                out.push(Violation {
                    tool: Some(loss.index),
                    pointer: loss.pointer.clone(),
                    message: format!("{target}: {}: {}", loss.kind, loss.message),
                    help: "keep to what every target expresses, or accept the loss knowing the full schema is still enforced on calls".into(),
                });
            }
        }
    }
}
