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

use crate::loss::{LossKind, LossLog, LossReport, Unrepresentable};
use crate::name::NameRule;
use crate::tool::Tool;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
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
/// names; everything that lists the names sorts them, so output stays deterministic.
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
/// left out and listed in [`LossReport::left_out`].
pub fn export<'t>(
    tools: impl IntoIterator<Item = &'t Tool>,
    target: Target,
    options: ExportOptions,
) -> Result<Export, ExportError> {
    if options.strict && !target.has_strict_mode() {
        return Err(ExportError::NoStrictMode(target));
    }
    let rule = target.name_rule();
    let mut report = LossReport::default();
    let mut names = NameMap::default();
    let mut lowered = Vec::new();
    for (index, tool) in tools.into_iter().enumerate() {
        let mut log = LossLog::new(&tool.name, index);
        let result = export_name(tool, rule, &names, &mut log).and_then(|name| {
            let value = match target {
                Target::Mcp => mcp::lower(tool, &name, &mut log),
                Target::OpenAiResponses => openai::lower_responses(tool, &name, options, &mut log),
                Target::OpenAiChat => openai::lower_chat(tool, &name, options, &mut log),
                Target::Anthropic => anthropic::lower(tool, &name, options, &mut log),
                Target::Gemini => gemini::lower(tool, &name, &mut log),
                Target::GeminiJson => gemini::lower_json(tool, &name, &mut log),
            }?;
            Ok((name, value))
        });
        match result {
            Ok((name, value)) => {
                names.insert(name, tool.name.clone());
                report.losses.extend(log.into_losses());
                lowered.push(value);
            }
            Err(unrepresentable) => report.left_out.push(unrepresentable),
        }
    }
    let payload = match target {
        Target::Mcp => mcp::wrap(lowered),
        Target::OpenAiResponses | Target::OpenAiChat | Target::Anthropic => Value::Array(lowered),
        Target::Gemini | Target::GeminiJson => gemini::wrap(lowered),
    };
    Ok(Export {
        target,
        payload,
        report,
        names,
    })
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
