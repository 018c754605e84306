//! Providers: one folder per provider, each lowering the neutral [`Tool`] into the
//! provider's payload and reading the provider's formats back (tools, calls, results,
//! requests, responses), and the [`Target`] enum that names them.
//!
//! A provider is its `Facts` (names, naming rule, [`Limits`]: data, chosen by
//! `Target::facts` below) and its `Provider` descriptor (behaviour, chosen by
//! `table::provider`). The two choices sit in two modules because the enum is below the
//! providers (their calls and replies name a target) and the table above them (it names each
//! provider's type); the drivers ask the table and never name a provider.

pub(crate) mod anthropic;
pub(crate) mod descriptor;
mod facts;
#[cfg(test)]
mod fake;
pub(crate) mod gemini;
pub(crate) mod mcp;
pub(crate) mod openai;
pub(crate) mod table;

pub use facts::{DescriptionCap, Limits, StrictLimits};

use crate::json::{child_pointer, json_type};
use crate::loss::{LossKind, LossLog, Unrepresentable};
use crate::name::NameRule;
use crate::tool::Tool;
use facts::Facts;
use serde::Serialize;
use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// A provider format toolpact writes, and reads: each names one provider's descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
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
    /// The provider of the library's own tests (`provider/fake/`).
    #[cfg(test)]
    Fake,
}

impl Target {
    /// Every target, in the order the documentation lists them.
    #[cfg(not(test))]
    pub const ALL: [Target; 6] = [
        Target::Mcp,
        Target::OpenAiResponses,
        Target::OpenAiChat,
        Target::Anthropic,
        Target::Gemini,
        Target::GeminiJson,
    ];

    /// Every target, the test provider last.
    #[cfg(test)]
    pub const ALL: [Target; 7] = [
        Target::Mcp,
        Target::OpenAiResponses,
        Target::OpenAiChat,
        Target::Anthropic,
        Target::Gemini,
        Target::GeminiJson,
        Target::Fake,
    ];

    /// The target's provider, as data: the one place a target chooses its [`Facts`].
    pub(crate) const fn facts(self) -> &'static Facts {
        match self {
            Target::Mcp => &mcp::facts::FACTS,
            Target::OpenAiResponses => &openai::facts::RESPONSES,
            Target::OpenAiChat => &openai::facts::CHAT,
            Target::Anthropic => &anthropic::facts::FACTS,
            Target::Gemini => &gemini::facts::PARAMETERS,
            Target::GeminiJson => &gemini::facts::JSON,
            #[cfg(test)]
            Target::Fake => &fake::facts::FACTS,
        }
    }

    /// The target's command-line name, such as `openai-chat`.
    pub const fn as_str(self) -> &'static str {
        self.facts().name
    }

    /// The target whose shapes of tools, calls and results this target's input is read in:
    /// the target itself, except Gemini JSON, whose declarations, calls and results are
    /// Gemini's.
    pub const fn input_format(self) -> Target {
        match self {
            Target::GeminiJson => Target::Gemini,
            other => other,
        }
    }

    /// The targets tools, calls and results are read in: every [`Target::input_format`].
    pub fn input_formats() -> impl Iterator<Item = Target> {
        Target::ALL.into_iter().filter(|t| t.input_format() == *t)
    }

    /// Whether the target is a model API that requests are built for and responses read
    /// from (every target but MCP).
    pub fn is_model_api(self) -> bool {
        self != Target::Mcp
    }

    /// Whether the target has a strict mode (`--strict`).
    pub const fn has_strict_mode(self) -> bool {
        self.facts().limits.strict.is_some()
    }

    /// The limits the provider puts on a request's tools: description length, tool count,
    /// strict-mode complexity.
    pub const fn limits(self) -> Limits {
        self.facts().limits
    }

    /// The provider's name, as messages about its limits say it (`Gemini` for both Gemini
    /// targets).
    pub(crate) fn vendor(self) -> &'static str {
        self.facts().vendor
    }

    /// The naming rule tool names must meet for this target.
    pub fn name_rule(self) -> NameRule {
        self.facts().name_rule
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

#[cfg(feature = "clap")]
impl clap::ValueEnum for Target {
    fn value_variants<'a>() -> &'a [Self] {
        &Target::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

/// How to export.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// Lower to the provider's strict subset and mark each tool strict (OpenAI, Anthropic).
    pub strict: bool,
}

/// How [`render`](crate::render) writes a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions<'a> {
    /// The MCP protocol version the result is for, the one a server negotiated with its
    /// client: a `CallToolResult` carries `resultType` from 2026-07-28 on. The other targets
    /// have one shape. [`LATEST_MCP_VERSION`](crate::LATEST_MCP_VERSION) unless set.
    pub mcp_version: &'a str,
}

impl Default for RenderOptions<'_> {
    fn default() -> Self {
        RenderOptions {
            mcp_version: mcp::LATEST_MCP_VERSION,
        }
    }
}

