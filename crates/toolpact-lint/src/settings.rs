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

use crate::rule::{RuleMeta, Severity};
use crate::rules::all;
use serde::Deserialize;
use std::collections::BTreeMap;
use toolpact::Target;

/// Why a configuration cannot be used. The message names the file and the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {message}")]
pub struct SettingsError {
    /// The configuration file (or `command line`).
    pub file: String,
    /// What is wrong.
    pub message: String,
}

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
}

/// The settings a check runs with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    select: Vec<String>,
    ignore: Vec<String>,
    severity: BTreeMap<&'static str, Severity>,
    options: BTreeMap<(&'static str, &'static str), u64>,
    /// The targets provider rules check against.
    pub targets: Vec<Target>,
    /// Also check the strict variants (OpenAI and Anthropic strict mode).
    pub strict: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            select: Vec::new(),
            ignore: Vec::new(),
            severity: BTreeMap::new(),
            options: BTreeMap::new(),
            targets: Target::ALL.to_vec(),
            strict: false,
        }
    }
}

fn find_rule(selector: &str) -> Option<&'static RuleMeta> {
    all()
        .iter()
        .map(|r| r.meta())
        .find(|m| m.code == selector || m.name == selector)
}

/// Whether a selector names anything: a code, a code prefix (`TP1`), a name or a category.
fn selector_is_known(selector: &str) -> bool {
    all().iter().map(|r| r.meta()).any(|m| matches(m, selector))
}

fn matches(meta: &RuleMeta, selector: &str) -> bool {
    meta.code == selector
        || meta.name == selector
        || meta.category.as_str() == selector
        || selector == "ALL"
        || (selector.starts_with("TP") && meta.code.starts_with(selector))
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
            settings.select(select)?;
        }
        settings.ignore(parsed.ignore)?;
        settings.strict = parsed.strict;
        if let Some(targets) = parsed.targets {
            settings
                .set_targets(&targets)
                .map_err(|e| error(e.message))?;
        }
        for (selector, severity) in parsed.severity {
            let meta = find_rule(&selector)
                .ok_or_else(|| error(format!("[severity]: no rule is named {selector:?}")))?;
            settings.severity.insert(meta.code, severity);
        }
        for (selector, options) in parsed.rules {
            let meta = find_rule(&selector).ok_or_else(|| {
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
                settings.options.insert((meta.code, option.name), value);
            }
        }
        Ok(settings)
    }

    /// Only the rules these selectors name (codes, prefixes, names, categories).
    pub fn select(&mut self, selectors: Vec<String>) -> Result<(), SettingsError> {
        check_selectors(&selectors, "select")?;
        self.select = selectors;
        Ok(())
    }

    /// Leaves out the rules these selectors name.
    pub fn ignore(&mut self, selectors: Vec<String>) -> Result<(), SettingsError> {
        check_selectors(&selectors, "ignore")?;
        self.ignore.extend(selectors);
        Ok(())
    }

    /// The targets to check against, by command-line name.
    pub fn set_targets(&mut self, names: &[String]) -> Result<(), SettingsError> {
        let mut targets = Vec::new();
        for name in names {
            let target: Target =
                name.parse()
                    .map_err(|e: toolpact::target::UnknownTarget| SettingsError {
                        file: "targets".to_owned(),
                        message: e.to_string(),
                    })?;
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
        self.targets = targets;
        Ok(())
    }

    /// Whether a rule runs.
    pub fn is_enabled(&self, meta: &RuleMeta) -> bool {
        let selected = self.select.is_empty() || self.select.iter().any(|s| matches(meta, s));
        selected && !self.ignore.iter().any(|s| matches(meta, s))
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
        meta.options
            .iter()
            .find(|o| o.name == name)
            .map(|o| {
                self.options
                    .get(&(meta.code, o.name))
                    .copied()
                    .unwrap_or(o.default)
            })
            .unwrap_or_default()
    }
}

fn check_selectors(selectors: &[String], key: &str) -> Result<(), SettingsError> {
    for selector in selectors {
        if !selector_is_known(selector) {
            return Err(SettingsError {
                file: key.to_owned(),
                message: format!(
                    "{key}: {selector:?} names no rule, code prefix or category (see `toolpact rules`)"
                ),
            });
        }
    }
    Ok(())
}
