//! Configuration: `toolpact.toml`, overridden by command-line flags.
//!
//! ```toml
//! select = ["TP0", "TP1", "security"]   # codes, code prefixes, names or categories; default all
//! ignore = ["additional-properties-open"]
//! targets = ["openai-chat", "anthropic", "gemini"]   # default: every target
//! strict = true                                       # also check strict mode (default false)
//!
//! [severity]
//! missing-property-description = "error"
//!
//! [rules.description-too-long]
//! max = 1500
//! ```

use crate::context::{OptionValues, RuleSettings};
use crate::meta::{RuleMeta, Severity};
use crate::rules::{all_rules, find_rule};
use serde::Deserialize;
use std::collections::BTreeMap;
use toolpact::Target;

/// Why a configuration cannot be used. The message names the file and the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {message}")]
#[non_exhaustive]
pub struct SettingsError {
    /// The configuration file, or `command line`.
    pub file: String,
    /// What is wrong, starting with the key (`select: …`).
    pub message: String,
}

/// Where settings that did not come from a file came from, in errors.
const COMMAND_LINE: &str = "command line";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSettings {
    select: Option<Vec<String>>,
    #[serde(default)]
    ignore: Vec<String>,
    targets: Option<Vec<String>>,
    #[serde(default)]
    strict: bool,
    #[serde(default)]
    severity: BTreeMap<String, Severity>,
    #[serde(default)]
    rules: BTreeMap<String, BTreeMap<String, u64>>,
    /// The `[proxy]` section, which `toolpact proxy` reads; the linter leaves it alone.
    #[serde(default, rename = "proxy")]
    _proxy: serde::de::IgnoredAny,
}

/// The settings a check runs with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    select: Vec<String>,
    ignore: Vec<String>,
    /// Rules named one by one (code or name) in a command-line selection: they run even when
    /// the file ignores them, unless the command line ignores them too.
    named: Vec<&'static str>,
    severity: BTreeMap<&'static str, Severity>,
    options: OptionValues,
    /// The targets provider rules check against.
    pub targets: Vec<Target>,
    /// Also check the strict variants (OpenAI and Anthropic strict mode).
    pub strict: bool,
    /// Grade each tool's description quality ([`Report::quality`](crate::Report)); on by
    /// default. A check that only wants findings turns it off and spares the reading of every
    /// description that no enabled rule asks for.
    pub score_quality: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            select: Vec::new(),
            ignore: Vec::new(),
            named: Vec::new(),
            severity: BTreeMap::new(),
            options: OptionValues::default(),
            targets: Target::ALL.to_vec(),
            strict: false,
            score_quality: true,
        }
    }
}

/// The rule a selector names one by one: its code (in any case) or its name.
fn rule_named(selector: &str) -> Option<&'static RuleMeta> {
    find_rule(selector).map(|rule| rule.meta())
}

/// Whether a selector names anything: a code, a code prefix (`TP1`), a name or a category.
fn selector_is_known(selector: &str) -> bool {
    all_rules()
        .iter()
        .map(|r| r.meta())
        .any(|m| matches(m, selector))
}

/// Codes and code prefixes match in any case (`tp1`, `TP108`).
fn matches(meta: &RuleMeta, selector: &str) -> bool {
    let is_code_prefix = selector.len() >= 2
        && selector.is_char_boundary(2)
        && selector[..2].eq_ignore_ascii_case("TP")
        && meta
            .code
            .get(..selector.len())
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case(selector));
    meta.name == selector
        || meta.category.as_str() == selector
        || selector == "ALL"
        || is_code_prefix
}

