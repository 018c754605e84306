use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use toolpact::json::child_pointer;

declare_rule! {
    /// ## What it does
    /// Checks each key of the tool's `_meta` against the MCP key format, and reports keys
    /// in the prefixes MCP reserves for itself.
    ///
    /// The format: an optional prefix of dot-separated labels ending in `/` (each label
    /// starts with a letter, ends with a letter or digit, and has only letters, digits and
    /// `-` inside), then a name that begins and ends with a letter or digit and has only
    /// letters, digits, `-`, `_` and `.` inside. A prefix whose second label is
    /// `modelcontextprotocol` or `mcp` is reserved (`io.modelcontextprotocol/`, `dev.mcp/`).
    ///
    /// The ChatGPT Apps keys `openai/toolInvocation/invoking` and `…/invoked`, which OpenAI
    /// documents with a second `/`, are accepted as they are.
    ///
    /// ## Why is this bad?
    /// `_meta` is shared by the protocol, clients and extensions; the format keeps their keys
    /// apart. A key in a reserved namespace may collide with a key MCP defines later and be
    /// read with a meaning it does not have, and a key with spaces or a trailing `/` is
    /// likely to be dropped or mangled by a client that validates keys.
    ///
    /// ## Example
    /// ```json
    /// {"_meta": {"io.modelcontextprotocol/cache": 60, "my app/theme": "dark", "-internal": true}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"_meta": {"com.example/cache-ttl": 60, "com.example/theme": "dark", "com.example/internal": true}}
    /// ```
    ///
    /// ## References
    /// - MCP 2025-11-25, basic/index "General fields: `_meta`" (key name format)
    /// - OpenAI Apps SDK reference, tool `_meta` keys (`docs/providers.md#chatgpt-apps-metadata`)
    pub struct MetaKeyFormat {
        code: "TP008",
        name: "meta-key-format",
        category: Structure,
        severity: Warning,
        options: [],
    }
}

/// Keys vendors document outside the MCP format, accepted as written.
const DOCUMENTED_EXCEPTIONS: &[&str] = &[
    "openai/toolInvocation/invoking",
    "openai/toolInvocation/invoked",
];

/// What is wrong with a prefix label, if anything.
fn label_problem(label: &str) -> Option<String> {
    let Some(first) = label.chars().next() else {
        return Some("has an empty label".to_owned());
    };
    if !first.is_ascii_alphabetic() {
        return Some(format!(
            "has the label {label:?}, which does not start with a letter"
        ));
    }
    if label.ends_with('-') {
        return Some(format!("has the label {label:?}, which ends with `-`"));
    }
    if let Some(bad) = label
        .chars()
        .find(|c| !c.is_ascii_alphanumeric() && *c != '-')
    {
        return Some(format!("has the label {label:?}, which contains {bad:?}"));
    }
    None
}

