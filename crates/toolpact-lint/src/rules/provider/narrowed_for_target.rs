use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksBlocks, ReadsExports, Rule, declare_rule};
use toolpact::LossKind;

declare_rule! {
    /// ## What it does
    /// Exports the catalog to each configured target, with the same lowering `toolpact
    /// convert` runs, and reports each rewrite that narrows what the model can send: an
    /// object whose free-form keys (`additionalProperties` with a schema, or `true`) strict
    /// mode closes, so the model's calls hold only the declared properties, or an empty
    /// object where the schema has no declared properties at all.
    ///
    /// ## Why is this bad?
    /// Every other rewrite keeps the values the model sends within the schema as written, or
    /// comes back exactly: toolpact reads a strict-mode null or a Gemini enum string back into
    /// what the tool expects. A narrowed object does not come back: the keys the model cannot
    /// send are missing from every call, and a tool that needs them never gets them through
    /// this target.
    ///
    /// ## Example
    /// `"labels": {"type": "object", "additionalProperties": {"type": "string"}}`, exported
    /// with `--strict`: the model always sends `"labels": {}`.
    ///
    /// ## Use instead
    /// Declare the keys the model may send, or take a list of `{"key", "value"}` objects;
    /// or export without `--strict` for this tool.
    ///
    /// ## References
    /// - `toolpact convert --report json` lists the same losses, as `narrowed`
    pub struct NarrowedForTarget {
        code: "TP310",
        name: "narrowed-for-target",
        category: Provider,
        severity: Warning,
        options: [],
    }
}

impl Rule for NarrowedForTarget {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

impl ChecksBlocks for NarrowedForTarget {
    fn check_block(&self, _cx: &Context<'_>, block: &Block<'_>, out: &mut Vec<Violation>) {
        for export in &block.exports {
            let target = export.label();
            for loss in export
                .losses()
                .filter(|l| l.kind == LossKind::Narrowed && l.pointer.starts_with("/inputSchema"))
            {
                out.push(Violation {
                    tool: Some(loss.index),
                    pointer: loss.pointer.clone(),
                    message: format!("{target}: {}", loss.message),
                    help: "declare the keys the model may send, or take a list of {key, value} objects".into(),
                });
            }
        }
    }
}
