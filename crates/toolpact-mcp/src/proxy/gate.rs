//! The tool list gate: every tool the upstream lists is read as a toolpact [`Tool`], compared
//! with the lock, linted, and held against the policy (allow and deny lists, destructive
//! tools, renames, description overrides); what passes is what the client sees and what
//! calls are validated against, what does not is withheld with the reason.

use crate::proxy::policy::{OnChange, OnFinding, ProxyOptions};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use toolpact::{Catalog, ChangeKind, LockFile, Registered, Registry, Target, Tool};
use toolpact_lint::{Category, Settings, Severity};

/// A tool the client does not see, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// The tool's name as the upstream lists it.
    pub(crate) tool: String,
    /// Why, in one sentence (or several, joined with "; ").
    pub(crate) reason: String,
    /// What kind of check found it: `lock`, `lint`, `policy`, `contract`.
    pub(crate) check: &'static str,
}

/// The tools the client may call: by the name it sees, the upstream tool with its compiled
/// schemas.
#[derive(Debug, Default)]
pub(crate) struct ToolSet {
    registry: Registry,
    /// Exposed name → upstream name.
    upstream_names: HashMap<String, String>,
    /// Exposed or upstream name → why the tool is withheld.
    withheld: HashMap<String, String>,
}

impl ToolSet {
    /// The tool the client calls `exposed`: its upstream name and compiled schemas.
    pub(crate) fn get(&self, exposed: &str) -> Option<&Registered> {
        let upstream = self.upstream_names.get(exposed)?;
        self.registry.get(upstream)
    }

    /// The registry of passed tools, by upstream name.
    pub(crate) fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Why the tool is withheld, when it is.
    pub(crate) fn withheld(&self, name: &str) -> Option<&str> {
        self.withheld.get(name).map(String::as_str)
    }

    /// The names the client sees.
    pub(crate) fn exposed_names(&self) -> impl Iterator<Item = &str> {
        self.upstream_names.keys().map(String::as_str)
    }
}

/// What checking one tool list gave.
#[derive(Debug)]
pub(crate) struct Checked {
    /// The tools the client sees, as JSON, in the upstream's order.
    pub(crate) tools: Vec<Value>,
    /// The tools withheld.
    pub(crate) withheld: Vec<Verdict>,
    /// The tools passed with a warning.
    pub(crate) warned: Vec<Verdict>,
    /// The tools for the call gate.
    pub(crate) set: ToolSet,
}

/// The gate, with the lock it compares against (read at start, or written on first use).
pub(crate) struct Gate {
    lock: Mutex<Option<LockFile>>,
    lock_path: Option<String>,
    /// The linter's settings, with the rules whose findings the gate would drop left out.
    lint: Settings,
}

