//! Export: drives a provider over a list of tools. [`export`] makes each name acceptable to the
//! target (and remembers the rewrite in a [`NameMap`]), lowers the tool, and collects every
//! loss in a [`LossReport`]. A tool the target cannot represent is left out and reported;
//! the others are still exported.

use crate::json::write_around;
use crate::loss::{Loss, LossKind, LossLog, LossReport, Unrepresentable};
use crate::lower::{Inverse, ReadBackStep, SourceMap};
use crate::name::{NameMap, NameRule};
use crate::provider::descriptor::ItemParts;
use crate::provider::table::provider;
use crate::provider::{ExportOptions, Target, require_object_root};
use crate::registry::Registry;
use crate::schema::for_each_remote_ref;
use crate::tool::Tool;
use foldhash::HashMap;
use serde_json::Value;
use std::borrow::Cow;
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
    let exporter = Exporter::new(target, options)?;
    let tools: Vec<&Tool> = tools.into_iter().collect();
    let names = exporter.name_all(tools.iter().copied());
    let mut report = LossReport::default();
    let mut items = Vec::new();
    for (tool, named) in tools.into_iter().zip(names) {
        match named.and_then(|named| exporter.lower(tool, &named)) {
            Ok(mut lowered) => {
                report.losses.append(&mut lowered.losses);
                items.push(lowered);
            }
            Err(unrepresentable) => report.left_out.push(unrepresentable),
        }
    }
    Ok(exporter.finish(items, report))
}

/// A tool named for a target by [`Exporter::name_all`], ready for [`Exporter::lower`].
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    /// The tool's position in the list of tools named.
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
        self.item_holding(self.input_schema.as_deref().cloned())
    }

    /// Writes the compact JSON of the tool's definition in the target's payload into `out`,
    /// all but the input schema, and returns the offset in `out` where the input schema's JSON
    /// belongs: for a reader that has the schema already (to count the text of the item around
    /// it, say), without a copy of it. `None` when the target sends no input schema for the
    /// tool: `out` then holds the whole item.
    pub fn write_item_around_input_schema(&self, out: &mut Vec<u8>) -> Option<usize> {
        match self.input_schema {
            // The item is built with `null` where the provider's facts place the input
            // schema, and written without it.
            Some(_) => write_around(
                &self.item_holding(Some(Value::Null)),
                self.target.facts().input_schema_at,
                out,
            ),
            None => {
                // Writing to a Vec cannot fail.
                let _ = serde_json::to_writer(out, &self.item_holding(None));
                None
            }
        }
    }

    /// The tool's definition in the target's payload with `input` as its input schema.
    fn item_holding(&self, input: Option<Value>) -> Value {
        provider(self.target).item(ItemParts {
            tool: self.tool,
            name: &self.name,
            strict: self.strict,
            input: input.map(Cow::Owned),
            output: self.output_schema.as_deref().map(Cow::Borrowed),
        })
    }

    /// The tool's definition in the target's payload, the schemas moved in.
    fn into_item(self) -> Value {
        provider(self.target).item(ItemParts {
            tool: self.tool,
            name: &self.name,
            strict: self.strict,
            input: self.input_schema,
            output: self.output_schema,
        })
    }
}

/// Exports tools in steps a caller may spread over threads.
///
/// [`Exporter::name_all`] gives every tool of a list its final name for the target, or says
/// why the target cannot take it. [`Exporter::lower`] then turns one named tool into a
/// [`LoweredTool`], independently of the other tools: a caller may lower in any order, on
/// several threads, and read each lowered tool and drop it rather than hold the payload of a
/// whole catalog. [`Exporter::finish`] writes the items in the target's envelope. [`export`]
/// is these steps over one list of tools.
#[derive(Debug, Clone)]
pub struct Exporter {
    target: Target,
    options: ExportOptions,
    rule: NameRule,
}

