//! The rejection corpus (`fixtures/rejections/`): every tool a provider API or an MCP client was
//! seen to refuse, exported to each toolpact target that sends to that provider. For each, one
//! of two things must hold:
//!
//! - the export no longer carries what was refused: the loss report has a rewrite, move, drop
//!   or inlining at the fixture's `at` pointer (or above or below it), or the tool is left out,
//!   and nothing there is reported "kept, at risk";
//! - or the export keeps it and `toolpact check` for that target reports it (warning or
//!   error) at that place, and `docs/providers.md` names the rule's code and the fixture on
//!   one line, so that the finding has its source.
//!
//! A fixture toolpact cannot act on (a client rule that needs the server's name, say) is listed
//! in [`NOT_HANDLED`] with the reason; the test fails when a fixture outside that list is not
//! handled, and when one on it becomes handled (so that the list stays true). The snapshot
//! `rejections__status` records how each fixture is handled.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use serde_json::Value;
use std::path::{Path, PathBuf};
use toolpact::{Catalog, ExportOptions, LossKind, Target, Tool, export};
use toolpact_lint::{Settings, Severity, check};

/// Fixtures toolpact does not handle, each with the reason.
const NOT_HANDLED: &[(&str, &str)] = &[
    (
        "anthropic/strict-grammar-too-large",
        "the ceiling on the compiled grammar is undocumented and differs by model; no count of strict tools can be applied",
    ),
    (
        "mcp-client/claude-code-prefixed-name-too-long",
        "the limit is on `mcp__<server>__<tool>`, and a tool definition does not carry the server's name",
    ),
    (
        "mcp-client/cursor-name-too-long",
        "the limit is on the server's name and the tool's together, and a tool definition does not carry the server's name",
    ),
    (
        "mcp-client/gemini-cli-missing-types",
        "no lint rule reports a property schema without `type` yet",
    ),
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One fixture, read.
struct Fixture {
    /// `<provider>/<cause>`, as the file is named under `fixtures/rejections/`.
    key: String,
    /// Where in `tool` the refused construct is; empty for a limit on the whole request.
    at: String,
    /// The targets (and whether strict) that send to the provider that refused it.
    targets: Vec<(Target, bool)>,
    /// The request's tools: the fixture's tool (or its copies), then the others.
    tools: Vec<Value>,
}

fn targets_of(file: &Path, doc: &Value) -> Vec<(Target, bool)> {
    if let Some(list) = doc.get("targets").and_then(Value::as_array) {
        return list
            .iter()
            .map(|t| (t.as_str().unwrap().parse::<Target>().unwrap(), false))
            .collect();
    }
    let provider = doc["provider"].as_str().unwrap();
    let endpoint = doc["endpoint"].as_str().unwrap();
    let target = |name: &str, strict: bool| vec![(name.parse::<Target>().unwrap(), strict)];
    match (provider, endpoint) {
        ("openai", "chat-completions") => target("openai-chat", false),
        ("openai", "chat-completions-strict") => target("openai-chat", true),
        ("openai", "responses") => target("openai-responses", false),
        ("openai", "responses-strict") => target("openai-responses", true),
        ("anthropic", "messages") => target("anthropic", false),
        ("anthropic", "messages-strict") => target("anthropic", true),
        ("gemini", "developer-api" | "vertex-ai" | "code-assist" | "unspecified") => {
            target("gemini", false)
        }
        ("mcp-client", "chatgpt" | "claude-code" | "cursor" | "vscode-copilot" | "gemini-cli") => {
            target("mcp", false)
        }
        _ => panic!(
            "{}: provider {provider:?} with endpoint {endpoint:?} is not in the table of fixtures/rejections/README.md",
            file.display()
        ),
    }
}

fn read_fixtures() -> Vec<Fixture> {
    let root = repo().join("fixtures/rejections");
    let mut files = Vec::new();
    for provider in std::fs::read_dir(&root).unwrap() {
        let provider = provider.unwrap().path();
        if !provider.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&provider).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "json") {
                files.push(file);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            for field in [
                "provider", "endpoint", "tool", "error", "source", "date", "cause",
            ] {
                assert!(doc.get(field).is_some(), "{}: no `{field}`", file.display());
            }
            let at = doc
                .get("at")
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("{}: no `at` pointer", file.display()))
                .to_owned();
            let tool = doc["tool"].clone();
            let mut tools = match doc.get("copies").and_then(Value::as_u64) {
                Some(copies) => (1..=copies)
                    .map(|i| {
                        let mut copy = tool.clone();
                        copy["name"] = format!("{}_{i}", tool["name"].as_str().unwrap()).into();
                        copy
                    })
                    .collect(),
                None => vec![tool],
            };
            if let Some(Value::Array(others)) = doc.get("others") {
                tools.extend(others.iter().cloned());
            }
            let relative = file.strip_prefix(&root).unwrap().with_extension("");
            Fixture {
                key: relative.to_string_lossy().replace('\\', "/"),
                targets: targets_of(&file, &doc),
                at,
                tools,
            }
        })
        .collect()
}

