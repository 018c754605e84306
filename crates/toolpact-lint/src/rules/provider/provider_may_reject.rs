//! TP303: what a target's lowering kept as written although the target is known to reject
//! or ignore it.

use super::lowered::ByTarget;
use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksBlocks, ReadsExports, Rule, declare_rule};
use toolpact::LossKind;
use toolpact::name::GEMINI_PARAMETER;

declare_rule! {
    /// ## What it does
    /// Reports what the export to a configured target kept exactly as written although that
    /// target is known to reject it, or to treat it as something else: the losses that
    /// `toolpact convert --report` marks "kept, at risk". Today these are Gemini parameter
    /// names outside `[A-Za-z0-9_]` (a letter or `_` first, at most 64 characters), such as
    /// `user-id` or `2fa_code`.
    ///
    /// ## Why is this bad?
    /// toolpact does not rename a parameter on its own: the arguments would come back under a
    /// name the tool does not know. So the definition goes out as written, and the provider
    /// may answer the whole request with a 400 — every tool fails, not just this one. Gemini's
    /// SDK documents the rule for `parameters`; whether the API enforces it on every surface
    /// is not confirmed, hence a warning rather than an error.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {"user-id": {"type": "string"}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {"user_id": {"type": "string"}}}
    /// ```
    /// or export with the `gemini-json` target (`parametersJsonSchema`), which has no such
    /// rule.
    ///
    /// ## References
    /// - `docs/providers.md#gemini-parameter-names` (python-genai `FunctionDeclaration.parameters`)
    /// - `docs/providers.md#gemini-parametersjsonschema`
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
            let help = match renamed_parameter(&pointer) {
                Some((name, suggestion)) => format!(
                    "rename the parameter {name:?} to {suggestion:?} (letters, digits and `_`, starting with a letter or `_`, at most 64 characters), or send this tool to Gemini with the `gemini-json` target"
                ),
                None => format!(
                    "write it the way {targets} documents, or leave {targets} out of `targets` for this catalog"
                ),
            };
            out.push(Violation {
                tool: Some(index),
                message: format!("{targets}: {message}"),
                pointer,
                help,
            });
        }
    }
}

/// For a pointer to a property (`…/properties/user-id`) whose name breaks Gemini's parameter
/// rule, the name and one that keeps to it.
fn renamed_parameter(pointer: &str) -> Option<(String, String)> {
    let (parent, last) = pointer.rsplit_once('/')?;
    if !parent.ends_with("/properties") {
        return None;
    }
    let name = toolpact::json::unescape_token(last).into_owned();
    if GEMINI_PARAMETER.accepts(&name) {
        return None;
    }
    let suggestion = GEMINI_PARAMETER.rewrite(&name)?;
    Some((name, suggestion))
}
