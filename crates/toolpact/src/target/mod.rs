//! Targets: one module per provider, each lowering the neutral [`Tool`] into the provider's
//! payload and reading the provider's format back.
//!
//! [`export`] drives a target over a list of tools: it makes each name acceptable to the
//! target (and remembers the rewrite in a [`NameMap`]), lowers the tool, and collects every
//! loss in a [`LossReport`]. A tool the target cannot represent is left out and reported;
//! the others are still exported.

pub mod anthropic;
pub mod gemini;
pub mod mcp;
pub mod openai;

use crate::loss::{Loss, LossKind, LossLog, LossReport, Unrepresentable};
use crate::name::NameRule;
use crate::tool::Tool;
use foldhash::HashMap;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// A provider format toolpact writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// MCP `tools/list` result: `{"tools": [...]}`.
    Mcp,
    /// OpenAI Responses API `tools` array: `{"type": "function", "name", ...}`.
    #[serde(rename = "openai-responses")]
    OpenAiResponses,
    /// OpenAI Chat Completions `tools` array: `{"type": "function", "function": {...}}`.
    #[serde(rename = "openai-chat")]
    OpenAiChat,
    /// Anthropic Messages API `tools` array: `{"name", "description", "input_schema"}`.
    Anthropic,
    /// Gemini `tools` with `functionDeclarations` and OpenAPI-subset `parameters`.
    Gemini,
    /// Gemini `tools` with `functionDeclarations` and JSON Schema `parametersJsonSchema`.
    GeminiJson,
}

impl Target {
    /// Every target, in the order the documentation lists them.
    pub const ALL: [Target; 6] = [
        Target::Mcp,
        Target::OpenAiResponses,
        Target::OpenAiChat,
        Target::Anthropic,
        Target::Gemini,
        Target::GeminiJson,
    ];

    /// The target's command-line name, such as `openai-chat`.
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Mcp => "mcp",
            Target::OpenAiResponses => "openai-responses",
            Target::OpenAiChat => "openai-chat",
            Target::Anthropic => "anthropic",
            Target::Gemini => "gemini",
            Target::GeminiJson => "gemini-json",
        }
    }

    /// Whether the target has a strict mode (`--strict`).
    pub fn has_strict_mode(self) -> bool {
        matches!(
            self,
            Target::OpenAiResponses | Target::OpenAiChat | Target::Anthropic
        )
    }

    /// The provider's name, as messages about its limits say it (`Gemini` for both Gemini
    /// targets).
    fn vendor(self) -> &'static str {
        match self {
            Target::Mcp => "MCP",
            Target::OpenAiResponses | Target::OpenAiChat => "OpenAI",
            Target::Anthropic => "Anthropic",
            Target::Gemini | Target::GeminiJson => "Gemini",
        }
    }

    /// The naming rule tool names must meet for this target.
    pub fn name_rule(self) -> NameRule {
        match self {
            Target::Mcp => crate::name::MCP,
            Target::OpenAiResponses | Target::OpenAiChat => crate::name::OPENAI,
            Target::Anthropic => crate::name::ANTHROPIC,
            Target::Gemini | Target::GeminiJson => crate::name::GEMINI,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A target name that toolpact does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown target {0:?}; expected one of: mcp, openai-responses, openai-chat, anthropic, gemini, gemini-json"
)]
pub struct UnknownTarget(pub String);

impl FromStr for Target {
    type Err = UnknownTarget;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Target::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| UnknownTarget(s.to_owned()))
    }
}

/// How to export.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// Lower to the provider's strict subset and mark each tool strict (OpenAI, Anthropic).
    pub strict: bool,
}

/// Why an export could not run at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// `strict` was asked of a target that has no strict mode.
    #[error(
        "{0} has no strict mode; --strict applies to openai-responses, openai-chat and anthropic"
    )]
    NoStrictMode(Target),
}

/// The names a target saw, mapped to the tools' original names.
///
/// A call that comes back from the provider carries the exported name; [`NameMap::original`]
/// gives the name of the tool to dispatch to.
///
/// Hash maps both ways, because a provider call is looked up on every dispatch, a catalog of
/// 100,000 tools is looked up once per tool, and a request names tools by their original
/// names; foldhash, as the registry uses, for the same reason (short keys, seeded per
/// process). Everything that lists the names sorts them, so output stays deterministic.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameMap {
    exported_to_original: HashMap<String, String>,
    original_to_exported: HashMap<String, String>,
}

impl Serialize for NameMap {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let sorted: BTreeMap<&str, &str> = self
            .exported_to_original
            .iter()
            .map(|(e, o)| (e.as_str(), o.as_str()))
            .collect();
        serializer.collect_map(sorted)
    }
}

