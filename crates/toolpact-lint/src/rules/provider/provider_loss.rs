use crate::context::Context;
use crate::rule::{Rule, RuleMeta, Violation, declare_rule};
use toolpact::LossKind;

declare_rule! {
    /// ## What it does
    /// Exports the catalog to each configured target, with the same lowering `toolpact
    /// convert` runs, and reports everything the target could not express as written: a
    /// keyword dropped, rewritten, inlined or moved into the description, or a name rewritten.
    ///
    /// ## Why is this bad?
    /// What a target drops, the model on that provider never sees: a `minimum` that Gemini
    /// drops is a range the model may break; a constraint moved into the description is a
    /// hint, not a rule. toolpact still enforces the full schema when the call comes back, but
    /// the model gets it right less often.
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

impl Rule for ProviderLoss {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Violation>) {
        for export in &cx.exports {
            let target = export.label();
            for loss in &export.export.report.losses {
                if loss.kind == LossKind::Kept {
                    continue;
                }
                out.push(Violation {
                    tool: Some(loss.index),
                    pointer: loss.pointer.clone(),
                    message: format!("{target}: {}: {}", loss.kind, loss.message),
                    help: "keep to what every target expresses, or accept the loss knowing the full schema is still enforced on calls".to_owned(),
                });
            }
        }
    }
}
