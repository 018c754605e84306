//! Export: drives a provider over a list of tools. [`export`] makes each name acceptable to the
//! target (and remembers the rewrite in a [`NameMap`]), lowers the tool, and collects every
//! loss in a [`LossReport`]. A tool the target cannot represent is left out and reported;
//! the others are still exported.

use crate::loss::{Loss, LossKind, LossLog, LossReport, Unrepresentable};
use crate::lower::{Inverse, ReadBackStep, SourceMap};
use crate::name::{NameMap, NameRule};
use crate::provider::descriptor::ItemParts;
use crate::provider::table::provider;
use crate::provider::{ExportOptions, Target, require_object_root};
use crate::registry::Registry;
use crate::schema::for_each_remote_ref;
use crate::tool::Tool;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

/// Why an export could not run at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// `strict` was asked of a target that has no strict mode.
    #[error(
        "{0} has no strict mode; --strict applies to openai-responses, openai-chat and anthropic"
    )]
    NoStrictMode(Target),
}

/// The result of an export: the provider payload, what was lost, and the name mapping.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// The target written.
    pub target: Target,
    /// The provider payload, ready to send or save.
    pub payload: Value,
    /// Everything the target could not express, and the tools left out.
    pub report: LossReport,
    /// Exported names mapped back to the original ones.
    pub names: NameMap,
    /// How to read back the calls a model makes to the exported tools, where the target
    /// changed the shape of the values it sends: give it to
    /// [`DispatchOptions::read_back`](crate::DispatchOptions).
    pub read_back: Arc<ReadBack>,
}

/// How to read back the calls a model makes to an export into the tools as written: the
/// [`Inverse`] the lowering of each tool recorded where it changed the shape of the values
/// a model sends (a null for an optional property in strict mode, an enum value Gemini
/// sends as a string). Tools whose values keep their shape are not held.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReadBack {
    /// By the tool's original name.
    tools: HashMap<String, Inverse>,
}

impl ReadBack {
    /// Whether calls to the tool `name` (its original name) are read back at all.
    pub fn answers(&self, name: &str) -> bool {
        self.tools.contains_key(name)
    }

    /// How many tools' calls are read back.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool's calls need reading back.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Reads `arguments` of a call to `tool` (as written) back into its input schema,
    /// changing only arguments at or below the JSON pointers `wrong` (where validation
    /// against the schema as written found errors): a value the schema as written accepts
    /// stays as the model sent it. Returns each change.
    pub fn read(&self, tool: &Tool, arguments: &mut Value, wrong: &[&str]) -> Vec<ReadBackStep> {
        match self.tools.get(&tool.name) {
            Some(inverse) => inverse.read_back(&tool.input_schema, arguments, wrong),
            None => Vec::new(),
        }
    }

    /// Keeps what reading back calls to `lowered` needs, when its lowering changed the
    /// shape of any value.
    fn keep(&mut self, lowered: &mut LoweredTool<'_>) {
        if !lowered.input_inverse.is_empty() {
            let inverse = std::mem::take(&mut lowered.input_inverse);
            self.tools.insert(lowered.tool.name.clone(), inverse);
        }
    }
}

/// Exports `tools` to `target`.
///
/// Fails only when the options do not fit the target; a tool the target cannot represent is
/// left out and listed in [`LossReport::left_out`]. Built on [`Exporter`].
pub fn export<'t>(
    tools: impl IntoIterator<Item = &'t Tool>,
    target: Target,
    options: ExportOptions,
) -> Result<Export, ExportError> {
    let mut exporter = Exporter::new(target, options)?;
    let mut report = LossReport::default();
    let mut items = Vec::new();
    for tool in tools {
        let lowered = exporter.name(tool).and_then(|named| {
            exporter
                .lower(tool, &named)
                .inspect_err(|_| exporter.release(tool, &named))
        });
        match lowered {
            Ok(mut lowered) => {
                report.losses.append(&mut lowered.losses);
                items.push(lowered);
            }
            Err(unrepresentable) => report.left_out.push(unrepresentable),
        }
    }
    Ok(exporter.finish(items, report))
}