impl Gate {
    /// Reads the lock file, unless it is pinned on first use and does not exist yet.
    pub(crate) fn new(options: &ProxyOptions) -> Result<Gate, String> {
        let lock = match &options.lock {
            None => None,
            Some(path) if options.pin && !path.exists() => None,
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read the lock file {}: {e}", path.display()))?;
                Some(
                    LockFile::from_str_named(&text, &path.display().to_string())
                        .map_err(|e| e.to_string())?,
                )
            }
        };
        Ok(Gate {
            lock: Mutex::new(lock),
            lock_path: options.lock.as_ref().map(|p| p.display().to_string()),
            lint: acting_rules(options),
        })
    }

    /// Checks a list of tools as the upstream sent them; `origin` names the upstream.
    pub(crate) fn check(&self, tools: Vec<Value>, origin: &str, options: &ProxyOptions) -> Checked {
        let mut withheld = Vec::new();
        let mut warned = Vec::new();
        let mut read: Vec<(Tool, Value)> = Vec::with_capacity(tools.len());
        for value in tools {
            let name = value
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("(a tool without a name)")
                .to_owned();
            match serde_json::from_value::<Tool>(value.clone()) {
                Ok(tool) => read.push((tool, value)),
                Err(e) => withheld.push(Verdict {
                    tool: name,
                    reason: format!("it is not an MCP tool definition: {e}"),
                    check: "contract",
                }),
            }
        }
        let mut out: Vec<Option<(Tool, Value)>> = read.into_iter().map(Some).collect();
        let mut refuse = |i: usize, verdict: Verdict, out: &mut Vec<Option<(Tool, Value)>>| {
            out[i] = None;
            withheld.push(verdict);
        };
        for i in 0..out.len() {
            let Some((tool, _)) = &out[i] else { continue };
            let name = tool.name.clone();
            let policy = if options.deny.contains(&name) {
                Some("the policy denies it".to_owned())
            } else if !options.allow.is_empty() && !options.allow.contains(&name) {
                Some("the policy's allow list does not name it".to_owned())
            } else if options.withhold_destructive
                && tool.is_destructive()
                && !options.allow_destructive.contains(&name)
            {
                Some("it may destroy data (destructiveHint is true, or left out on a tool that is not read-only) and the policy allows no destructive tool it does not name".to_owned())
            } else {
                None
            };
            if let Some(reason) = policy {
                refuse(
                    i,
                    Verdict {
                        tool: name,
                        reason,
                        check: "policy",
                    },
                    &mut out,
                );
            }
        }
        // The lock pins what the server says, before any override.
        self.pin_if_first(&out, origin);
        if let Some(reasons) = self.lock_reasons(&out) {
            for (i, reason) in reasons {
                let Some((tool, _)) = &out[i] else { continue };
                let verdict = Verdict {
                    tool: tool.name.clone(),
                    reason,
                    check: "lock",
                };
                match options.on_change {
                    OnChange::Withhold => refuse(i, verdict, &mut out),
                    OnChange::Warn => warned.push(verdict),
                }
            }
        }
        // Description overrides apply before the linter reads the tools: an override is how a
        // bad description is fixed.
        for (tool, value) in out.iter_mut().flatten() {
            if let Some(text) = options.descriptions.get(&tool.name) {
                tool.description = Some(text.clone());
                if let Some(object) = value.as_object_mut() {
                    object.insert("description".to_owned(), Value::String(text.clone()));
                }
            }
        }
        for (i, reason, action) in lint_reasons(&out, origin, &self.lint, options) {
            let Some((tool, _)) = &out[i] else { continue };
            let verdict = Verdict {
                tool: tool.name.clone(),
                reason,
                check: "lint",
            };
            match action {
                OnFinding::Withhold => refuse(i, verdict, &mut out),
                OnFinding::Warn => warned.push(verdict),
                OnFinding::Off => {}
            }
        }
        let mut set = ToolSet::default();
        let mut exposed_tools = Vec::new();
        for (tool, mut value) in out.into_iter().flatten() {
            let name = tool.name.clone();
            let exposed = options
                .renames
                .get(&name)
                .cloned()
                .unwrap_or_else(|| name.clone());
            if let Err(e) = set.registry.register(tool) {
                withheld.push(Verdict {
                    tool: name,
                    reason: format!("its schemas cannot be used to validate calls: {e}"),
                    check: "contract",
                });
                continue;
            }
            if exposed != name
                && let Some(object) = value.as_object_mut()
            {
                object.insert("name".to_owned(), Value::String(exposed.clone()));
            }
            set.upstream_names.insert(exposed, name);
            exposed_tools.push(value);
        }
        for verdict in &withheld {
            let exposed = options
                .renames
                .get(&verdict.tool)
                .cloned()
                .unwrap_or_else(|| verdict.tool.clone());
            set.withheld.insert(exposed, verdict.reason.clone());
        }
        Checked {
            tools: exposed_tools,
            withheld,
            warned,
            set,
        }
    }

    /// Writes the lock from the first list when pinning on first use.
    fn pin_if_first(&self, tools: &[Option<(Tool, Value)>], origin: &str) {
        let Some(path) = &self.lock_path else { return };
        let Ok(mut lock) = self.lock.lock() else {
            return;
        };
        if lock.is_some() || Path::new(path).exists() {
            return;
        }
        match LockFile::new(tools.iter().flatten().map(|(tool, _)| tool)) {
            Ok(new) => {
                if let Err(e) = std::fs::write(path, new.to_json_string()) {
                    tracing::warn!("cannot write the lock file {path}: {e}");
                } else {
                    tracing::info!("{path}: pinned the tools of {origin}");
                }
                *lock = Some(new);
            }
            Err(e) => tracing::warn!("cannot pin the tools of {origin}: {e}"),
        }
    }

    /// For each tool that differs from the lock or is not in it, the reason; `None` without a
    /// lock.
    fn lock_reasons(&self, tools: &[Option<(Tool, Value)>]) -> Option<Vec<(usize, String)>> {
        let lock = self.lock.lock().ok()?;
        let lock = lock.as_ref()?;
        let path = self.lock_path.as_deref().unwrap_or("the lock");
        let locked: Vec<Tool> = lock.tools().cloned().collect();
        let current: Vec<Tool> = tools.iter().flatten().map(|(t, _)| t.clone()).collect();
        let diff = toolpact::diff(&locked, &current);
        let mut out = Vec::new();
        for (i, entry) in tools.iter().enumerate() {
            let Some((tool, _)) = entry else { continue };
            let changes: Vec<_> = diff
                .of_tool(&tool.name)
                .filter(|c| c.kind != ChangeKind::ToolRemoved)
                .collect();
            if changes.is_empty() {
                continue;
            }
            if changes.iter().any(|c| c.kind == ChangeKind::ToolAdded) {
                out.push((i, format!("{path} does not pin it (a new tool)")));
                continue;
            }
            let described: Vec<String> = changes
                .iter()
                .map(|change| {
                    let pointer = if change.pointer.is_empty() {
                        String::new()
                    } else {
                        format!(" {}", change.pointer)
                    };
                    let security = if change.security { "[security] " } else { "" };
                    let words = change
                        .text
                        .as_ref()
                        .map(|t| format!(" ({})", t.render()))
                        .unwrap_or_default();
                    format!(
                        "{}{pointer}: {security}{}{words}",
                        change.class, change.message
                    )
                })
                .collect();
            out.push((
                i,
                format!("its contract differs from {path}: {}", described.join("; ")),
            ));
        }
        Some(out)
    }
}

