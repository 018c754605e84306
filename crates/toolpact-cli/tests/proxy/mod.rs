//! `toolpact proxy`: the command in front of `toolpact serve` (or of a server of the tests' own,
//! under `fixtures/proxy/`), driven by toolpact's own MCP client; what the gates withhold and
//! refuse is read back from the audit log. One module per group of options; what they share
//! is here.

mod audit;
mod findings;
mod http;
mod lock;
mod policy;
mod timeouts;

use crate::common::mcp::{run, tools_of};
use crate::common::{absolute, bin};
use serde_json::{Value, json};
use std::path::Path;
use toolpact_mcp::{ClientOptions, Connection, Source};

/// A catalog of five note tools: two read-only, one that only adds, one marked destructive
/// and one without annotations (which MCP takes as destructive).
const NOTES: &str = "fixtures/proxy/notes.json";

/// The tools of [`NOTES`], in order.
const NOTE_TOOLS: [&str; 5] = [
    "list_notes",
    "read_note",
    "save_note",
    "delete_note",
    "purge_notes",
];

/// `toolpact proxy FLAGS… -- UPSTREAM…`.
fn proxy(flags: &[&str], upstream: &[String]) -> Source {
    let mut args: Vec<String> = vec!["proxy".to_owned()];
    args.extend(flags.iter().map(|f| (*f).to_owned()));
    args.push("--".to_owned());
    args.extend(upstream.iter().cloned());
    Source::command(bin(), args)
}

/// `toolpact serve CATALOG…`, as the command line of an upstream.
fn serve(catalogs: &[&str]) -> Vec<String> {
    let mut command = vec![bin().to_owned(), "serve".to_owned()];
    command.extend(catalogs.iter().map(|c| absolute(c)));
    command
}

/// `toolpact proxy FLAGS… -- toolpact serve CATALOG…`.
fn proxied(flags: &[&str], catalogs: &[&str]) -> Source {
    proxy(flags, &serve(catalogs))
}

/// Runs `talk` with a client connected through `source`, then ends the session, which stops
/// the proxy and its upstream (a failed assertion drops the connection, which kills them).
fn with_client<T>(source: &Source, talk: impl AsyncFnOnce(&Connection) -> T) -> T {
    toolpact_mcp::block_on(async {
        let connection = Connection::open(source, &ClientOptions::default())
            .await
            .unwrap();
        let out = talk(&connection).await;
        connection.close().await;
        out
    })
    .unwrap()
}