/// A tool named for a target by [`Exporter::name`], ready for [`Exporter::lower`].
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    /// The tool's position among the tools named so far.
    pub index: usize,
    /// The name the target sees: the tool's own, or the rewrite its naming rule required.
    pub name: String,
    /// The rewrite of the name, when there was one.
    renamed: Option<Loss>,
}

/// One tool as a target receives it, lowered by [`Exporter::lower`].
///
/// The schemas are borrowed from the tool where the target sends them exactly as written
/// (OpenAI and Anthropic without strict mode, Gemini JSON, MCP) and owned where the target
/// rewrote them. The target's JSON item is built only when it is asked for
/// ([`LoweredTool::item`]), or for the whole payload by [`Exporter::finish`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LoweredTool<'t> {
    /// The target the tool is lowered for.
    pub target: Target,
    /// Whether the tool is lowered to the target's strict subset.
    pub strict: bool,
    /// The name the target sees: the tool's own, or the rewrite its naming rule required.
    pub name: String,
    /// The tool as written.
    pub tool: &'t Tool,
    /// The description the target receives.
    pub description: Option<&'t str>,
    /// The input schema the target receives, or `None` when the target leaves it out
    /// (Gemini sends no `parameters` for a tool without parameters).
    pub input_schema: Option<Cow<'t, Value>>,
    /// The output schema the target receives, where it has a place for one.
    pub output_schema: Option<Cow<'t, Value>>,
    /// Where each part of the input schema the target receives comes from in the tool's
    /// input schema (empty when the target sends it as written).
    pub input_sources: SourceMap,
    /// Where each part of the output schema the target receives comes from in the tool's
    /// output schema (empty when the target sends it as written).
    pub output_sources: SourceMap,
    /// How to read back what a model sends for the input schema into the tool's input
    /// schema (empty when the target keeps the shape of every value).
    pub input_inverse: Inverse,
    /// What the target could not express of the tool (a rewritten name included).
    pub losses: Vec<Loss>,
}

impl LoweredTool<'_> {
    /// Whether the target sends the tool's input schema exactly as written (borrowed).
    pub fn input_schema_as_written(&self) -> bool {
        matches!(self.input_schema, Some(Cow::Borrowed(_)))
    }

    /// The place in the tool as written (`/inputSchema/…`) that `pointer`, a pointer into
    /// the input schema the target receives (`""` for its root), comes from: through
    /// inlined references, renamed and merged keywords and added wrappers, down to the
    /// deepest node the author wrote.
    pub fn input_origin(&self, pointer: &str) -> String {
        let origin = self
            .input_sources
            .original_in(pointer, &self.tool.input_schema);
        format!("/inputSchema{origin}")
    }

    /// The tool's definition in the target's payload, built now.
    pub fn item(&self) -> Value {
        self.item_with_input_schema(self.input_schema.as_deref().cloned())
    }

    /// The tool's definition in the target's payload with `input_schema` in the place of the
    /// input schema: a reader that has the schema already (to count the text of the item
    /// around it, say) passes a stand-in rather than a copy.
    pub fn item_with_input_schema(&self, input_schema: Option<Value>) -> Value {
        provider(self.target).item(ItemParts {
            tool: self.tool,
            name: &self.name,
            strict: self.strict,
            input: input_schema,
            output: self.output_schema.as_deref().cloned(),
        })
    }

    /// The tool's definition in the target's payload, the schemas moved in.
    fn into_item(self) -> Value {
        provider(self.target).item(ItemParts {
            tool: self.tool,
            name: &self.name,
            strict: self.strict,
            input: self.input_schema.map(Cow::into_owned),
            output: self.output_schema.map(Cow::into_owned),
        })
    }
}

