//! `--tool-timeout TOOL=SECS` and `[proxy.tool-timeouts]`: a tool's own time limit, with the
//! other tools under the default one. The upstream is `fixtures/proxy/slow_server.py`, whose
//! tools take as long as the call tells them to.

use super::{audit, proxy, with_client};
use crate::common::absolute;
use serde_json::json;
use std::collections::BTreeMap;

/// `python3 fixtures/proxy/slow_server.py`.
fn slow_server() -> Vec<String> {
    vec![
        "python3".to_owned(),
        absolute("fixtures/proxy/slow_server.py"),
    ]
}

/// Calls `think` for 5 s and `nap` for 1.5 s at once through `toolpact proxy FLAGS…`, where
/// the flags give `think`, and only `think`, a limit of 1 s: `think` gets an error result
/// saying its time ran out, `nap`, although it takes longer than that, its answer.
fn assert_only_think_runs_out_of_time(flags: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    let mut flags = flags.to_vec();
    flags.extend(["--audit-log", log.to_str().unwrap()]);
    let (think, nap) = with_client(&proxy(&flags, &slow_server()), async |connection| {
        futures::join!(
            connection.call_tool("think", json!({"seconds": 5})),
            connection.call_tool("nap", json!({"seconds": 1.5})),
        )
    });
    let (think, nap) = (think.unwrap(), nap.unwrap());
    assert!(think.is_error, "{think:?}");
    assert_eq!(
        think.text_content(),
        "think did not answer within 1 s; toolpact proxy cancelled the call. Try again later, or with less to do."
    );
    assert!(!nap.is_error, "{nap:?}");
    assert_eq!(nap.text_content(), "nap took 1.5 s");
    let outcomes: BTreeMap<String, String> = audit(&log)
        .iter()
        .filter(|e| e["event"] == "call-answered")
        .map(|e| (e["tool"].to_string(), e["outcome"].to_string()))
        .collect();
    assert_eq!(outcomes[r#""think""#], r#""timed-out""#, "{outcomes:?}");
    assert_eq!(outcomes[r#""nap""#], r#""ok""#, "{outcomes:?}");
}

#[test]
fn a_tool_past_the_limit_its_flag_gives_it_gets_an_error_and_the_others_keep_the_default() {
    assert_only_think_runs_out_of_time(&["--tool-timeout", "think=1"]);
}

#[test]
fn a_tool_past_the_limit_the_tool_timeouts_table_gives_it_gets_an_error() {
    let config = absolute("fixtures/proxy/tool-timeouts.toml");
    assert_only_think_runs_out_of_time(&["--config", &config]);
}

#[test]
fn the_tool_timeout_flag_overrides_the_table_for_its_tool() {
    let config = absolute("fixtures/proxy/tool-timeouts-long.toml");
    assert_only_think_runs_out_of_time(&["--config", &config, "--tool-timeout", "think=1"]);
}