/// The events of an audit log file.
fn audit(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// What one session saw of the tool list through the proxy, and what its audit log says.
///
/// The proxy checks every tool list it reads (its own reading after `initialized`, and each
/// answer to the client's `tools/list`) and logs every check; a verdict is logged when it is
/// new.
struct Listed {
    /// The names of the tools the client got, in order.
    names: Vec<String>,
    /// The audit log's events.
    events: Vec<Value>,
}

impl Listed {
    /// The events of one kind.
    fn events(&self, event: &str) -> Vec<&Value> {
        self.events.iter().filter(|e| e["event"] == event).collect()
    }

    /// What the checks of the tool list counted, as (passed, withheld, warned), each once.
    fn checks(&self) -> Vec<(u64, u64, u64)> {
        let mut checks: Vec<(u64, u64, u64)> = Vec::new();
        for e in self.events("list-checked") {
            let count = |field: &str| e[field].as_u64().unwrap();
            let check = (count("passed"), count("withheld"), count("warned"));
            if !checks.contains(&check) {
                checks.push(check);
            }
        }
        checks
    }

    /// The tools named by the events of one kind, each once, in the order of the log.
    fn tools(&self, event: &str) -> Vec<&str> {
        let mut tools: Vec<&str> = Vec::new();
        for tool in self
            .events(event)
            .iter()
            .map(|e| e["tool"].as_str().unwrap())
        {
            if !tools.contains(&tool) {
                tools.push(tool);
            }
        }
        tools
    }

    /// The reason of the events of a kind about `tool`, which every check of the list gave
    /// alike, with the `check` named.
    fn reason(&self, event: &str, tool: &str, check: &str) -> &str {
        let verdicts: Vec<(&Value, &Value)> = self
            .events(event)
            .into_iter()
            .filter(|e| e["tool"] == tool)
            .map(|e| (&e["check"], &e["reason"]))
            .collect();
        assert!(
            !verdicts.is_empty(),
            "no {event} for {tool}: {:#?}",
            self.events
        );
        assert!(
            verdicts.iter().all(|v| *v == verdicts[0]),
            "{event} for {tool} differs from one check to the next: {verdicts:#?}"
        );
        assert_eq!(verdicts[0].0, check, "{verdicts:#?}");
        verdicts[0].1.as_str().unwrap()
    }
}

/// Lists the tools through `toolpact proxy FLAGS… --audit-log FILE -- UPSTREAM…`.
fn listed(flags: &[&str], upstream: &[String]) -> Listed {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    let mut flags = flags.to_vec();
    flags.extend(["--audit-log", log.to_str().unwrap()]);
    let tools = with_client(&proxy(&flags, upstream), async |connection| {
        connection.list_tools().await.unwrap()
    });
    Listed {
        names: names_of(&tools),
        events: audit(&log),
    }
}

/// The names of a list of tools.
fn names_of(tools: &[Value]) -> Vec<String> {
    tools
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_gift_shop_passes_through_and_bad_calls_stop_at_the_proxy() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    let source = proxied(
        &["--audit-log", log.to_str().unwrap(), "--log-arguments"],
        &["examples/catalogs/gift-shop.json"],
    );
    toolpact_mcp::block_on(async {
        let connection = Connection::open(&source, &ClientOptions::default())
            .await
            .unwrap();
        assert_eq!(
            connection.server_info().unwrap().name.as_deref(),
            Some("toolpact")
        );
        assert_eq!(
            connection.list_tools().await.unwrap(),
            tools_of("examples/catalogs/gift-shop.json")
        );
        let invalid = connection
            .call_tool("create_order", json!({"giftId": "g-1", "quantity": 0}))
            .await
            .unwrap();
        assert!(invalid.is_error);
        assert!(
            invalid
                .text_content()
                .starts_with("Invalid arguments for create_order: 1 problem."),
            "{}",
            invalid.text_content()
        );
        connection.close().await;
    })
    .unwrap();
    let events = audit(&log);
    let refused: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"] == "call-refused")
        .collect();
    assert_eq!(refused.len(), 1, "{events:?}");
    assert_eq!(refused[0]["tool"], "create_order");
    assert_eq!(
        refused[0]["arguments"],
        json!({"giftId": "g-1", "quantity": 0})
    );
    assert!(events.iter().all(|e| e["event"] != "call-forwarded"));
}

#[test]
fn a_server_that_changed_since_its_lock_loses_the_changed_tools() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    let source = proxied(
        &[
            "--lock",
            &absolute("examples/catalogs/gift-shop.lock"),
            "--audit-log",
            log.to_str().unwrap(),
        ],
        &["examples/catalogs/gift-shop-v2.json"],
    );
    toolpact_mcp::block_on(async {
        let connection = Connection::open(&source, &ClientOptions::default())
            .await
            .unwrap();
        let tools = connection.list_tools().await.unwrap();
        assert!(tools.is_empty(), "{tools:?}");
        let refused = connection
            .call_tool("suggest_gifts", json!({}))
            .await
            .unwrap_err();
        let text = refused.to_string();
        assert!(
            text.contains(
                "Tool suggest_gifts is withheld by toolpact proxy: its contract differs from"
            ),
            "{text}"
        );
        assert!(
            text.contains("/annotations/readOnlyHint: [security] the tool is no longer read-only"),
            "{text}"
        );
        connection.close().await;
    })
    .unwrap();
    let withheld: Vec<Value> = audit(&log)
        .into_iter()
        .filter(|e| e["event"] == "tool-withheld")
        .collect();
    let tools: Vec<&str> = withheld
        .iter()
        .map(|e| e["tool"].as_str().unwrap())
        .collect();
    assert!(
        tools.contains(&"suggest_gifts") && tools.contains(&"create_order"),
        "{tools:?}"
    );
    assert!(withheld.iter().all(|e| e["check"] == "lock"));
}

#[test]
fn the_proxy_section_of_the_configuration_renames_and_denies() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolpact.toml");
    std::fs::write(
        &config,
        "[proxy]\ndeny = [\"create_order\"]\n\n[proxy.rename]\nsuggest_gifts = \"gift_ideas\"\n",
    )
    .unwrap();
    let source = proxied(
        &["--config", config.to_str().unwrap()],
        &["examples/catalogs/gift-shop.json"],
    );
    toolpact_mcp::block_on(async {
        let connection = Connection::open(&source, &ClientOptions::default())
            .await
            .unwrap();
        let tools = connection.list_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["gift_ideas"]);
        connection.close().await;
    })
    .unwrap();
    // The linter reads the same file and leaves the section alone.
    run(
        &[
            "check",
            "--config",
            config.to_str().unwrap(),
            "examples/catalogs/gift-shop.json",
        ],
        &[],
    )
    .assert_code(0);
}

#[test]
fn what_the_proxy_cannot_start_with_is_said_before_anything_runs() {
    let run_ = run(&["proxy"], &[]);
    run_.assert_code(2);
    assert!(
        run_.stderr.contains("give the server to put behind the proxy: -- COMMAND ARGS… (a stdio server) or --url URL"),
        "{}",
        run_.stderr
    );
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolpact.toml");
    std::fs::write(&config, "[proxy]\non-injection = \"ignore\"\n").unwrap();
    let bad = run(
        &["proxy", "--config", config.to_str().unwrap(), "--", "true"],
        &[],
    );
    bad.assert_code(2);
    assert!(bad.stderr.contains("[proxy]"), "{}", bad.stderr);
    assert!(bad.stderr.contains("ignore"), "{}", bad.stderr);
    let missing = run(
        &[
            "proxy",
            "--lock",
            "/nonexistent/toolpact.lock",
            "--",
            "true",
        ],
        &[],
    );
    missing.assert_code(2);
    assert!(
        missing
            .stderr
            .contains("cannot read the lock file /nonexistent/toolpact.lock"),
        "{}",
        missing.stderr
    );
}