/// The linter's settings for the gate: the configured ones, less every rule whose findings
/// could not withhold or warn (a rule outside the security category, or any rule when
/// `on_finding` is off, unless `on_finding_rules` names it). Their findings would be dropped
/// anyway; running them would cost time and memory, the token-count rules most (the
/// `o200k_base` tables they load take about 30 MiB).
fn acting_rules(options: &ProxyOptions) -> Settings {
    let mut settings = options.lint.clone();
    // The gate reads findings, not the report's grades of each description.
    settings.score_quality = false;
    let named = |code: &str, name: &str| {
        options.on_finding_rules.contains_key(code) || options.on_finding_rules.contains_key(name)
    };
    let idle: Vec<String> = toolpact_lint::all_rules()
        .iter()
        .map(|rule| rule.meta())
        .filter(|meta| {
            let security =
                meta.category == Category::Security && options.on_finding != OnFinding::Off;
            !security && !named(meta.code, meta.name)
        })
        // By name: a code would also select the rules whose codes it begins.
        .map(|meta| meta.name.to_owned())
        .collect();
    if !idle.is_empty()
        && let Err(e) = settings.ignore(idle)
    {
        // `ignore` checks every selector before it changes anything: the settings are still
        // the configured ones.
        tracing::warn!("the linter runs every configured rule: {e}");
    }
    settings
}