impl Settings {
    /// Reads `toolpact.toml` text; `file` names it in errors. Unknown keys, unknown rules and
    /// unknown options are errors.
    pub fn from_toml(text: &str, file: &str) -> Result<Settings, SettingsError> {
        let error = |message: String| SettingsError {
            file: file.to_owned(),
            message,
        };
        let parsed: FileSettings =
            toml::from_str(text).map_err(|e| error(e.to_string().trim_end().to_owned()))?;
        let mut settings = Settings::default();
        if let Some(select) = parsed.select {
            settings.select(select).map_err(|e| error(e.message))?;
        }
        settings
            .ignore(parsed.ignore)
            .map_err(|e| error(e.message))?;
        settings.strict = parsed.strict;
        if let Some(targets) = parsed.targets {
            settings
                .set_targets(&targets)
                .map_err(|e| error(e.message))?;
        }
        for (selector, severity) in parsed.severity {
            let meta = rule_named(&selector)
                .ok_or_else(|| error(format!("[severity]: no rule is named {selector:?}")))?;
            settings.severity.insert(meta.code, severity);
        }
        for (selector, options) in parsed.rules {
            let meta = rule_named(&selector).ok_or_else(|| {
                error(format!("[rules.{selector}]: no rule is named {selector:?}"))
            })?;
            for (name, value) in options {
                let option = meta
                    .options
                    .iter()
                    .find(|o| o.name == name)
                    .ok_or_else(|| {
                        let known: Vec<&str> = meta.options.iter().map(|o| o.name).collect();
                        error(format!(
                            "[rules.{selector}]: unknown option {name:?}; {} has {}",
                            meta.name,
                            if known.is_empty() {
                                "no options".to_owned()
                            } else {
                                format!("options {}", known.join(", "))
                            }
                        ))
                    })?;
                settings.options.set(meta.code, option.name, value);
            }
        }
        Ok(settings)
    }

    /// Only the rules these selectors name (codes, prefixes, names, categories). An empty
    /// list is an error: it would check nothing, which is never what a configuration means.
    pub fn select(&mut self, selectors: Vec<String>) -> Result<(), SettingsError> {
        check_selectors(&selectors, "select")?;
        if selectors.is_empty() {
            return Err(SettingsError {
                file: COMMAND_LINE.to_owned(),
                message: "select: the list is empty, so no rule would run; leave `select` out to run every rule".to_owned(),
            });
        }
        self.select = selectors;
        Ok(())
    }

    /// A selection made on the command line, which overrides the file: it replaces the file's
    /// `select`, and a rule it names one by one (`--select invalid-name`) runs even if the
    /// file ignores it, since that is what was asked for. Ignores given on the command line
    /// afterwards still apply.
    pub fn select_overriding(&mut self, selectors: Vec<String>) -> Result<(), SettingsError> {
        self.select(selectors)?;
        self.named = self
            .select
            .iter()
            .filter_map(|s| rule_named(s))
            .map(|m| m.code)
            .collect();
        Ok(())
    }

    /// Leaves out the rules these selectors name, including rules a command-line selection
    /// named.
    pub fn ignore(&mut self, selectors: Vec<String>) -> Result<(), SettingsError> {
        check_selectors(&selectors, "ignore")?;
        self.named.retain(|code| {
            rule_named(code).is_none_or(|meta| !selectors.iter().any(|s| matches(meta, s)))
        });
        self.ignore.extend(selectors);
        Ok(())
    }

    /// The targets to check against, by command-line name.
    pub fn set_targets(&mut self, names: &[String]) -> Result<(), SettingsError> {
        let mut targets = Vec::new();
        for name in names {
            let target: Target =
                name.parse()
                    .map_err(|e: toolpact::UnknownTarget| SettingsError {
                        file: COMMAND_LINE.to_owned(),
                        message: format!("targets: {e}"),
                    })?;
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
        self.targets = targets;
        Ok(())
    }

    /// Whether a rule runs: selected (by default, every rule that is on by default) and not
    /// ignored.
    pub fn is_enabled(&self, meta: &RuleMeta) -> bool {
        // A rule off by default runs only when a selection names it.
        let selected = if self.select.is_empty() {
            meta.enabled_by_default
        } else {
            self.select.iter().any(|s| matches(meta, s))
        };
        let ignored =
            !self.named.contains(&meta.code) && self.ignore.iter().any(|s| matches(meta, s));
        selected && !ignored
    }

    /// The severity a rule's findings get.
    pub fn severity(&self, meta: &RuleMeta) -> Severity {
        self.severity
            .get(meta.code)
            .copied()
            .unwrap_or(meta.severity)
    }

    /// A rule option's value: configured, or the rule's default.
    pub fn option(&self, meta: &RuleMeta, name: &str) -> u64 {
        self.options.get(meta, name)
    }

    /// What the rules read of these settings during a check.
    pub(crate) fn for_rules(&self) -> RuleSettings {
        RuleSettings::new(self.targets.clone(), self.strict, self.options.clone())
    }
}

fn check_selectors(selectors: &[String], key: &str) -> Result<(), SettingsError> {
    for selector in selectors {
        if !selector_is_known(selector) {
            return Err(SettingsError {
                file: COMMAND_LINE.to_owned(),
                message: format!(
                    "{key}: {selector:?} names no rule, code prefix or category (see `toolpact rules`)"
                ),
            });
        }
    }
    Ok(())
}