impl NameMap {
    /// The original name of the tool exported as `exported`.
    pub fn original<'a>(&'a self, exported: &'a str) -> Option<&'a str> {
        self.exported_to_original.get(exported).map(String::as_str)
    }

    /// The name under which the tool `original` was exported.
    pub fn exported(&self, original: &str) -> Option<&str> {
        self.original_to_exported.get(original).map(String::as_str)
    }

    /// Records that the tool `original` was exported as `exported`. Exported names are unique
    /// (export refuses a collision), and so are originals.
    fn insert(&mut self, exported: String, original: String) {
        self.original_to_exported
            .insert(original.clone(), exported.clone());
        self.exported_to_original.insert(exported, original);
    }

    /// Makes room for `more` names.
    fn reserve(&mut self, more: usize) {
        self.original_to_exported.reserve(more);
        self.exported_to_original.reserve(more);
    }

    /// Forgets that `original` was exported as `exported`.
    fn remove(&mut self, exported: &str, original: &str) {
        self.exported_to_original.remove(exported);
        self.original_to_exported.remove(original);
    }

    /// Pairs `(exported, original)` where the two differ, sorted by exported name.
    pub fn renamed(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut pairs: Vec<(&str, &str)> = self
            .exported_to_original
            .iter()
            .filter(|(e, o)| e != o)
            .map(|(e, o)| (e.as_str(), o.as_str()))
            .collect();
        pairs.sort_unstable();
        pairs.into_iter()
    }

    /// How many tools were exported.
    pub fn len(&self) -> usize {
        self.exported_to_original.len()
    }

    /// Whether no tool was exported.
    pub fn is_empty(&self) -> bool {
        self.exported_to_original.is_empty()
    }
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
            Ok(lowered) => {
                report.losses.extend(lowered.losses);
                items.push(lowered.item);
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

/// One tool as the target receives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Lowered {
    /// The tool's definition in the target's payload.
    pub item: Value,
    /// What the target could not express of the tool (a rewritten name included).
    pub losses: Vec<Loss>,
    /// Whether `item` holds `null` where the target sends the tool's input schema exactly as
    /// written: only from [`Exporter::lower_sharing`], for a reader that has the tool.
    pub schema_as_written: bool,
}

/// Whether a lowering may leave out the input schema a target sends as written, and whether
/// it did.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Share {
    allowed: bool,
    used: bool,
}

impl Share {
    /// The input schema as the target sends it, unchanged: a copy, or `null` in its place
    /// when sharing is allowed.
    pub(crate) fn schema_as_written(&mut self, tool: &Tool) -> Value {
        if self.allowed {
            self.used = true;
            Value::Null
        } else {
            tool.input_schema.clone()
        }
    }
}