/// The tool holding a name, while [`Exporter::name_all`] names a list of tools.
struct Holder<'t> {
    tool: &'t Tool,
    index: usize,
    /// Whether the tool lowers for the target: learnt only when a later tool asks for its
    /// name.
    lowers: Option<bool>,
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
        })
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Names every tool of `tools` for the target, in order: each tool's final name, or why
    /// the target cannot take it (an empty name, a name that collides once rewritten, an
    /// input schema that is not an object). These are the names [`export`] gives, whatever
    /// order the tools are then lowered in.
    ///
    /// A name depends on the tools before: a rewritten name must not take the name of an
    /// earlier tool, unless that tool is left out when lowered (its schema is beyond the
    /// target), for then it is not sent and holds no name. So when a tool asks for a name an
    /// earlier tool holds, that tool is lowered here to learn whether it keeps it; a catalog
    /// without such collisions is named without lowering anything. A tool named here may
    /// still be left out by [`Exporter::lower`].
    pub fn name_all<'t>(
        &self,
        tools: impl IntoIterator<Item = &'t Tool>,
    ) -> Vec<Result<Named, Unrepresentable>> {
        let tools = tools.into_iter();
        let mut holders: HashMap<Cow<'t, str>, Holder<'t>> = HashMap::default();
        holders.reserve(tools.size_hint().0);
        tools
            .enumerate()
            .map(|(index, tool)| {
                let mut log = LossLog::new(&tool.name, index);
                let name = rewrite(tool, self.rule, &mut log)?;
                if let Some(holder) = holders.get_mut(name.as_str()) {
                    let lowers = *holder
                        .lowers
                        .get_or_insert_with(|| self.lowers(holder.tool, holder.index));
                    if lowers {
                        return Err(collision(tool, &name, holder.tool, self.rule, &log));
                    }
                }
                require_object_root(tool, self.target.vendor(), &log)?;
                let key = if name == tool.name {
                    Cow::Borrowed(tool.name.as_str())
                } else {
                    Cow::Owned(name.clone())
                };
                // Takes the name from a tool before that is left out when lowered.
                holders.insert(
                    key,
                    Holder {
                        tool,
                        index,
                        lowers: None,
                    },
                );
                Ok(Named {
                    index,
                    name,
                    renamed: log.into_losses().pop(),
                })
            })
            .collect()
    }

    /// Whether `tool`, at `index` in the list named, lowers for the target.
    fn lowers(&self, tool: &Tool, index: usize) -> bool {
        let mut log = LossLog::new(&tool.name, index);
        provider(self.target)
            .lower(tool, self.options, &mut log)
            .is_ok()
    }

    /// Lowers `tool`, named by [`Exporter::name_all`] as `named`, for the target.
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

    /// The export of the lowered `items`, in the order they were named, with the loss
    /// `report` of all the tools: each item's JSON is built here, inside the target's
    /// envelope.
    pub fn finish(self, items: Vec<LoweredTool<'_>>, report: LossReport) -> Export {
        let mut names = NameMap::default();
        names.reserve(items.len());
        for item in &items {
            names.insert(item.name.clone(), item.tool.name.clone());
        }
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
            names,
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

/// The name `tool` is sent under: its own, or the rewrite the naming `rule` requires
/// (logged as a loss); an error when there is nothing to rewrite.
fn rewrite(tool: &Tool, rule: NameRule, log: &mut LossLog<'_>) -> Result<String, Unrepresentable> {
    match rule.check(&tool.name) {
        Ok(()) => Ok(tool.name.clone()),
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
            Ok(rewritten)
        }
    }
}

