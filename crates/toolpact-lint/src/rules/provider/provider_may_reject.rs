//! TP303: what a target's lowering kept as written although a reported rejection shows a
//! surface of that provider refusing it.

use super::lowered::ByTarget;
use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksBlocks, ReadsExports, Rule, declare_rule};
use toolpact::LossKind;

declare_rule! {
    /// ## What it does
    /// Reports what the export to a configured target kept exactly as written although a
    /// reported rejection shows that some surface of that provider refuses it: the losses that
    /// `toolpact convert --report` marks "kept, at risk". Each message names its source (the
    /// rejection in `fixtures/rejections/` and the section of `docs/providers.md`). Today this
    /// is an `enum` on an integer, number or boolean property sent to Gemini `parameters`
    /// (as strings with `format: "enum"`): the Code Assist backend behind Gemini CLI and
    /// Antigravity refuses `enum` on any type but STRING.
    ///
    /// ## Why is this bad?
    /// toolpact keeps such a construct where rewriting it would change what the tool accepts
    /// (an integer enum written as a string enum would make the model send strings), and where
    /// the provider's own documentation allows it on another surface. Where it is refused, the
    /// provider answers the whole request with a 400: every tool fails, not just this one.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {"level": {"type": "integer", "enum": [0, 1, 2, 3]}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {"level": {"type": "string", "enum": ["errors", "warnings", "info", "debug"]}}}
    /// ```
    /// or export with the `gemini-json` target (`parametersJsonSchema`), which keeps JSON
    /// Schema enums.
    ///
    /// ## References
    /// - `docs/providers.md#gemini-parameters`
    /// - `fixtures/rejections/gemini/enum-on-non-string-type.json`
    /// - TP302 `provider-loss` reports every other loss; this rule takes the "kept, at risk" ones
    pub struct ProviderMayReject {
        code: "TP303",
        name: "provider-may-reject",
        category: Provider,
        severity: Warning,
        options: [],
    }
}

impl Rule for ProviderMayReject {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

impl ChecksBlocks for ProviderMayReject {
    fn check_block(&self, _cx: &Context<'_>, block: &Block<'_>, out: &mut Vec<Violation>) {
        let mut found = ByTarget::new();
        for export in &block.exports {
            for loss in export.losses() {
                if loss.kind == LossKind::Kept {
                    found.add(
                        (loss.index, loss.pointer.clone(), loss.message.clone()),
                        export.target,
                    );
                }
            }
        }
        for ((index, pointer, message), targets) in found.into_entries() {
            out.push(Violation {
                tool: Some(index),
                message: format!("{targets}: {message}"),
                pointer,
                help: format!(
                    "write it the way every surface of {targets} takes it, or leave {targets} out of `targets` for this catalog"
                ).into(),
            });
        }
    }
}