/// Exports tools one at a time, in two steps.
///
/// [`Exporter::name`] takes the tools in order and gives each a name the target accepts and
/// no earlier tool holds; it leaves out the tools no target can take (no name, or an input
/// schema that is not an object). [`Exporter::lower`] then turns a named tool into the
/// target's payload item, independently of the other tools: a caller may lower on several
/// threads, or look at each item and drop it rather than hold the payload of a whole
/// catalog. [`Exporter::finish`] wraps the items in the target's envelope. [`export`] is
/// these steps, tool by tool.
///
/// A tool whose lowering fails is left out, and should not keep its name from a later tool:
/// [`Exporter::release`] frees it. A caller that names every tool before lowering any must
/// name again after a failure for the names to be those [`export`] gives.
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

    /// Lowers `tool`, named by [`Exporter::name`] as `named`, into the target's payload item.
    pub fn lower(&self, tool: &Tool, named: &Named) -> Result<Lowered, Unrepresentable> {
        self.lower_with(tool, named, false)
    }

    /// Lowers `tool` as [`Exporter::lower`] does, except that where the target sends the
    /// input schema exactly as written and the item would hold a copy of it (OpenAI and
    /// Anthropic without strict mode, Gemini JSON), the item holds `null` in its place and
    /// [`Lowered::schema_as_written`] is set: a reader that has the tool reads the schema
    /// there, and no copy of it is made. Such an item is not a payload: do not pass it to
    /// [`Exporter::finish`] or send it.
    pub fn lower_sharing(&self, tool: &Tool, named: &Named) -> Result<Lowered, Unrepresentable> {
        self.lower_with(tool, named, true)
    }

    fn lower_with(
        &self,
        tool: &Tool,
        named: &Named,
        share: bool,
    ) -> Result<Lowered, Unrepresentable> {
        let mut log = LossLog::starting_with(&tool.name, named.index, named.renamed.clone());
        let name = named.name.as_str();
        let options = self.options;
        let mut share = Share {
            allowed: share,
            used: false,
        };
        let item = match self.target {
            Target::Mcp => mcp::lower(tool, name, &mut log),
            Target::OpenAiResponses => {
                openai::lower_responses(tool, name, options, &mut share, &mut log)
            }
            Target::OpenAiChat => openai::lower_chat(tool, name, options, &mut share, &mut log),
            Target::Anthropic => anthropic::lower(tool, name, options, &mut share, &mut log),
            Target::Gemini => gemini::lower(tool, name, &mut log),
            Target::GeminiJson => gemini::lower_json(tool, name, &mut share, &mut log),
        }?;
        Ok(Lowered {
            item,
            losses: log.into_losses(),
            schema_as_written: share.used,
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
    pub fn release(&mut self, tool: &Tool, named: &Named) {
        if self.names.original(&named.name) == Some(tool.name.as_str()) {
            self.names.remove(&named.name, &tool.name);
        }
    }

    /// The names given so far, mapped to the tools' original names.
    pub fn names(&self) -> &NameMap {
        &self.names
    }

    /// The export of the lowered `items`, in the order they were named, with the loss
    /// `report` of all the tools.
    pub fn finish(self, items: Vec<Value>, report: LossReport) -> Export {
        let payload = match self.target {
            Target::Mcp => mcp::wrap(items),
            Target::OpenAiResponses | Target::OpenAiChat | Target::Anthropic => Value::Array(items),
            Target::Gemini | Target::GeminiJson => gemini::wrap(items),
        };
        Export {
            target: self.target,
            payload,
            report,
            names: self.names,
        }
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

/// Every target requires an object at the root of the input schema.
fn require_object_root(
    tool: &Tool,
    target: &str,
    log: &LossLog<'_>,
) -> Result<(), Unrepresentable> {
    match &tool.input_schema {
        Value::Object(map) => match map.get("type") {
            Some(Value::String(t)) if t == "object" => Ok(()),
            Some(other) => Err(log.unrepresentable(
                "/inputSchema/type",
                format!("{target} needs an input schema of type \"object\", found {other}"),
            )),
            None => Err(log.unrepresentable(
                "/inputSchema",
                format!("{target} needs an input schema with `\"type\": \"object\"` at its root"),
            )),
        },
        other => Err(log.unrepresentable(
            "/inputSchema",
            format!("{target} needs an input schema that is a JSON object, found {other}"),
        )),
    }
}

/// Reports the tool fields a target has no place for.
fn drop_unplaced(tool: &Tool, target: &str, keep_output: bool, log: &mut LossLog<'_>) {
    let mut drop = |pointer: &str, what: &str| {
        log.push(
            pointer,
            LossKind::Dropped,
            format!("{target} has no place for {what}"),
        );
    };
    if tool.title.is_some() {
        drop("/title", "a title");
    }
    if !keep_output && tool.output_schema.is_some() {
        drop("/outputSchema", "an output schema");
    }
    if tool.annotations.is_some() {
        drop("/annotations", "annotations");
    }
    if tool.icons.is_some() {
        drop("/icons", "icons");
    }
    if tool.meta.is_some() {
        drop("/_meta", "`_meta`");
    }
    for key in tool.extra.keys() {
        let pointer = crate::schema::child_pointer("", key);
        log.push(
            &pointer,
            LossKind::Dropped,
            format!("{target} has no place for the field `{key}`"),
        );
    }
}

/// A JSON object builder that skips absent values, for provider payloads.
fn object(fields: impl IntoIterator<Item = (&'static str, Option<Value>)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
            .collect(),
    )
}

/// A tool read from a provider's format, with notes on provider fields that were not kept
/// (pointer relative to the item, message).
pub(crate) type ImportedTool = Result<(Tool, Vec<(String, String)>), ItemError>;

/// Why one item of a provider's tool list could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ItemError {
    /// JSON pointer relative to the item.
    pub pointer: String,
    pub message: String,
}

fn string_field(item: &serde_json::Map<String, Value>, key: &str) -> Result<String, ItemError> {
    match item.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(ItemError {
            pointer: crate::schema::child_pointer("", key),
            message: format!(
                "`{key}` must be a string, found {}",
                crate::lower::json_type(other)
            ),
        }),
        None => Err(ItemError {
            pointer: String::new(),
            message: format!("the tool has no `{key}`"),
        }),
    }
}

fn optional_string(
    item: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<String>, ItemError> {
    match item.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(_) => string_field(item, key).map(Some),
    }
}
