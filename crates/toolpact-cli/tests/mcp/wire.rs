//! The exact `tools/list` and `tools/call` answers `toolpact serve` writes on stdio, per
//! protocol version, as golden files.

use crate::common::mcp::Process;
use serde_json::{Value, json};

const CATALOGS: [&str; 2] = [
    "examples/catalogs/gift-shop.json",
    "fixtures/lowering/unknown-fields-icons.json",
];

fn initialize(version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "wire-test", "version": "1"}
    }})
}

/// Per-request metadata, which 2026-07-28 sends instead of an `initialize` handshake.
fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "wire-test", "version": "1"}
    })
}

/// Answers to `tools/list` and to one invalid `tools/call` in a session of `version`.
fn session(version: &str) -> (Value, Value) {
    let mut args = vec!["serve"];
    args.extend(CATALOGS);
    let mut server = Process::start(&args, &[("RUST_LOG", "error")]);
    let mut params = json!({});
    let mut call_params =
        json!({"name": "translate_text", "arguments": {"text": "hi", "target_language": 7}});
    if version == "2026-07-28" {
        params["_meta"] = meta_2026();
        call_params["_meta"] = meta_2026();
    } else {
        let answer = server.request(&initialize(version));
        assert_eq!(answer["result"]["protocolVersion"], version);
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }
    let list = server
        .request(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params}));
    let call = server.request(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call_params}),
    );
    assert_eq!(server.finish(), 0);
    (list, call)
}

#[test]
fn tools_list_and_call_on_the_wire() {
    for version in toolpact_mcp::PROTOCOL_VERSIONS {
        let (list, call) = session(version);
        insta::assert_json_snapshot!(format!("tools-list-{version}"), list);
        insta::assert_json_snapshot!(format!("tools-call-invalid-{version}"), call);
    }
}

#[test]
fn what_the_wire_model_cannot_carry_is_named_when_serving_starts() {
    let server = Process::start(&["serve", CATALOGS[1]], &[]);
    let mut warnings: Vec<String> = server
        .stderr_until("/x-deprecated")
        .into_iter()
        .filter_map(|line| line.split_once(" WARN ").map(|(_, w)| w.to_owned()))
        .collect();
    // The warnings follow the order of the tool's fields: `x-deprecated` comes last.
    warnings.sort();
    assert_eq!(
        warnings,
        [
            "tool \"translate_text\": /execution is not served: rmcp's Tool model has no place for it",
            "tool \"translate_text\": /x-deprecated is not served: rmcp's Tool model has no place for it",
            "tool \"translate_text\": /x-vendor is not served: rmcp's Tool model has no place for it",
        ]
    );
    assert_eq!(server.finish(), 0);
}
