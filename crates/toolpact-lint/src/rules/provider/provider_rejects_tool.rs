use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksBlocks, ReadsExports, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Exports the catalog to each configured target, with the same lowering `toolpact
    /// convert` runs, and reports every tool a target cannot represent at all.
    ///
    /// ## Why is this bad?
    /// The provider rejects the request (or the client drops the tool): a recursive schema
    /// for Gemini or Anthropic strict mode, a root that is not an object, a name that
    /// collides with another once rewritten, a mixed-type enum for Gemini.
    ///
    /// ## Example
    /// A category tree whose `children` refer back to the category, sent to Gemini.
    ///
    /// ## Use instead
    /// Bound the recursion (a fixed number of levels, or ids of child nodes to fetch with
    /// another call), or leave that target out of `targets`.
    ///
    /// ## References
    /// - `docs/providers.md#every-target` (an object at the root)
    /// - `docs/providers.md#gemini-parameters`
    /// - `docs/providers.md#anthropic-strict-tools`
    /// - `docs/providers.md#openai-strict-mode`
    pub struct ProviderRejectsTool {
        code: "TP301",
        name: "provider-rejects-tool",
        category: Provider,
        severity: Error,
        options: [],
    }
}

impl Rule for ProviderRejectsTool {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

impl ChecksBlocks for ProviderRejectsTool {
    fn check_block(&self, _cx: &Context<'_>, block: &Block<'_>, out: &mut Vec<Violation>) {
        for export in &block.exports {
            let target = export.label();
            for left in export.left_out() {
                out.push(Violation {
                    tool: Some(left.index),
                    pointer: left.pointer.clone(),
                    message: format!("{target} cannot take this tool: {}", left.reason),
                    help: format!("change the schema so that {target} can express it, or leave {target} out of `targets`").into(),
                });
            }
        }
    }
}
