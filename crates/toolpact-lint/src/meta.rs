//! What a rule is apart from its check: its code, name, category, default severity,
//! documentation and options; and the severities and categories findings carry.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Severity {
    /// Worth knowing; rarely a problem on its own.
    Info,
    /// Likely to make models misuse the tool, or a client degrade it.
    Warning,
    /// A client or provider will reject the tool, or it is unsafe.
    Error,
}

impl Severity {
    /// The word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a rule is about. Codes are grouped by category: `TP0xx` structure and spec, `TP1xx`
/// descriptions, `TP2xx` schema design, `TP3xx` provider compatibility, `TP4xx` size and
/// cost, `TP5xx` security.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Category {
    /// The definition breaks the MCP specification or JSON Schema.
    Structure,
    /// The text the model reads does not tell it enough.
    Description,
    /// The schema invites wrong or invented arguments.
    Design,
    /// A provider or client rejects or degrades the tool.
    Provider,
    /// The definition costs too many bytes or tokens.
    Size,
    /// The definition looks like an attack on the model or the user.
    Security,
}

impl Category {
    /// The word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Structure => "structure",
            Category::Description => "description",
            Category::Design => "design",
            Category::Provider => "provider",
            Category::Size => "size",
            Category::Security => "security",
        }
    }
}

/// A numeric option of a rule, set in `toolpact.toml` under `[rules.<name>]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleOption {
    /// The option's name.
    pub name: &'static str,
    /// Its value when not set.
    pub default: u64,
    /// What it changes.
    pub doc: &'static str,
}

/// Everything about a rule except its check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMeta {
    /// `TP` and three digits; never reused.
    pub code: &'static str,
    /// Kebab-case name, usable wherever a code is.
    pub name: &'static str,
    /// What the rule is about.
    pub category: Category,
    /// Severity unless the configuration changes it.
    pub severity: Severity,
    /// Whether the rule runs when no selection names it. A rule whose findings would stand
    /// on most real tools (and that the quality score already counts) runs only when a
    /// selection names it: by code, name, code prefix or category.
    pub enabled_by_default: bool,
    /// The rule's documentation (What it does / Why is this bad? / Example / Use instead /
    /// References), taken from its doc comment.
    pub doc: &'static str,
    /// Its options.
    pub options: &'static [RuleOption],
}

impl RuleMeta {
    /// The first sentence of "What it does", for listings.
    pub fn summary(&self) -> String {
        let mut lines = self
            .doc
            .lines()
            .map(str::trim)
            .skip_while(|l| l.is_empty() || l.starts_with('#'));
        let mut text = String::new();
        for line in lines.by_ref() {
            if line.is_empty() {
                break;
            }
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(line);
        }
        text
    }

    /// The documentation as written, without the one space rustdoc keeps before each line.
    pub fn documentation(&self) -> String {
        self.doc
            .lines()
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_owned()
    }
}