/// Why `tool` cannot be sent as `name`, which the tool `other` before it holds.
fn collision(
    tool: &Tool,
    name: &str,
    other: &Tool,
    rule: NameRule,
    log: &LossLog<'_>,
) -> Unrepresentable {
    let reason = if other.name == tool.name {
        format!("another tool is already named {name:?}")
    } else {
        format!(
            "its {} name {name:?} collides with the tool {:?}",
            rule.label, other.name
        )
    };
    log.unrepresentable("/name", reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// The export of `tools` as defined tool by tool: each tool is named (refused when a
    /// tool before it that is sent holds the name), then lowered, and a tool left out when
    /// lowered frees its name for the tools after it.
    fn one_by_one(tools: &[Tool], target: Target, options: ExportOptions) -> Export {
        let exporter = Exporter::new(target, options).unwrap();
        let rule = target.name_rule();
        let mut taken: HashMap<String, &Tool> = HashMap::default();
        let mut report = LossReport::default();
        let mut items = Vec::new();
        for (index, tool) in tools.iter().enumerate() {
            let mut log = LossLog::new(&tool.name, index);
            let named = rewrite(tool, rule, &mut log).and_then(|name| {
                if let Some(other) = taken.get(&name) {
                    return Err(collision(tool, &name, other, rule, &log));
                }
                require_object_root(tool, target.vendor(), &log)?;
                Ok(Named {
                    index,
                    name,
                    renamed: log.into_losses().pop(),
                })
            });
            let named = match named {
                Ok(named) => named,
                Err(left_out) => {
                    report.left_out.push(left_out);
                    continue;
                }
            };
            taken.insert(named.name.clone(), tool);
            match exporter.lower(tool, &named) {
                Ok(mut lowered) => {
                    report.losses.append(&mut lowered.losses);
                    items.push(lowered);
                }
                Err(left_out) => {
                    taken.remove(&named.name);
                    report.left_out.push(left_out);
                }
            }
        }
        exporter.finish(items, report)
    }

    fn variants() -> impl Iterator<Item = (Target, ExportOptions)> {
        Target::ALL.into_iter().flat_map(|target| {
            let strict = if target.has_strict_mode() {
                &[false, true][..]
            } else {
                &[false][..]
            };
            strict
                .iter()
                .map(move |&strict| (target, ExportOptions { strict }))
        })
    }

    /// Names that collide once rewritten (by every target but MCP, or by all), an empty
    /// name, and one left alone.
    const NAMES: [&str; 7] = ["a.b", "a_b", "a-b", "a b", "a_b", "", "plain"];

    /// Input schemas every target takes, none takes (not an object), strict mode cannot
    /// take (`false` as a property), Gemini cannot take (a reference to nothing, which it
    /// has to inline), and deeper than any target lowers.
    fn schema(kind: usize) -> Value {
        match kind {
            0 => json!({"type": "object", "properties": {"q": {"type": "string"}}}),
            1 => json!({"type": "array"}),
            2 => json!({"type": "object", "properties": {"a": false}}),
            3 => json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/none"}}}),
            _ => {
                let mut deep = json!({"type": "string"});
                for _ in 0..=crate::schema::MAX_DEPTH {
                    deep = json!({"type": "object", "properties": {"x": deep}});
                }
                deep
            }
        }
    }

    fn tools_of(picks: &[(usize, usize)]) -> Vec<Tool> {
        picks
            .iter()
            .map(|&(name, kind)| Tool::new(NAMES[name], "Does it.", schema(kind)))
            .collect()
    }

    #[test]
    fn a_tool_left_out_when_lowered_leaves_its_name_to_the_next_one_that_asks() {
        // `a.b` holds `a_b` until it is found unfit for strict mode; `a b` takes it, and the
        // tools named `a_b` collide with that one.
        let tools = tools_of(&[(0, 2), (3, 0), (1, 0), (4, 0), (2, 0)]);
        let options = ExportOptions { strict: true };
        let strict = export(&tools, Target::OpenAiChat, options).unwrap();
        assert_eq!(strict, one_by_one(&tools, Target::OpenAiChat, options));
        assert_eq!(strict.names.original("a_b"), Some("a b"));
        assert_eq!(strict.names.original("a-b"), Some("a-b"));
        let left_out: Vec<(&str, &str)> = strict
            .report
            .left_out
            .iter()
            .map(|u| (u.tool.as_str(), u.reason.as_str()))
            .collect();
        assert_eq!(left_out.len(), 3, "{left_out:#?}");
        assert!(left_out[0].1.contains("strict"), "{left_out:#?}");
        assert!(
            left_out[1..]
                .iter()
                .all(|(_, reason)| reason.contains("collides with the tool \"a b\"")),
            "{left_out:#?}"
        );
        // Without strict mode, `a.b` is sent, and keeps its name.
        let lax = export(&tools, Target::OpenAiChat, ExportOptions::default()).unwrap();
        assert_eq!(lax.names.original("a_b"), Some("a.b"));
    }

    #[test]
    fn names_given_before_lowering_are_those_of_the_export_tool_by_tool() {
        let tools = tools_of(&[(0, 3), (2, 4), (1, 2), (0, 0), (4, 1), (3, 0), (1, 0)]);
        for (target, options) in variants() {
            let exporter = Exporter::new(target, options).unwrap();
            let expected = one_by_one(&tools, target, options);
            let names = exporter.name_all(&tools);
            // Every tool sent has the name the export gives it; every tool refused a name
            // is left out for that reason.
            for (tool, named) in tools.iter().zip(&names) {
                match named {
                    Ok(named) => {
                        if let Ok(lowered) = exporter.lower(tool, named) {
                            assert_eq!(
                                expected.names.original(&lowered.name),
                                Some(tool.name.as_str()),
                                "{target} {options:?}"
                            );
                        }
                    }
                    Err(refused) => assert!(
                        expected.report.left_out.contains(refused),
                        "{target} {options:?}: {refused:?}"
                    ),
                }
            }
            assert_eq!(export(&tools, target, options).unwrap(), expected);
        }
    }

    #[test]
    fn the_input_schema_sits_where_the_providers_facts_say() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/catalogs/gift-shop.json"
        );
        let mut list: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let mut catalog: Vec<Tool> = serde_json::from_value(list["tools"].take()).unwrap();
        catalog.push(Tool::new(
            "bare",
            "Takes nothing.",
            json!({"type": "object"}),
        ));
        let tools: Vec<&Tool> = catalog.iter().collect();
        for target in Target::ALL {
            for strict in [false, true]
                .into_iter()
                .filter(|s| !s || target.has_strict_mode())
            {
                let exporter = Exporter::new(target, ExportOptions { strict }).unwrap();
                let names = exporter.name_all(tools.iter().copied());
                for (tool, named) in tools.iter().zip(&names) {
                    let lowered = exporter.lower(tool, named.as_ref().unwrap()).unwrap();
                    let whole = serde_json::to_string(&lowered.item()).unwrap();
                    let mut text = Vec::new();
                    let at = lowered.write_item_around_input_schema(&mut text);
                    if let Some(at) = at {
                        let schema = lowered.input_schema.as_deref().unwrap();
                        text.splice(at..at, serde_json::to_vec(schema).unwrap());
                    }
                    assert_eq!(String::from_utf8(text).unwrap(), whole, "{target} {strict}");
                    assert_eq!(at.is_some(), lowered.input_schema.is_some(), "{target}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Whatever the names and schemas, and whatever tools fail to lower, the names given
        /// before lowering make the export of the tool-by-tool definition, byte for byte.
        #[test]
        fn exports_are_those_of_naming_tool_by_tool(
            picks in proptest::collection::vec((0..NAMES.len(), 0..5usize), 0..12),
        ) {
            let tools = tools_of(&picks);
            for (target, options) in variants() {
                let expected = one_by_one(&tools, target, options);
                let planned = export(&tools, target, options).unwrap();
                prop_assert_eq!(
                    serde_json::to_string(&planned.payload).unwrap(),
                    serde_json::to_string(&expected.payload).unwrap()
                );
                prop_assert_eq!(planned, expected);
            }
        }
    }
}