/// Exports tools one at a time, in two steps.
///
/// [`Exporter::name`] takes the tools in order and gives each a name the target accepts and
/// no earlier tool holds; it leaves out the tools no target can take (no name, or an input
/// schema that is not an object). [`Exporter::lower`] then turns a named tool into a
/// [`LoweredTool`], independently of the other tools: a caller may lower on several
/// threads, or read each lowered tool and drop it rather than hold the payload of a whole
/// catalog. [`Exporter::finish`] writes the items in the target's envelope. [`export`] is
/// these steps, tool by tool.
///
/// A tool whose lowering fails is left out, and should not keep its name from a later tool:
/// a caller that names every tool before lowering any names again with
/// [`Exporter::name_again`] after a failure, for the names to be those [`export`] gives.
#[derive(Debug, Clone)]
pub struct Exporter {
    target: Target,
    options: ExportOptions,
    rule: NameRule,
    names: NameMap,
    next: usize,
}

impl Exporter {
    /// An exporter to `target`; fails when the options do not fit the target.
    pub fn new(target: Target, options: ExportOptions) -> Result<Exporter, ExportError> {
        if options.strict && !target.has_strict_mode() {
            return Err(ExportError::NoStrictMode(target));
        }
        Ok(Exporter {
            target,
            options,
            rule: target.name_rule(),
            names: NameMap::default(),
            next: 0,
        })
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Names the next tool, or says why the target cannot take it (an empty name, a name
    /// that collides once rewritten, an input schema that is not an object).
    pub fn name(&mut self, tool: &Tool) -> Result<Named, Unrepresentable> {
        let index = self.next;
        self.next += 1;
        let mut log = LossLog::new(&tool.name, index);
        let name = export_name(tool, self.rule, &self.names, &mut log)?;
        require_object_root(tool, self.target.vendor(), &log)?;
        self.names.insert(name.clone(), tool.name.clone());
        Ok(Named {
            index,
            name,
            renamed: log.into_losses().pop(),
        })
    }

    /// Lowers `tool`, named by [`Exporter::name`] as `named`, for the target.
    pub fn lower<'t>(
        &self,
        tool: &'t Tool,
        named: &Named,
    ) -> Result<LoweredTool<'t>, Unrepresentable> {
        let mut log = LossLog::starting_with(&tool.name, named.index, named.renamed.clone());
        let schemas = provider(self.target).lower(tool, self.options, &mut log)?;
        // A target that inlines references refuses a remote one; one that sends `$ref` as it
        // is sends it to a model that cannot follow it.
        if let Some(input) = &schemas.input {
            for_each_remote_ref(input, &mut |pointer, reference| {
                log.push(
                    &format!("/inputSchema{pointer}"),
                    LossKind::Kept,
                    format!(
                        "remote reference {reference:?} is sent as it is, but no model follows it and toolpact never fetches it (the registry refuses the schema); put the schema in `$defs`"
                    ),
                );
            });
        }
        Ok(LoweredTool {
            target: self.target,
            strict: self.options.strict,
            name: named.name.clone(),
            tool,
            description: tool.description.as_deref(),
            input_schema: schemas.input,
            output_schema: schemas.output,
            input_sources: schemas.input_sources,
            output_sources: schemas.output_sources,
            input_inverse: schemas.input_inverse,
            losses: log.into_losses(),
        })
    }

