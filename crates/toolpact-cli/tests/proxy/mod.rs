//! `toolpact proxy`: the command in front of `toolpact serve`, driven by toolpact's own MCP
//! client; what the gates withhold and refuse is read back from the audit log.

use crate::common::mcp::{run, tools_of};
use crate::common::{absolute, bin};
use serde_json::{Value, json};
use toolpact_mcp::{ClientOptions, Connection, Source};

/// `toolpact proxy FLAGS… -- toolpact serve CATALOG`.
fn proxied(flags: &[&str], catalog: &str) -> Source {
    let mut args: Vec<String> = vec!["proxy".to_owned()];
    args.extend(flags.iter().map(|f| (*f).to_owned()));
    args.extend([
        "--".to_owned(),
        bin().to_owned(),
        "serve".to_owned(),
        absolute(catalog),
    ]);
    Source::command(bin(), args)
}

fn audit(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_gift_shop_passes_through_and_bad_calls_stop_at_the_proxy() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    let source = proxied(
        &["--audit-log", log.to_str().unwrap(), "--log-arguments"],
        "examples/catalogs/gift-shop.json",
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
        "examples/catalogs/gift-shop-v2.json",
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
        "examples/catalogs/gift-shop.json",
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