/// What is wrong with the name after the prefix, if anything.
fn name_problem(name: &str) -> Option<String> {
    // The specification allows an empty name ("unless empty").
    let (Some(first), Some(last)) = (name.chars().next(), name.chars().last()) else {
        return None;
    };
    if !first.is_ascii_alphanumeric() {
        return Some(format!(
            "the name {name:?} starts with {first:?}, not a letter or digit"
        ));
    }
    if !last.is_ascii_alphanumeric() {
        return Some(format!(
            "the name {name:?} ends with {last:?}, not a letter or digit"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !c.is_ascii_alphanumeric() && !matches!(c, '-' | '_' | '.'))
    {
        return Some(format!("the name {name:?} contains {bad:?}"));
    }
    None
}

/// The problem with a key, with what to write instead.
enum Problem {
    Malformed(String),
    Reserved(String),
}

fn classify(key: &str) -> Option<Problem> {
    if DOCUMENTED_EXCEPTIONS.contains(&key) {
        return None;
    }
    let Some((prefix, name)) = key.rsplit_once('/') else {
        return name_problem(key).map(Problem::Malformed);
    };
    if prefix.contains('/') {
        return Some(Problem::Malformed(
            "it has more than one `/`; only one separates the prefix from the name".to_owned(),
        ));
    }
    let labels: Vec<&str> = prefix.split('.').collect();
    if let Some(problem) = labels.iter().find_map(|l| label_problem(l)) {
        return Some(Problem::Malformed(format!(
            "the prefix {prefix:?} {problem}"
        )));
    }
    if let Some(problem) = name_problem(name) {
        return Some(Problem::Malformed(problem));
    }
    if labels.get(1).is_some_and(|l| {
        l.eq_ignore_ascii_case("modelcontextprotocol") || l.eq_ignore_ascii_case("mcp")
    }) {
        return Some(Problem::Reserved(format!("{prefix}/")));
    }
    None
}

/// A key in the format that keeps what it can of `key`, for the help text: its prefix when
/// that is valid and not reserved, and its name with other characters made `-` and extra
/// `/` made `.`.
fn suggestion(key: &str) -> String {
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    let name: String = name
        .chars()
        .map(|c| match c {
            '/' => '.',
            c if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') => c,
            _ => '-',
        })
        .collect();
    let name = name.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let name = if name.is_empty() { "setting" } else { name };
    let keep = prefix.filter(|p| {
        let labels: Vec<&str> = p.split('.').collect();
        labels.iter().all(|l| label_problem(l).is_none())
            && !labels.get(1).is_some_and(|l| {
                l.eq_ignore_ascii_case("modelcontextprotocol") || l.eq_ignore_ascii_case("mcp")
            })
    });
    match (prefix, keep) {
        (None, _) => name.to_owned(),
        (Some(_), Some(prefix)) => format!("{prefix}/{name}"),
        (Some(_), None) => format!("com.example/{name}"),
    }
}

impl Rule for MetaKeyFormat {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for MetaKeyFormat {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let Some(meta) = &tool.meta else { return };
        for key in meta.keys() {
            let Some(problem) = classify(key) else {
                continue;
            };
            let (message, help) = match problem {
                Problem::Malformed(why) => (
                    format!("the `_meta` key {key:?} breaks the MCP key format: {why}"),
                    format!(
                        "use an optional reverse-DNS prefix ending in `/` and a name of letters, digits, `-`, `_` and `.` that starts and ends with a letter or digit, such as {:?}",
                        suggestion(key)
                    ),
                ),
                Problem::Reserved(prefix) => (
                    format!(
                        "the `_meta` key {key:?} uses the prefix `{prefix}`, which is reserved for MCP itself"
                    ),
                    format!(
                        "put your own metadata under your own reverse-DNS prefix, such as {:?}",
                        suggestion(key)
                    ),
                ),
            };
            out.push(Violation {
                tool: Some(i),
                pointer: child_pointer("/_meta", key),
                message,
                help: help.into(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(key: &str) -> bool {
        classify(key).is_none()
    }

    #[test]
    fn accepts_the_specification_examples() {
        for key in [
            "com.example/cache-ttl",
            "openai/outputTemplate",
            "openai/toolInvocation/invoking",
            "securitySchemes",
            "ui",
            "com.example.mcp/x",
            "a1.b-2/x.y_z",
            "com.example/",
        ] {
            assert!(ok(key), "{key}");
        }
    }

    #[test]
    fn suggests_a_key_in_the_format() {
        assert_eq!(suggestion("com.example/ui/theme"), "com.example/ui.theme");
        assert_eq!(suggestion("-internal"), "internal");
        assert_eq!(suggestion("gift shop/theme"), "com.example/theme");
        assert_eq!(
            suggestion("io.modelcontextprotocol/cache-ttl"),
            "com.example/cache-ttl"
        );
    }

    #[test]
    fn rejects_malformed_and_reserved_keys() {
        for key in [
            "io.modelcontextprotocol/cache",
            "dev.mcp/x",
            "org.modelcontextprotocol.api/x",
            "my app/theme",
            "-internal",
            "internal_",
            "1com.example/x",
            "com.example-/x",
            "com..example/x",
            "a/b/c",
            "com.example/a b",
        ] {
            assert!(!ok(key), "{key}");
        }
    }
}
