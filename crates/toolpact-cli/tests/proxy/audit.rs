//! `--audit-log -`: the audit log on standard error, with standard output left to the
//! protocol. The session is driven line by line, so that every line the proxy writes to
//! standard output is read and checked.

use super::{Listed, NOTE_TOOLS, NOTES, names_of, serve};
use crate::common::mcp::Process;
use serde_json::{Value, json};

/// Sends a request and returns its answer, which must be the next line on standard output: a
/// JSON-RPC response to that request, with nothing written in between.
fn answer(proxy: &mut Process, id: u64, method: &str, params: Value) -> Value {
    let answer =
        proxy.request(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
    assert_eq!(answer["id"], id, "{answer}");
    assert!(answer.get("result").is_some(), "{answer}");
    answer["result"].clone()
}

#[test]
fn the_audit_log_on_standard_error_leaves_standard_output_to_the_protocol() {
    let mut args = vec!["proxy", "--audit-log", "-", "--deny", "purge_notes", "--"];
    let upstream = serve(&[NOTES]);
    args.extend(upstream.iter().map(String::as_str));
    let mut proxy = Process::start(&args, &[]);
    answer(
        &mut proxy,
        1,
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "toolpact-tests", "version": "0"}
        }),
    );
    proxy.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let listed = answer(&mut proxy, 2, "tools/list", json!({}));
    let called = answer(
        &mut proxy,
        3,
        "tools/call",
        json!({"name": "read_note", "arguments": {"id": "n-1"}}),
    );
    assert_eq!(
        called["isError"], true,
        "the catalog server has no handlers: {called}"
    );
    let stderr = proxy.stderr_until(r#""event":"call-answered""#);
    // The call's audit event is written: a line written after the call's answer, on standard
    // output, would come before the answer to this ping.
    answer(&mut proxy, 4, "ping", json!({}));
    assert_eq!(proxy.finish(), 0);

    let events: Vec<Value> = stderr
        .iter()
        .filter(|line| line.contains(r#""event":"#))
        .map(|line| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("an audit line is not JSON ({e}): {line}"))
        })
        .collect();
    let log = Listed {
        names: names_of(listed["tools"].as_array().unwrap()),
        events,
    };
    assert_eq!(log.names, &NOTE_TOOLS[..4]);
    assert!(
        log.events.iter().all(|e| e["time"].is_string()),
        "{stderr:#?}"
    );
    let (forwarded, answered) = (log.events("call-forwarded"), log.events("call-answered"));
    assert_eq!((forwarded.len(), answered.len()), (1, 1), "{stderr:#?}");
    assert_eq!(forwarded[0]["tool"], "read_note");
    assert_eq!(
        (&answered[0]["tool"], &answered[0]["outcome"]),
        (&json!("read_note"), &json!("tool-error"))
    );
    // Each check of the tool list (the proxy's own reading and the answer to the client's
    // `tools/list`, in either order, the later one possibly still being logged) logs the
    // check and the tool it withheld, and nothing else.
    assert_eq!(log.checks(), [(4, 1, 0)], "{stderr:#?}");
    assert_eq!(log.tools("tool-withheld"), ["purge_notes"]);
    let kinds = [
        "list-checked",
        "tool-withheld",
        "call-forwarded",
        "call-answered",
    ];
    assert!(
        log.events
            .iter()
            .all(|e| kinds.contains(&e["event"].as_str().unwrap())),
        "{stderr:#?}"
    );
    // The proxy's own log lines share standard error with the audit log, one whole line each.
    assert!(
        stderr
            .iter()
            .any(|line| !line.starts_with('{') && line.contains("withheld tool purge_notes")),
        "{stderr:#?}"
    );
}