/// The linter's findings that withhold or warn, per tool index: (index, reason, action).
fn lint_reasons(
    tools: &[Option<(Tool, Value)>],
    origin: &str,
    settings: &Settings,
    options: &ProxyOptions,
) -> Vec<(usize, String, OnFinding)> {
    let indices: Vec<usize> = (0..tools.len()).filter(|&i| tools[i].is_some()).collect();
    if indices.is_empty() {
        return Vec::new();
    }
    let list: Vec<Value> = tools
        .iter()
        .flatten()
        .map(|(tool, _)| serde_json::to_value(tool).unwrap_or(Value::Null))
        .collect();
    let mut document = Map::new();
    document.insert("tools".to_owned(), Value::Array(list));
    let text = Value::Object(document).to_string();
    let catalog = match Catalog::from_str_named(&text, origin, Some(Target::Mcp)) {
        Ok(catalog) => catalog,
        Err(e) => {
            tracing::warn!("cannot lint the tools of {origin}: {e}");
            return Vec::new();
        }
    };
    let report = toolpact_lint::check(&catalog, settings);
    let mut by_tool: HashMap<usize, (Vec<String>, OnFinding)> = HashMap::new();
    for finding in &report.findings {
        let Some(position) = finding.tool_index else {
            continue;
        };
        let Some(&index) = indices.get(position) else {
            continue;
        };
        let action = options
            .on_finding_rules
            .get(finding.code)
            .or_else(|| options.on_finding_rules.get(finding.name))
            .copied()
            .unwrap_or(
                if finding.category == Category::Security && finding.severity == Severity::Error {
                    options.on_finding
                } else {
                    OnFinding::Off
                },
            );
        if action == OnFinding::Off {
            continue;
        }
        let entry = by_tool
            .entry(index)
            .or_insert_with(|| (Vec::new(), OnFinding::Warn));
        let pointer = if finding.pointer.is_empty() {
            String::new()
        } else {
            format!(" at {}", finding.pointer)
        };
        entry.0.push(format!(
            "{} {}{pointer}: {}",
            finding.code, finding.name, finding.message
        ));
        if action == OnFinding::Withhold {
            entry.1 = OnFinding::Withhold;
        }
    }
    let mut out: Vec<(usize, String, OnFinding)> = by_tool
        .into_iter()
        .map(|(i, (reasons, action))| {
            (
                i,
                format!("the linter reports {}", reasons.join("; ")),
                action,
            )
        })
        .collect();
    out.sort_by_key(|(i, _, _)| *i);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(settings: &Settings, selector: &str) -> bool {
        toolpact_lint::find_meta(selector).is_some_and(|meta| settings.is_enabled(meta))
    }

    #[test]
    fn only_the_rules_whose_findings_act_run() {
        let settings = acting_rules(&ProxyOptions::default());
        assert!(runs(&settings, "TP510"), "a security rule");
        assert!(!runs(&settings, "catalog-tokens"), "a token-count rule");
        assert!(!runs(&settings, "TP402"));
        for rule in toolpact_lint::all_rules() {
            let meta = rule.meta();
            if meta.enabled_by_default {
                assert_eq!(
                    settings.is_enabled(meta),
                    meta.category == Category::Security,
                    "{}",
                    meta.name
                );
            }
        }
    }

    #[test]
    fn a_rule_named_in_the_findings_table_runs() {
        let mut options = ProxyOptions::default();
        options
            .on_finding_rules
            .insert("catalog-tokens".to_owned(), OnFinding::Warn);
        assert!(runs(&acting_rules(&options), "TP402"));
        let mut options = ProxyOptions::default();
        options
            .on_finding_rules
            .insert("TP402".to_owned(), OnFinding::Withhold);
        assert!(runs(&acting_rules(&options), "catalog-tokens"));
    }

    #[test]
    fn no_rule_runs_when_findings_are_off_and_none_is_named() {
        let options = ProxyOptions {
            on_finding: OnFinding::Off,
            ..ProxyOptions::default()
        };
        let settings = acting_rules(&options);
        assert!(
            toolpact_lint::all_rules()
                .iter()
                .all(|rule| !settings.is_enabled(rule.meta()))
        );
    }

    #[test]
    fn a_rule_the_settings_ignore_stays_ignored() {
        let mut options = ProxyOptions::default();
        options.lint.ignore(vec!["TP510".to_owned()]).unwrap();
        assert!(!runs(&acting_rules(&options), "TP510"));
    }
}