/// Every target requires an object at the root of the input schema.
pub(crate) fn require_object_root(
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

/// Rewrites the keywords a target refuses at the root of an input schema beside
/// `type: "object"` (`oneOf`, `anyOf`, `allOf`, and for OpenAI `enum` and `not`;
/// `docs/providers.md#every-target`): the object schemas of a root `allOf` are merged into the
/// root (properties and `required` united), and whatever cannot be merged, like the other
/// keywords, is stated in the root's description. The call is still validated against the
/// whole schema when it comes back, so the rules they state still hold.
pub(crate) fn move_root_keywords<'t>(
    schema: &'t Value,
    refused: &[&str],
    target: &str,
    log: &mut LossLog<'_>,
) -> std::borrow::Cow<'t, Value> {
    let Value::Object(original) = schema else {
        return std::borrow::Cow::Borrowed(schema);
    };
    if !refused.iter().any(|k| original.contains_key(*k)) {
        return std::borrow::Cow::Borrowed(schema);
    }
    let mut root = original.clone();
    let mut phrases = Vec::new();
    for key in refused {
        let Some(value) = root.remove(*key) else {
            continue;
        };
        let at = child_pointer("/inputSchema", key);
        let value = match (*key, value) {
            ("allOf", Value::Array(branches)) => {
                let rest = merge_into_root(&mut root, branches, schema);
                log.push(
                    &at,
                    LossKind::Rewritten,
                    format!(
                        "{target} rejects `allOf` at the top level of an input schema; the properties and `required` of its object schemas are merged into the root"
                    ),
                );
                if rest.is_empty() {
                    continue;
                }
                Value::Array(rest)
            }
            (_, value) => value,
        };
        let what = match *key {
            "oneOf" => "exactly one of these holds",
            "anyOf" => "at least one of these holds",
            "allOf" => "all of these hold",
            "not" => "this must not hold",
            _ => "the arguments are one of",
        };
        phrases.push(format!("{what}: {value}"));
        log.push(
            &at,
            LossKind::MovedToDescription,
            format!(
                "{target} rejects `{key}` at the top level of an input schema; it is stated in the schema's description"
            ),
        );
    }
    crate::schema::append_to_description(&mut root, &phrases);
    std::borrow::Cow::Owned(Value::Object(root))
}

/// Merges the `properties` and `required` of a root `allOf`'s object schemas (a local `$ref`
/// followed once) into the root; a property the root already declares keeps its declaration.
/// Returns what is left of each branch that holds more than that, for the description.
fn merge_into_root(
    root: &mut serde_json::Map<String, Value>,
    branches: Vec<Value>,
    schema: &Value,
) -> Vec<Value> {
    let mut rest = Vec::new();
    for branch in branches {
        let resolved = match branch.get("$ref").and_then(Value::as_str) {
            Some(reference) if branch.as_object().is_some_and(|b| b.len() == 1) => {
                crate::schema::resolve_local_ref(schema, reference).cloned()
            }
            _ => Some(branch.clone()),
        };
        let Some(Value::Object(mut branch_map)) = resolved else {
            rest.push(branch);
            continue;
        };
        if branch_map.get("type").is_some_and(|t| t != "object") {
            rest.push(branch);
            continue;
        }
        branch_map.remove("type");
        if let Some(Value::Object(props)) = branch_map.remove("properties") {
            let entry = root
                .entry("properties")
                .or_insert_with(|| Value::Object(serde_json::Map::new()));
            if let Value::Object(existing) = entry {
                for (name, sub) in props {
                    existing.entry(name).or_insert(sub);
                }
            }
        }
        if let Some(Value::Array(names)) = branch_map.remove("required") {
            let entry = root
                .entry("required")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(existing) = entry {
                for name in names {
                    if !existing.contains(&name) {
                        existing.push(name);
                    }
                }
            }
        }
        // A title or description of one branch says nothing the merged root needs.
        branch_map.remove("title");
        branch_map.remove("description");
        if !branch_map.is_empty() {
            rest.push(Value::Object(branch_map));
        }
    }
    rest
}

/// Reports the tool fields a target has no place for.
pub(crate) fn drop_unplaced(tool: &Tool, target: &str, keep_output: bool, log: &mut LossLog<'_>) {
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
        let pointer = child_pointer("", key);
        log.push(
            &pointer,
            LossKind::Dropped,
            format!("{target} has no place for the field `{key}`"),
        );
    }
}

/// A JSON object builder that skips absent values, for provider payloads.
pub(crate) fn object(fields: impl IntoIterator<Item = (&'static str, Option<Value>)>) -> Value {
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

pub(crate) fn string_field(
    item: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<String, ItemError> {
    match item.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(ItemError {
            pointer: child_pointer("", key),
            message: format!("`{key}` must be a string, found {}", json_type(other)),
        }),
        None => Err(ItemError {
            pointer: String::new(),
            message: format!("the tool has no `{key}`"),
        }),
    }
}

pub(crate) fn optional_string(
    item: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<String>, ItemError> {
    match item.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(_) => string_field(item, key).map(Some),
    }
}
