//! TP304: tool names a target receives rewritten, and names older Claude clients refuse.

use super::lowered::ByTarget;
use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksBlocks, ReadsExports, Rule, declare_rule};
use toolpact::Target;
use toolpact::name::ANTHROPIC_LEGACY;

declare_rule! {
    /// ## What it does
    /// Reports each tool whose name a configured target receives rewritten, as the export's
    /// name map records it: `admin.tools.list` becomes `admin_tools_list` for OpenAI and
    /// Anthropic (no dots), a name over 64 characters is cut for OpenAI, a name starting with
    /// a digit gets a `_` in front for Gemini.
    ///
    /// Also reports, for the `anthropic` and `mcp` targets, a name of 65 to 128 characters:
    /// the Messages API takes it today, but older Claude clients and Claude Desktop's MCP path
    /// accept at most 64 (`^[a-zA-Z0-9_-]{1,64}$`).
    ///
    /// ## Why is this bad?
    /// The model calls the tool by the name it was shown, so the call comes back under the
    /// rewritten name. toolpact's dispatcher maps it back through the export's name map, but
    /// any other code on the way (logs, allow-lists, `tool_choice` with a named tool, a
    /// client that executes the call itself) sees a name no tool has. A name too long for an
    /// older Claude client gets the tool refused with a 400, or dropped from the list.
    ///
    /// ## Example
    /// ```json
    /// {"name": "admin.tools.list"}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "admin_tools_list"}
    /// ```
    /// A name of at most 64 characters of `[a-zA-Z0-9_-]`, starting with a letter or `_`, is
    /// taken unchanged by every target.
    ///
    /// ## References
    /// - `docs/providers.md#openai-function-names` (OpenAI: `^[a-zA-Z0-9_-]+$`, 64 characters
    ///   in Chat)
    /// - `docs/providers.md#anthropic-tool-names` (Anthropic: 128 characters now, 64 in older
    ///   docs and clients)
    /// - `docs/providers.md#claude-code` (Claude Code's `mcp__<server>__<tool>` names over 64
    ///   characters, anthropics/claude-code#2412)
    /// - `docs/providers.md#gemini-function-names` (Gemini: a letter or `_` first)
    /// - `docs/providers.md#tool-names-at-a-glance` (every target side by side)
    pub struct NameRewrittenForTarget {
        code: "TP304",
        name: "name-rewritten-for-target",
        category: Provider,
        severity: Warning,
        options: [],
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Finding {
    /// The target saw `to` instead of the tool's name, because of `problem`.
    Renamed { to: String, problem: String },
    /// The name the target saw is longer than older Claude clients accept.
    TooLongForOlderClaude { name: String, len: usize },
}

impl Rule for NameRewrittenForTarget {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

impl ChecksBlocks for NameRewrittenForTarget {
    fn check_block(&self, cx: &Context<'_>, block: &Block<'_>, out: &mut Vec<Violation>) {
        let mut found = ByTarget::new();
        for export in &block.exports {
            let rule = export.target.name_rule();
            for tool in export.sent() {
                if tool.name != tool.tool.name {
                    let problem = rule
                        .check(&tool.tool.name)
                        .err()
                        .map(|p| p.to_string())
                        .unwrap_or_default();
                    found.add(
                        (
                            tool.index,
                            Finding::Renamed {
                                to: tool.name.to_owned(),
                                problem,
                            },
                        ),
                        export.target,
                    );
                }
                if matches!(export.target, Target::Anthropic | Target::Mcp) {
                    let len = tool.name.chars().count();
                    if len > ANTHROPIC_LEGACY.max_len {
                        found.add(
                            (
                                tool.index,
                                Finding::TooLongForOlderClaude {
                                    name: tool.name.to_owned(),
                                    len,
                                },
                            ),
                            export.target,
                        );
                    }
                }
            }
        }
        for ((index, finding), targets) in found.into_entries() {
            let original = cx
                .catalog
                .entries
                .get(index)
                .map_or("", |e| e.tool.name.as_str());
            let (message, help) = match finding {
                Finding::Renamed { to, problem } => (
                    format!(
                        "{original:?} reaches {targets} as {to:?} ({problem}); the model's calls come back under {to:?}"
                    ),
                    match portable_name(cx, original) {
                        Some(name) => format!(
                            "rename the tool to a name every configured target takes unchanged, such as {name:?}: at most 64 characters of [a-zA-Z0-9_-], starting with a letter or `_`"
                        ),
                        None => "rename the tool to at most 64 characters of [a-zA-Z0-9_-], starting with a letter or `_`".to_owned(),
                    },
                ),
                Finding::TooLongForOlderClaude { name, len } => (
                    format!(
                        "{targets}: the name {name:?} has {len} characters; the Anthropic API takes up to 128, but {} (Claude Desktop's MCP path, earlier Claude Code) accept at most {} and refuse the tool",
                        ANTHROPIC_LEGACY.label, ANTHROPIC_LEGACY.max_len
                    ),
                    match ANTHROPIC_LEGACY.rewrite(&name) {
                        Some(short) => format!(
                            "shorten the name to at most 64 characters, for example {short:?}; remember that Claude Code prefixes `mcp__<server>__`"
                        ),
                        None => "shorten the name to at most 64 characters".to_owned(),
                    },
                ),
            };
            out.push(Violation {
                tool: Some(index),
                pointer: "/name".to_owned(),
                message,
                help: help.into(),
            });
        }
    }
}

/// A name derived from `name` that every configured target (and older Claude clients, when
/// Anthropic or MCP is configured) accepts as it is, or `None` if rewriting does not settle.
fn portable_name(cx: &Context<'_>, name: &str) -> Option<String> {
    let mut rules: Vec<_> = cx.settings.targets.iter().map(|t| t.name_rule()).collect();
    if cx
        .settings
        .targets
        .iter()
        .any(|t| matches!(t, Target::Anthropic | Target::Mcp))
    {
        rules.push(ANTHROPIC_LEGACY);
    }
    let mut candidate = name.to_owned();
    // Each rewrite only removes what one rule rejects; a few rounds settle every
    // combination of the rules toolpact knows (a `_` put in front for Gemini may push an
    // OpenAI name over 64 characters, which the next round cuts).
    for _ in 0..4 {
        if rules.iter().all(|r| r.accepts(&candidate)) {
            return Some(candidate);
        }
        for rule in &rules {
            candidate = rule.rewrite(&candidate)?;
        }
    }
    rules
        .iter()
        .all(|r| r.accepts(&candidate))
        .then_some(candidate)
}