    /// Names every tool of `tools`, in order: each tool's name, or why the target cannot
    /// take it.
    pub fn name_all<'t>(
        &mut self,
        tools: impl IntoIterator<Item = &'t Tool>,
    ) -> Vec<Result<Named, Unrepresentable>> {
        let tools = tools.into_iter();
        // Room for every name at once, rather than growing the maps step by step.
        self.names.reserve(tools.size_hint().0);
        tools.map(|tool| self.name(tool)).collect()
    }

    /// Names `tools` again from the start, after lowering them (in any order) found that
    /// the tools at the positions `failed` cannot be lowered, so that the names are those
    /// [`export`] gives: a failed tool leaves its name to the tools after it. `names` holds
    /// what [`Exporter::name_all`] gave for the same tools, and is updated; the positions
    /// whose result changed are returned. A tool named now that was not named before is
    /// lowered here, to learn whether it fails too.
    pub fn name_again<'t>(
        &mut self,
        tools: impl IntoIterator<Item = &'t Tool>,
        names: &mut [Result<Named, Unrepresentable>],
        failed: &[usize],
    ) -> Vec<usize> {
        let mut fresh = Exporter {
            names: NameMap::default(),
            next: 0,
            ..self.clone()
        };
        let mut changed = Vec::new();
        for ((index, tool), before) in tools.into_iter().enumerate().zip(names.iter_mut()) {
            let now = fresh.name(tool);
            if let Ok(named) = &now
                && (failed.contains(&index) || before.is_err())
                && fresh.lower(tool, named).is_err()
            {
                fresh.release(tool, named);
            }
            if now != *before {
                changed.push(index);
                *before = now;
            }
        }
        *self = fresh;
        changed
    }

    /// Frees the name of `tool`, named as `named`, when it is not sent after all (its
    /// lowering failed), so that a tool named later may take it.
    fn release(&mut self, tool: &Tool, named: &Named) {
        if self.names.original(&named.name) == Some(tool.name.as_str()) {
            self.names.remove(&named.name, &tool.name);
        }
    }

    /// The names given so far, mapped to the tools' original names.
    pub fn names(&self) -> &NameMap {
        &self.names
    }

    /// The export of the lowered `items`, in the order they were named, with the loss
    /// `report` of all the tools: each item's JSON is built here, inside the target's
    /// envelope.
    pub fn finish(self, items: Vec<LoweredTool<'_>>, report: LossReport) -> Export {
        let mut read_back = ReadBack::default();
        let items = items
            .into_iter()
            .map(|mut item| {
                read_back.keep(&mut item);
                item.into_item()
            })
            .collect();
        let payload = provider(self.target).wrap(items);
        Export {
            target: self.target,
            payload,
            report,
            names: self.names,
            read_back: Arc::new(read_back),
        }
    }
}

/// Checks that `registry` is coherent, for a test suite to assert: every tool has
/// a handler, and every target exports every tool (no name collision after rewriting, no
/// schema a target cannot express, strict variants included). Schemas were compiled at
/// registration. Returns every problem found.
pub fn check_coherence(registry: &Registry) -> Result<(), Vec<String>> {
    let mut problems = Vec::new();
    for r in registry.entries() {
        if r.handler().is_none() {
            problems.push(format!(
                "tool {:?} ({}) has no handler",
                r.tool().name,
                r.source()
            ));
        }
    }
    for target in Target::ALL {
        let mut variants = vec![false];
        if target.has_strict_mode() {
            variants.push(true);
        }
        for strict in variants {
            let Ok(export) = export(registry.tools(), target, ExportOptions { strict }) else {
                continue;
            };
            let mode = if strict { " --strict" } else { "" };
            for left in export.report.left_out {
                problems.push(format!("{target}{mode} cannot export {}", left));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

fn export_name(
    tool: &Tool,
    rule: NameRule,
    taken: &NameMap,
    log: &mut LossLog<'_>,
) -> Result<String, Unrepresentable> {
    let name = match rule.check(&tool.name) {
        Ok(()) => tool.name.clone(),
        Err(problem) => {
            let Some(rewritten) = rule.rewrite(&tool.name) else {
                return Err(log.unrepresentable("/name", "the tool has an empty name"));
            };
            log.push(
                "/name",
                LossKind::Renamed,
                format!(
                    "becomes {rewritten:?}: {problem}; {} names allow {} up to {} characters",
                    rule.label, rule.charset, rule.max_len
                ),
            );
            rewritten
        }
    };
    if let Some(other) = taken.original(&name) {
        let reason = if other == tool.name {
            format!("another tool is already named {name:?}")
        } else {
            format!(
                "its {} name {name:?} collides with the tool {other:?}",
                rule.label
            )
        };
        return Err(log.unrepresentable("/name", reason));
    }
    Ok(name)
}