/// Whether two pointers into a tool name the same place, or one lies inside the other. The
/// empty pointer (the whole request) is related only to itself.
fn related(a: &str, b: &str) -> bool {
    let inside = |inner: &str, outer: &str| {
        !outer.is_empty()
            && inner
                .strip_prefix(outer)
                .is_some_and(|rest| rest.starts_with('/'))
    };
    a == b || inside(a, b) || inside(b, a)
}

/// How the export to one target handles a fixture, if it does.
fn by_export(fixture: &Fixture, tools: &[Tool], target: Target, strict: bool) -> Option<String> {
    if fixture.at.is_empty() {
        return None;
    }
    let export = export(tools, target, ExportOptions { strict }).unwrap();
    let report = &export.report;
    let at = fixture.at.as_str();
    if report
        .losses
        .iter()
        .any(|l| l.kind == LossKind::Kept && related(&l.pointer, at))
    {
        return None;
    }
    if let Some(out) = report.left_out.iter().find(|u| related(&u.pointer, at)) {
        return Some(format!("left out ({})", pointer_or_root(&out.pointer)));
    }
    let mut kinds: Vec<String> = report
        .losses
        .iter()
        .filter(|l| related(&l.pointer, at))
        .map(|l| format!("{} {}", l.kind, pointer_or_root(&l.pointer)))
        .collect();
    kinds.dedup();
    (!kinds.is_empty()).then(|| kinds.join(", "))
}

fn pointer_or_root(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// How `toolpact check` for one target handles a fixture the export keeps, if it does: a
/// warning or error at the fixture's place, from a rule that `docs/providers.md` names on one
/// line with the fixture.
fn by_lint(
    fixture: &Fixture,
    catalog: &Catalog,
    target: Target,
    strict: bool,
    providers_md: &str,
) -> Result<String, String> {
    let mut settings = Settings::default();
    settings.targets = vec![target];
    settings.strict = strict;
    let report = check(catalog, &settings);
    let file = format!("rejections/{}.json", fixture.key);
    let place = |pointer: &str, tool: Option<usize>| {
        if fixture.at.is_empty() {
            tool.is_none() || pointer.is_empty()
        } else {
            tool.is_some() && related(pointer, &fixture.at)
        }
    };
    let found: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning && place(&f.pointer, f.tool_index))
        .map(|f| f.code)
        .collect();
    for code in &found {
        if providers_md
            .lines()
            .any(|line| line.contains(code) && line.contains(&file))
        {
            return Ok(format!("lint {code}"));
        }
    }
    Err(if found.is_empty() {
        "kept, and no warning or error at that place".to_owned()
    } else {
        format!(
            "kept; {} warn(s), but no line of docs/providers.md names the rule with {file}",
            found.join(", ")
        )
    })
}

#[test]
fn every_rejection_is_handled_or_listed() {
    let providers_md = std::fs::read_to_string(repo().join("docs/providers.md")).unwrap();
    let fixtures = read_fixtures();
    assert!(fixtures.len() >= 56, "the corpus lost fixtures");
    let mut status = Vec::new();
    let mut problems = Vec::new();
    for fixture in &fixtures {
        let text = serde_json::to_string(&fixture.tools).unwrap();
        let catalog = Catalog::from_str_named(&text, &fixture.key, None).unwrap();
        let tools: Vec<Tool> = catalog.tools().cloned().collect();
        let listed = NOT_HANDLED.iter().find(|(key, _)| *key == fixture.key);
        for &(target, strict) in &fixture.targets {
            let label = if strict {
                format!("{target} --strict")
            } else {
                target.to_string()
            };
            let outcome = match by_export(fixture, &tools, target, strict) {
                Some(how) => Ok(format!("export: {how}")),
                None => by_lint(fixture, &catalog, target, strict, &providers_md),
            };
            match (outcome, listed) {
                (Ok(how), None) => status.push(format!("{} → {label}: {how}", fixture.key)),
                (Ok(how), Some(_)) => problems.push(format!(
                    "{} → {label}: handled ({how}) but listed in NOT_HANDLED; take it off the list",
                    fixture.key
                )),
                (Err(_), Some((_, reason))) => {
                    status.push(format!("{} → {label}: not handled: {reason}", fixture.key))
                }
                (Err(why), None) => problems.push(format!(
                    "{} → {label}: not handled: {why} (at {:?})",
                    fixture.key, fixture.at
                )),
            }
        }
    }
    for (key, _) in NOT_HANDLED {
        assert!(
            fixtures.iter().any(|f| f.key == *key),
            "NOT_HANDLED names {key}, which is not a fixture"
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    insta::assert_snapshot!("status", status.join("\n"));
}

#[test]
fn pointers_relate_by_whole_tokens() {
    assert!(related(
        "/inputSchema/properties/a",
        "/inputSchema/properties/a/items"
    ));
    assert!(related("/inputSchema", "/inputSchema/properties/a"));
    assert!(!related(
        "/inputSchema/properties/ab",
        "/inputSchema/properties/a"
    ));
    assert!(!related("", "/name"));
    assert!(related("", ""));
}
